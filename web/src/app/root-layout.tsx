import { useEffect, useState } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { Outlet, useNavigate } from "react-router";
import { ErrorDialog } from "../components/error-dialog/error-dialog";
import { ToastProvider } from "../components/toast/toast";
import { onApiFailure } from "../lib/api-client";
import type { ErrorDialog as ErrorDialogModel } from "../lib/wasm";
import { ConfiguredGuard } from "./guards";
import { createQueryClient } from "./query-client";
import { SessionProvider, useSession } from "./session";

/** Providers and app-wide behaviour that need the router: server state (TanStack Query), the
 * configured guard, the session, toasts, and what happens when any API call fails (spec 01 §8). */
export function RootLayout() {
  // One client per mounted app (a test's fresh router gets a fresh cache).
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <ConfiguredGuard>
          <SessionProvider>
            <ApiFailureHandler />
            <Outlet />
          </SessionProvider>
        </ConfiguredGuard>
      </ToastProvider>
    </QueryClientProvider>
  );
}

/** Screens that keep working offline (issue 5 part 6): the survey kiosk and runner. */
function worksOffline(pathname: string): boolean {
  return pathname === "/survey" || pathname.startsWith("/survey/");
}

function ApiFailureHandler() {
  const navigate = useNavigate();
  const { clear } = useSession();
  const [dialog, setDialog] = useState<ErrorDialogModel | null>(null);
  useEffect(
    () =>
      onApiFailure(({ dialog, status }) => {
        if (status === 0 && worksOffline(window.location.pathname)) {
          // The survey runner works from the device copy without a network and says so itself
          // ('saved on this device'); a start that needs the server shows the spec's message on
          // the survey screen. The global 'No internet' dialog stays for every other page.
          return;
        }
        if (dialog.Kind === "Redirect") {
          // 401: the session is gone; sign in again. Inside the shell the guard redirects;
          // elsewhere (e.g. the login page itself) this navigate does.
          const to = dialog.RedirectTo ?? "/patient/login";
          clear(to);
          navigate(to, { replace: true });
        } else {
          setDialog(dialog);
        }
      }),
    [navigate, clear],
  );
  return dialog ? <ErrorDialog error={dialog} onClose={() => setDialog(null)} /> : null;
}
