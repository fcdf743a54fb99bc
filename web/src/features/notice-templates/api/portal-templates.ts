import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { Deleted, PortalTemplate } from "../../../lib/wire";

export const portalTemplatesKey = ["notice-templates", "portal"] as const;

/** GET /api/notificationTemplate/gettemplates (spec 03 §7). */
export function listPortalTemplates(): Promise<PortalTemplate[]> {
  return api.get<PortalTemplate[]>("/api/notificationTemplate/gettemplates");
}

/** POST /api/notificationTemplate/save (Id 0 adds); 400 and 409 are shown by the modal. */
export function savePortalTemplate(template: PortalTemplate): Promise<PortalTemplate> {
  return api.post<PortalTemplate>("/api/notificationTemplate/save", template, { handles: [400, 409] });
}

/** DELETE /api/notificationTemplate/RemoveTemplate?id. */
export function removePortalTemplate(id: number): Promise<Deleted> {
  return api.delete<Deleted>(`/api/notificationTemplate/RemoveTemplate?id=${encodeURIComponent(id)}`);
}

export const portalTemplatesQuery = queryOptions({ queryKey: portalTemplatesKey, queryFn: listPortalTemplates, staleTime: 0 });

export function usePortalTemplates() {
  const queryClient = useQueryClient();
  const query = useQuery(portalTemplatesQuery);
  return {
    templates: query.data ?? [],
    loading: query.isFetching,
    reload: () => queryClient.invalidateQueries({ queryKey: portalTemplatesKey }),
  };
}
