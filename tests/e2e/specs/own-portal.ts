import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// A demo portal of a spec's own (the same binary and web build, a throwaway SQLite database on a
// free loopback port), for specs that change settings every other spec's portal depends on.

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = process.env.PORTAL_API_BIN ?? join(ROOT, "target/debug/portal-api");

export interface OwnPortal {
  /** http://127.0.0.1:{port} */
  base: string;
  stop: () => void;
}

export async function startOwnPortal(name: string): Promise<OwnPortal> {
  const dir = mkdtempSync(join(tmpdir(), `portal-${name}-e2e-`));
  const portal: ChildProcess = spawn(
    BIN,
    ["--bind", "127.0.0.1:0", "--demo", "--database-url", `sqlite://${dir}/portal.db`, "--web-dir", join(ROOT, "web/dist")],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const stop = () => {
    portal.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  const base = await new Promise<string>((resolve, reject) => {
    let out = "";
    portal.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    });
    portal.on("exit", (code) => reject(new Error(`portal-api exited (${code})`)));
    setTimeout(() => reject(new Error("portal-api did not start")), 30_000);
  }).catch((e: unknown) => {
    stop();
    throw e;
  });
  return { base, stop };
}
