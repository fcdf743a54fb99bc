import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SetValueRequest } from "../../../lib/wire";
import { homeKeys, type HomeContentKey } from "./home-content";

/** Program managers: store one value (POST /api/settings/setvalue, the PortalValues group through
 * the settings engine); the answer holds the value as stored (sanitised). A 400 is shown under
 * the field by the form. */
export function setValue(key: string, value: string): Promise<Record<string, string>> {
  const body: SetValueRequest = { key, value };
  return api.post<Record<string, string>>("/api/settings/setvalue", body, { handles: [400] });
}

/** Saves the home content; the page shows the stored (sanitised) copy at once and reads it again. */
export function useSetHomeContent(contentKey: HomeContentKey) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (html: string) => setValue(contentKey, html),
    onSuccess: (stored) => {
      const key = homeKeys.values([contentKey]);
      queryClient.setQueryData(key, stored[contentKey] ?? "");
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
