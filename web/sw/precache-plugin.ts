// Vite plugin (build only): writes dist/sw.js from sw/sw.js with the precache list of this build,
// i.e. every file Vite emitted (index.html as the shell, hashed JS and CSS chunks, the .wasm)
// plus the files copied from public/ (manifest, icons). The list is made here, at build time,
// never by hand; VERSION is a hash of the list so each deployment gets a fresh cache.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Plugin } from "vite";

function filesUnder(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out = statSync(path).isDirectory() ? out.concat(filesUnder(path)) : out.concat(path);
  }
  return out;
}

/** The URL paths to precache for these emitted file names (source maps and the worker left out). */
export function precacheList(emitted: string[]): string[] {
  const paths = emitted
    .map((f) => "/" + f.replace(/\\/g, "/"))
    .filter((p) => !p.endsWith(".map") && p !== "/sw.js");
  return [...new Set(paths)].sort();
}

export function precachePlugin(options: { template: string; publicDir: string }): Plugin {
  return {
    name: "portal-precache",
    apply: "build",
    enforce: "post",
    generateBundle(_, bundle) {
      const fromPublic = filesUnder(options.publicDir).map((f) => relative(options.publicDir, f));
      const list = precacheList([...Object.keys(bundle), ...fromPublic]);
      const template = readFileSync(options.template, "utf8");
      const version = createHash("sha256").update(list.join("\n")).update(template).digest("hex").slice(0, 12);
      const source = template
        .replace("self.__PRECACHE__", JSON.stringify(list))
        .replace("self.__VERSION__", JSON.stringify(version));
      this.emitFile({ type: "asset", fileName: "sw.js", source });
    },
  };
}
