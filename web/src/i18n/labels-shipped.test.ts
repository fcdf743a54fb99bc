// @vitest-environment node
// Every label key a page asks for with `t("Key")` (no fallback text) is shipped in
// wasm-core/labels, so no patient ever sees a bare key.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { englishLabels } from "../../vite/label-english";

const SRC = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("shipped labels", () => {
  it("has every key the pages ask for", () => {
    const shipped = englishLabels();
    const missing: string[] = [];
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\(\s*"([A-Za-z0-9_]+)"\s*\)/g)) {
        if (!(m[1] in shipped)) missing.push(`${m[1]} (${file.slice(SRC.length)})`);
      }
    }
    expect(missing).toEqual([]);
  });
});
