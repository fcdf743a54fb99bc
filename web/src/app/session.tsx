import { useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { loadSession, type SessionInfo } from "../features/auth/api/session";
import { menuFor, type MenuItem } from "../lib/wasm";
import { rememberForPatient } from "../i18n/labels";

export type SessionState =
  | { status: "loading" }
  /** `loginPath`: where a sign-out sent the user (the login of their kind). */
  | { status: "signed-out"; loginPath?: string }
  | { status: "signed-in"; info: SessionInfo; menu: MenuItem[] };

interface SessionApi {
  state: SessionState;
  /** Reads the session from the server (after sign-in, and once at start-up). */
  reload: () => Promise<SessionState>;
  /** Forgets the session locally (after logout or a 401); the shell guard then sends the user
   * to `loginPath` (default: the patient login, spec 01 §6). */
  clear: (loginPath?: string) => void;
}

const SessionContext = createContext<SessionApi | null>(null);

function toState(info: SessionInfo): SessionState {
  if (!info.permissions.IsUserLoggedIn) return { status: "signed-out" };
  // The menu per role and module is a rule (spec 01 §2.1, §6): wasm-core decides it.
  return { status: "signed-in", info, menu: menuFor(info.permissions, info.modules) };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: "loading" });
  const reload = useCallback(async () => {
    try {
      const next = toState(await loadSession());
      setState(next);
      return next;
    } catch {
      // The failure was already reported (dialog or redirect); treat the visitor as signed out.
      const next: SessionState = { status: "signed-out" };
      setState(next);
      return next;
    }
  }, []);
  const queryClient = useQueryClient();
  const clear = useCallback(
    (loginPath?: string) => {
      // Nothing read under the old session stays in the cache for the next one (logout, 401).
      queryClient.clear();
      setState({ status: "signed-out", loginPath });
    },
    [queryClient],
  );
  useEffect(() => {
    void reload();
  }, [reload]);
  // A signed-in patient's language choices are kept on their record (issue 21).
  useEffect(() => {
    rememberForPatient(state.status === "signed-in" && state.info.permissions.IsPatient);
  }, [state]);
  const value = useMemo(() => ({ state, reload, clear }), [state, reload, clear]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs a SessionProvider");
  return session;
}

/** The login page a user of this kind signs in at. */
export function loginPathFor(info: SessionInfo | undefined): string {
  return info && !info.permissions.IsPatient ? "/staff/login" : "/patient/login";
}
