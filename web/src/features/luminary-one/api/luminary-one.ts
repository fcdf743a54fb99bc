import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { loadSettingsRules } from "../../../lib/wasm-settings";
import type { LuminaryOnePage } from "../../../lib/wasm";

// The Luminary One Settings page's calls (spec 03 §7 testLuminaryOneWebAddress; the page's own
// path is not shown there: GET/PUT /api/luminaryOne/settings).
export const luminaryOneKey = ["luminary-one", "settings"] as const;

export const luminaryOneQuery = queryOptions({
  queryKey: luminaryOneKey,
  queryFn: async ({ signal }) =>
    (await Promise.all([api.get<LuminaryOnePage>("/api/luminaryOne/settings", { signal }), loadSettingsRules()]))[0],
  staleTime: 0,
});

export function useLuminaryOne() {
  const queryClient = useQueryClient();
  const query = useQuery(luminaryOneQuery);
  const save = useMutation({
    mutationFn: (body: LuminaryOnePage) => api.put<LuminaryOnePage>("/api/luminaryOne/settings", body, { handles: [400, 409] }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: luminaryOneKey }),
  });
  return { query, save, reload: () => queryClient.invalidateQueries({ queryKey: luminaryOneKey }) };
}

/** GET /api/connectionTest/testLuminaryOneWebAddress?address: true when it answers; an error
 * yields false (spec 03 §7). */
export async function testLuminaryOneWebAddress(address: string): Promise<boolean> {
  try {
    return await api.get<boolean>(`/api/connectionTest/testLuminaryOneWebAddress?address=${encodeURIComponent(address)}`, {
      report: false,
    });
  } catch {
    return false;
  }
}
