import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A private CUPS scheduler for the printer specs (as tests/api/src/cups.rs): Debian's cupsd run
 * by the spec itself in the foreground with its own configuration in a temp folder, on
 * 127.0.0.1:<free port> plus a Unix socket for lpadmin; raw queues printing to /dev/null, with
 * each job's document kept in the spool to be read back. */
export class CupsServer {
  private constructor(
    private child: ChildProcess | null,
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(printers: string[]): Promise<CupsServer> {
    const dir = mkdtempSync(join(tmpdir(), "portal-cups-"));
    for (const sub of ["spool", "cache", "state", "log", "ppd"]) mkdirSync(join(dir, sub));
    const port = await freePort();
    const socket = join(dir, "cups.sock");
    writeFileSync(
      join(dir, "cupsd.conf"),
      `Listen 127.0.0.1:${port}\nListen ${socket}\nLogLevel info\nWebInterface No\nBrowsing No\nDefaultAuthType None\n` +
        `PreserveJobFiles Yes\nPreserveJobHistory Yes\n<Location />\n  Order allow,deny\n  Allow all\n</Location>\n`,
    );
    writeFileSync(
      join(dir, "cups-files.conf"),
      `ServerRoot ${dir}\nStateDir ${dir}/state\nCacheDir ${dir}/cache\nRequestRoot ${dir}/spool\nTempDir ${dir}/spool\n` +
        `ServerBin /usr/lib/cups\nDataDir /usr/share/cups\nAccessLog ${dir}/log/access_log\nErrorLog ${dir}/log/error_log\n` +
        `PageLog ${dir}/log/page_log\nFileDevice Yes\nSandboxing Relaxed\n`,
    );
    const child = spawn("/usr/sbin/cupsd", ["-f", "-c", join(dir, "cupsd.conf"), "-s", join(dir, "cups-files.conf")], { stdio: "ignore" });
    const server = new CupsServer(child, port, dir);
    for (let i = 0; i < 100 && !(existsSync(socket) && (await listening(port))); i++) await new Promise((r) => setTimeout(r, 100));
    for (const name of printers) {
      execFileSync("lpadmin", ["-h", socket, "-p", name, "-E", "-v", "file:///dev/null", "-m", "raw", "-D", `${name} queue`], { stdio: "pipe" });
    }
    return server;
  }

  get address(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The documents of the jobs received so far, in job order. */
  jobDocuments(): Buffer[] {
    const spool = join(this.dir, "spool");
    return readdirSync(spool)
      .filter((n) => n.startsWith("d") && n.endsWith("-001"))
      .sort()
      .map((n) => readFileSync(join(spool, n)));
  }

  /** The print server goes down. */
  stop() {
    this.child?.kill();
    this.child = null;
  }

  dispose() {
    this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}
