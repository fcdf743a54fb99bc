import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { saveSettingsGroup, settingsGroupQuery, settingsKeys, type SaveMethod } from "./api";
import type { SettingsEnvelope, SettingsSave } from "../../lib/wasm";

/** One settings group: the server copy (TanStack Query) and its save, which reloads the group
 * from the server afterwards (spec 04 §4 'Settings pages reload from the server after each save').
 * `path`: the spec's own address of the group when it has one (/api/techpadSettings/{category});
 * `method`: POST where the spec saves with POST. */
export function useSettingsGroup<T extends object>(name: string, path?: string, method?: SaveMethod) {
  const queryClient = useQueryClient();
  const query = useQuery(settingsGroupQuery<T>(name, path));
  const save = useMutation({
    mutationFn: (body: SettingsSave<T>) => saveSettingsGroup<T>(name, body, path, method),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.group(name) }),
  });
  return {
    name,
    query,
    envelope: query.data as SettingsEnvelope<T> | undefined,
    save,
    /** Reads the group from the server again (after a conflict). */
    reload: () => queryClient.invalidateQueries({ queryKey: settingsKeys.group(name) }),
  };
}

export type SettingsGroup<T extends object> = ReturnType<typeof useSettingsGroup<T>>;
