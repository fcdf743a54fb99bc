// Survey calls carry the kiosk's survey token (from the PIN check) and may be PUT; failures are
// described by wasm-core like every API failure, but shown by the runner itself (not the global
// dialog): a kiosk must keep the patient's answers on screen.
import { request } from "../../../lib/api-client";
import type { SurveyLocation } from "../../../lib/wasm";

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

/** A kiosk call through the one API client, with the survey token and admin grant; never
 * reported to the shell (the runner shows failures itself and keeps the answers on screen). */
export function surveyRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const token = surveyToken.get();
  if (token) headers["X-Survey-Token"] = token;
  const grant = surveyAdminGrant.get();
  if (grant) headers["X-Survey-Admin"] = grant;
  return request<T>(method, path, body, { report: false, headers });
}
