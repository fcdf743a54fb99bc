import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import type { SurveyCoverage } from "../../../lib/wire";

/** GET /api/survey/TranslationCoverage (issue 21): per valid survey, each language's share of
 * translated texts and the missing ones (wasm-core survey::coverage). `listRead` is when the
 * survey list was last read: an upload, replace or delete reads the list again, and so this. */
export function useTranslationCoverage(listRead: number) {
  return useQuery({
    queryKey: ["survey-packages", "translation-coverage", listRead] as const,
    queryFn: ({ signal }) => api.get<SurveyCoverage[]>("/api/survey/TranslationCoverage", { signal }),
    placeholderData: (previous) => previous,
  });
}
