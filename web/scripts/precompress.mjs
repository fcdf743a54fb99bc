// Writes NAME.br and NAME.gz beside every compressible file of the build (dist/), once at build
// time, at the highest levels: the server picks one by the client's Accept-Encoding (api web.rs)
// instead of compressing the same bytes on every request.
import { readdir, readFile, writeFile, stat } from "node:fs/promises";
import { join, extname } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".html", ".json", ".svg", ".wasm", ".webmanifest", ".map", ".txt", ".ftl", ".bcmap"]);
const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const root = process.argv[2] ?? "dist";
let count = 0;
let plain = 0;
let brotli = 0;
for await (const path of files(root)) {
  if (!COMPRESSIBLE.has(extname(path)) || (await stat(path)).size < MIN_BYTES) continue;
  const bytes = await readFile(path);
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  await writeFile(`${path}.br`, br);
  await writeFile(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  count += 1;
  plain += bytes.length;
  brotli += br.length;
}
console.log(`precompressed ${count} files: ${(plain / 1024).toFixed(0)} KiB -> ${(brotli / 1024).toFixed(0)} KiB brotli`);
