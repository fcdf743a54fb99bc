import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { ModulePermissions } from "../../../lib/wasm";

/** Whether the Tablet Survey module is licensed (spec 03 "License": Module_TabletSurvey): without
 * it the kiosk's start screen is not offered and its calls answer 403. Undefined while loading or
 * offline (the PIN screen then shows as before: its calls still answer for themselves). */
export function useTabletSurveyLicensed(): boolean | undefined {
  const modules = useQuery({
    queryKey: ["licensed-modules"],
    queryFn: ({ signal }) => api.get<ModulePermissions>("/api/accountApi/apppermissionsJson", { signal }),
  });
  return modules.data?.Module_TabletSurvey;
}
