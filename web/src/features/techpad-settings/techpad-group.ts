import { useSettingsGroup } from "../../components/settings-form";

/** spec 04 §7: a techpad settings group is read and saved at /api/techpadSettings/{category}; the
 * group's name in wasm-core is "Techpad" + category. */
export function useTechpadGroup<T extends object>(category: string) {
  return useSettingsGroup<T>(`Techpad${category}`, `/api/techpadSettings/${category}`);
}
