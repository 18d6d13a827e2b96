// A throwaway PostgreSQL cluster on a loopback port for the DB test suite, when the server
// binaries are installed (Debian: /usr/lib/postgresql/<version>/bin). Removed on stop().
// The several-hosts test runs one in a network namespace of its own, on that namespace's address.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./stack.mjs";

export function findPostgresBin() {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, "bin/initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0], "bin") : null;
}

/**
 * Returns { url, shutDown(), startAgain(), stop() } or null when no server binaries are installed.
 * By default the cluster listens on a free loopback port. `netns` (root only) starts it inside that
 * network namespace (`ip netns exec`), listening on `host` (default 127.0.0.1) and `port` (default
 * 5432: the namespace's ports are its own); `allowFrom`, a CIDR range, may connect without a
 * password besides loopback.
 */
export async function startThrowawayPostgres({
  netns,
  host = "127.0.0.1",
  port: wantedPort,
  allowFrom,
} = {}) {
  const bin = findPostgresBin();
  if (!bin) return null;
  const port = wantedPort ?? (netns ? 5432 : await freePort());
  const dir = mkdtempSync(join(tmpdir(), "ambercare-pg-"));
  const dataDir = join(dir, "data");
  // initdb refuses to run as root: run the cluster as the `postgres` system user then.
  const asRoot = process.getuid?.() === 0;
  let uid;
  let gid;
  if (asRoot) {
    uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  if (netns && !asRoot) throw new Error("a cluster in a network namespace needs root (ip netns exec)");
  // In a namespace, root enters it first and then becomes `postgres` (runuser); else the child
  // process is started as `postgres` directly.
  const command = (file, args) =>
    netns
      ? ["ip", ["netns", "exec", netns, "runuser", "-u", "postgres", "--", file, ...args], {}]
      : [file, args, { uid, gid }];
  const asUser = (file, args) => {
    const [c, a, ids] = command(file, args);
    const result = spawnSync(c, a, { encoding: "utf8", ...ids, cwd: dir });
    if (result.status !== 0) throw new Error(`${file} failed: ${result.stderr || result.stdout}`);
  };
  const asUserAsync = (file, args) =>
    new Promise((resolve, reject) => {
      const [c, a, ids] = command(file, args);
      execFile(c, a, { encoding: "utf8", ...ids, cwd: dir }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${file} failed: ${stderr || stdout || error.message}`));
        else resolve();
      });
    });
  const listen = host === "127.0.0.1" ? host : `127.0.0.1,${host}`;
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=${listen} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  asUser(join(bin, "initdb"), ["-D", dataDir, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  if (allowFrom) appendFileSync(join(dataDir, "pg_hba.conf"), `host all all ${allowFrom} trust\n`);
  const startArgs = ["-D", dataDir, "-l", join(dir, "server.log"), "-w", "-o", serverOptions, "start"];
  asUser(join(bin, "pg_ctl"), startArgs);
  let running = true;
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    /**
     * Shuts the server down as an operator would (`-m fast`: every connection gets 57P01). Resolves
     * once it is down; the event loop runs meanwhile, so a test's clients keep working.
     */
    async shutDown() {
      await asUserAsync(join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]);
      running = false;
    },
    /** Starts the server again after shutDown(), on the same port and data. */
    async startAgain() {
      await asUserAsync(join(bin, "pg_ctl"), startArgs);
      running = true;
    },
    /** Stops the server (unless it is shut down) and removes its files. */
    stop() {
      try {
        if (running) asUser(join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
