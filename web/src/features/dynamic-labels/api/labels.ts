import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { loadSettingsRules } from "../../../lib/wasm-settings";
import { reloadLabels } from "../../../i18n/labels";
import type { DynamicLabel, SaveLabelValues } from "../../../lib/wasm";

// spec 03 §7 "Labels": GET /api/Configuration/LoadLabels, POST /api/Configuration/SaveLabelValues
// (LoadLabelValues, the texts by language, is what the pages read: src/i18n).
export const labelsKey = ["labels", "all"] as const;

export const labelsQuery = queryOptions({
  queryKey: labelsKey,
  queryFn: async ({ signal }) =>
    (await Promise.all([api.get<DynamicLabel[]>("/api/Configuration/LoadLabels", { signal }), loadSettingsRules()]))[0],
  staleTime: 0,
});

export function useLabelsAdmin() {
  const queryClient = useQueryClient();
  const query = useQuery(labelsQuery);
  const save = useMutation({
    mutationFn: (body: SaveLabelValues) => api.post<DynamicLabel[]>("/api/Configuration/SaveLabelValues", body, { handles: [400, 409] }),
    onSuccess: async (labels) => {
      queryClient.setQueryData(labelsKey, labels);
      // The pages that use the keys show the saved texts without a rebuild or a reload.
      await reloadLabels();
    },
  });
  return { query, save, reload: () => queryClient.invalidateQueries({ queryKey: labelsKey }) };
}
