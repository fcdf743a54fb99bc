// The shipped labels' English texts (wasm-core/labels/*.json) as the module
// `virtual:label-english`, so a page paints in English before its language's texts arrive from
// /api/Configuration/LoadLabelValues. Only English is bundled: the other five languages come from
// the server (with the clinic's edits), so the bundle does not grow per language.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

const ID = "virtual:label-english";
const RESOLVED = "\0" + ID;
export const LABELS_DIR = fileURLToPath(new URL("../../wasm-core/labels/", import.meta.url));

/** key -> English text of every shipped label file. */
export function englishLabels(dir = LABELS_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const entries = JSON.parse(readFileSync(dir + file, "utf8")) as Record<string, { en: string }>;
    for (const [key, entry] of Object.entries(entries)) out[key] = entry.en;
  }
  return out;
}

export function labelEnglishPlugin(): Plugin {
  return {
    name: "label-english",
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      for (const file of readdirSync(LABELS_DIR).filter((f) => f.endsWith(".json"))) this.addWatchFile(LABELS_DIR + file);
      return `export default ${JSON.stringify(englishLabels())};`;
    },
  };
}
