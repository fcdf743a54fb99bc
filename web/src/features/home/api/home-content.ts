import { api } from "../../../lib/api-client";
import type { SetValueRequest } from "../../../lib/wire";

export const HOME_CONTENT_KEY = "Home_Page_Content";

/** Values by key (POST /api/settings/getValues); the server sanitises rich text. */
export function getValues(keys: string[], signal?: AbortSignal): Promise<Record<string, string>> {
  return api.post<Record<string, string>>("/api/settings/getValues", keys, { signal });
}

/** Program managers: store one value; the answer holds the value as stored (sanitised). */
export function setValue(key: string, value: string): Promise<Record<string, string>> {
  const body: SetValueRequest = { key, value };
  return api.post<Record<string, string>>("/api/settings/setvalue", body);
}
