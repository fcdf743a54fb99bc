import { QueryClient } from "@tanstack/react-query";

/** Server state for the whole app (STYLE.md "React app"). Failures are already reported by the
 * API client (401 -> login, the spec's error dialogs, spec 01 §8), so a query does not retry
 * (each retry would open the dialog again) and does not refetch behind the user's back when the
 * window regains focus: pages reload when they say so (e.g. a settings page after each save). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
