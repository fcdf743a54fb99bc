import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { settingsKeys } from "../../../components/settings-form";
import { api } from "../../../lib/api-client";
import type { ExamAction, StorageDictionary } from "../../../lib/wire";

// spec 04 §7: the techpad settings pages' lookups and the worklist sorting reset.

export const examActionsQuery = queryOptions({
  queryKey: ["techpad", "exam-actions"],
  queryFn: ({ signal }) => api.get<ExamAction[]>("/api/techpadSettings/LoadTechpadActionsForExam", { signal }),
  staleTime: Infinity,
});

/** ClassName and Description of every action an exam event can call. */
export function useExamActions() {
  return useQuery(examActionsQuery);
}

export const storageColumnsQuery = queryOptions({
  queryKey: ["techpad", "storage-columns"],
  queryFn: ({ signal }) => api.get<StorageDictionary[]>("/api/techpadSettings/StorageColumnsLookup", { signal }),
  staleTime: 60_000,
});

/** The tables a comment can be stored in, with their columns. */
export function useStorageColumns() {
  return useQuery(storageColumnsQuery);
}

/** PUT ResetWorklistSorting (empty body), then the group is read again from the server. */
export function useResetWorklistSorting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put<unknown>("/api/techpadSettings/ResetWorklistSorting", undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.group("TechpadWorklistSorting") }),
  });
}
