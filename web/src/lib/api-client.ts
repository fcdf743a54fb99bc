// Typed fetch wrapper for the portal API (ARCHITECTURE.md "Wire contract"). Same-origin cookies carry
// the session; unsafe methods repeat the portal_csrf cookie in X-CSRF-Token (double submit).
// Failures are mapped by wasm-core's describeHttpError (spec 01 §8) and reported to the app shell,
// which redirects (401) or opens the global error dialog.
import { describeHttpError, type ErrorDialog } from "./wasm";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export class ApiFailure extends Error {
  readonly status: number;
  readonly dialog: ErrorDialog;
  /** The response body as JSON (undefined when empty or not JSON): a 409 carries the current
   * copy, a 400 its field messages. */
  readonly body: unknown;
  constructor(status: number, dialog: ErrorDialog, body?: unknown) {
    super(dialog.Message || dialog.Title);
    this.name = "ApiFailure";
    this.status = status;
    this.dialog = dialog;
    this.body = body;
  }
}

type FailureListener = (failure: ApiFailure) => void;
const listeners = new Set<FailureListener>();

/** The shell subscribes once; it owns navigation and the error dialog. */
export function onApiFailure(listener: FailureListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

export interface RequestOptions {
  /** false: the caller shows the failure itself (e.g. the login form's 'Login Error'). */
  report?: boolean;
  /** Statuses the caller shows itself (e.g. a settings form's 400 and 409); any other failure is
   * still reported (a 401 still goes to the login). */
  handles?: readonly number[];
  signal?: AbortSignal;
  /** Extra request headers (the survey kiosk's token and admin grant). */
  headers?: Record<string, string>;
}

export async function request<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  // A Blob (an uploaded file) goes as the raw body with its own type, a form as multipart (the
  // browser sets the type with its boundary); anything else as JSON.
  const raw = body instanceof Blob || body instanceof FormData;
  if (body !== undefined && !(body instanceof FormData))
    headers["Content-Type"] = body instanceof Blob ? body.type || "application/octet-stream" : "application/json";
  if (UNSAFE.has(method)) {
    // The API sets the cookie on any response; the first unsafe call of a fresh visit may need
    // one safe call first, which the start-up configuration check always provides.
    // Served over HTTPS the cookie is `__Host-portal_csrf` (Secure, host-only); plain otherwise.
    const token = readCookie("__Host-portal_csrf") ?? readCookie("portal_csrf");
    if (token) headers["X-CSRF-Token"] = token;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : raw ? (body as Blob | FormData) : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    // No response at all (offline, server down): status 0 gets the generic server dialog.
    return fail(0, "", options);
  }
  const text = await response.text();
  if (!response.ok) return fail(response.status, text, options);
  return (text ? JSON.parse(text) : undefined) as T;
}

function fail(status: number, body: string, options: RequestOptions): never {
  const failure = new ApiFailure(status, describeHttpError(status, body), parseJson(body));
  const handled = options.report === false || (options.handles?.includes(status) ?? false);
  if (!handled) listeners.forEach((listener) => listener(failure));
  throw failure;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The form the survey administration uploads send: text fields first, then the file. */
export function uploadFormData(file: File, fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", file, file.name);
  return form;
}

export const api = {
  get: <T>(path: string, options: RequestOptions = {}) => request<T>("GET", path, undefined, options),
  post: <T>(path: string, body: unknown, options: RequestOptions = {}) => request<T>("POST", path, body, options),
  put: <T>(path: string, body: unknown, options: RequestOptions = {}) => request<T>("PUT", path, body, options),
  delete: <T>(path: string, options: RequestOptions = {}) => request<T>("DELETE", path, undefined, options),
  /** A file as the raw request body, sent with its own type (logo uploads). */
  upload: <T>(path: string, file: Blob, options: RequestOptions = {}) => request<T>("POST", path, file, options),
  /** A multipart form (spec 04 uploads): the file as part `file`, each field a text part. */
  uploadForm: <T>(path: string, file: File, fields: Record<string, string>, options: RequestOptions = {}) =>
    request<T>("POST", path, uploadFormData(file, fields), options),
};
