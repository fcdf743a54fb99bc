// Survey calls carry the kiosk's survey token (from the PIN check) and may be PUT; failures are
// described by wasm-core like every API failure, but shown by the runner itself (not the global
// dialog): a kiosk must keep the patient's answers on screen.
import { ApiFailure, readCookie } from "../../../lib/api-client";
import { describeHttpError, type SurveyLocation } from "../../../lib/wasm";

const TOKEN_KEY = "portal.surveyToken";

/** The token lives for the browser tab only (sessionStorage): a kiosk hand-back closes it. */
export const surveyToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY) ?? undefined,
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

const ADMIN_KEY = "portal.surveyAdmin";

const ADMIN_LOCATIONS_KEY = "portal.surveyAdminLocations";

/** The staff member's admin-PIN grant (staff start, spec 01 §2.5), for this tab only, with the
 * locations it covers (a reload keeps both). */
export const surveyAdminGrant = {
  get: () => sessionStorage.getItem(ADMIN_KEY) ?? undefined,
  set: (token: string, locations: SurveyLocation[] = []) => {
    sessionStorage.setItem(ADMIN_KEY, token);
    sessionStorage.setItem(ADMIN_LOCATIONS_KEY, JSON.stringify(locations));
  },
  locations: (): SurveyLocation[] => {
    try {
      const list: unknown = JSON.parse(sessionStorage.getItem(ADMIN_LOCATIONS_KEY) ?? "[]");
      return Array.isArray(list) ? (list as SurveyLocation[]) : [];
    } catch {
      return [];
    }
  },
  clear: () => {
    sessionStorage.removeItem(ADMIN_KEY);
    sessionStorage.removeItem(ADMIN_LOCATIONS_KEY);
  },
};

export async function surveyRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") {
    const csrf = readCookie("portal_csrf");
    if (csrf) headers["X-CSRF-Token"] = csrf;
  }
  const token = surveyToken.get();
  if (token) headers["X-Survey-Token"] = token;
  const grant = surveyAdminGrant.get();
  if (grant) headers["X-Survey-Admin"] = grant;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, describeHttpError(0, ""));
  }
  const text = await response.text();
  if (!response.ok) throw new ApiFailure(response.status, describeHttpError(response.status, text));
  return (text ? JSON.parse(text) : undefined) as T;
}
