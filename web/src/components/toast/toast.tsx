import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import "./toast.css";

export type ToastKind = "success" | "error";
interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  title?: string;
}
interface ToastApi {
  success: (message: string) => void;
  /** An optional title is shown above the message (e.g. spec 02 §8 'User creation error'). */
  error: (message: string, title?: string) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** How long a toast stays before it goes away by itself. */
export const TOAST_MS = 5000;

export function ToastProvider({ children, durationMs = TOAST_MS }: { children: ReactNode; durationMs?: number }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const push = useCallback((kind: ToastKind, message: string, title?: string) => {
    const id = nextId.current++;
    setToasts((list) => [...list, { id, kind, message, title }]);
  }, []);
  const toastApi = useMemo<ToastApi>(
    () => ({ success: (m) => push("success", m), error: (m, t) => push("error", m, t) }),
    [push],
  );
  return (
    <ToastContext.Provider value={toastApi}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} durationMs={durationMs} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, durationMs, onDismiss }: { toast: Toast; durationMs: number; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, durationMs, onDismiss]);
  // Errors interrupt (alert); successes are announced politely (status).
  return (
    <div className={`toast toast-${toast.kind}`} role={toast.kind === "error" ? "alert" : "status"}>
      <span>
        {toast.title && <strong className="toast-title">{toast.title}</strong>}
        {toast.message}
      </span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => onDismiss(toast.id)}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs a ToastProvider");
  return api;
}
