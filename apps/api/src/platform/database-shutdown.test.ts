import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPostgresBin, startThrowawayPostgres } from "../../../../scripts/lib/postgres.mjs";
import { API_DIR, freePort, ROOT, throwawaySecrets } from "../../../../scripts/lib/stack.mjs";

/**
 * The API as `npm start` runs it on PostgreSQL (two processes under the cluster launcher), started
 * while PostgreSQL is down, then with twenty patients' writes going on while the database is shut
 * down (`pg_ctl -m fast stop`: every connection is ended with 57P01) and started again, several
 * times. No API process may die: the process ids never change, every answer is 200 or 503 with
 * Retry-After, and writes succeed again within seconds of each restart. It needs a PostgreSQL server
 * of its own to stop, so it runs in the PostgreSQL pass (TEST_DATABASE_URL set) where the server
 * binaries are installed.
 */
const runs = Boolean(process.env.TEST_DATABASE_URL) && findPostgresBin() !== null;
const SHUTDOWNS = 8;
const WRITERS = 20;
/** How soon after PostgreSQL is up again twenty writes must have succeeded (it takes about a second). */
const RECOVERY_MS = 10_000;
const DEMO_PATIENT = { email: "demo@ambercare.example", password: "sunny-meadow-visit" };

type Cluster = NonNullable<Awaited<ReturnType<typeof startThrowawayPostgres>>>;
let database: Cluster | undefined;
let api: ChildProcess | undefined;
let apiUrl = "";
let dataDir = "";
let log = "";
const secrets = throwawaySecrets("shutdown");

/** The pids of the launcher's worker processes (Linux: the primary's children). */
function workerPids(primary: number): number[] {
  return readFileSync(`/proc/${primary}/task/${primary}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Waits for `check`, failing at once if the API stopped meanwhile. */
async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (api && api.exitCode !== null) throw new Error(`${what}: the API stopped\n${log.slice(-4000)}`);
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} within ${timeoutMs} ms\n${log.slice(-4000)}`);
}

beforeAll(async () => {
  if (!runs) return;
  database = (await startThrowawayPostgres()) ?? undefined;
  if (!database) throw new Error("no PostgreSQL server binaries");
  // Down when the API starts (the first test starts it again).
  await database.shutDown();
  dataDir = mkdtempSync(join(tmpdir(), "ambercare-shutdown-"));
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = spawn(process.execPath, ["--import", "tsx", join(ROOT, "scripts/lib/cluster.mjs"), "src/server.ts"], {
    cwd: API_DIR,
    env: {
      ...process.env,
      ...secrets,
      NODE_ENV: "test",
      API_PORT: String(port),
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      MAIL_TO_FILES: "true",
      SEED_DEMO_PATIENT: "true",
      RATE_LIMIT_MAX: "1000000",
      LOG_LEVEL: "warn",
      CLUSTER_PROCESSES: "2",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [api.stdout, api.stderr]) stream?.on("data", (chunk) => (log += String(chunk)));
}, 60_000);

afterAll(async () => {
  if (api && api.exitCode === null) {
    const exited = new Promise((resolve) => api?.once("exit", resolve));
    api.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  database?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(!runs)("PostgreSQL shut down under writers", () => {
  it("starts while PostgreSQL is down, waits for it, and serves once it is up", async () => {
    await waitUntil(
      () => /The database cannot be reached yet \(connect ECONNREFUSED/.test(log),
      60_000,
      "the API did not wait for the database",
    );
    await database!.startAgain();
    await waitUntil(async () => (await fetch(`${apiUrl}/healthz`)).ok, 60_000, "the API did not answer");
    expect(log).not.toMatch(/API failed to start|process \d+ stopped/);
  }, 120_000);

  it(`keeps both API processes through ${SHUTDOWNS} shutdowns, answering 503 meanwhile`, async () => {
    // The second process may still be starting: it is forked once the first listens, and the
    // shutdowns below may catch it before it reaches the database, as a restart in production may.
    const primary = api!.pid!;
    await waitUntil(() => workerPids(primary).length === 2, 30_000, "the second API process did not start");
    const pidsBefore = workerPids(primary);

    const login = await fetch(`${apiUrl}/api/v1/api/auth/login`, {
      method: "POST",
      headers: { authorization: `Bearer ${secrets.PUBLIC_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(DEMO_PATIENT),
    });
    expect(login.status).toBe(200);
    const { access_token: token, user_id: userId } = (await login.json()) as {
      access_token: string;
      user_id: string;
    };

    const answers = new Map<string, number>();
    const count = (key: string) => answers.set(key, (answers.get(key) ?? 0) + 1);
    let okSinceRestart = 0;
    let writing = true;
    const writer = async (n: number) => {
      let i = 0;
      while (writing) {
        i += 1;
        try {
          const res = await fetch(`${apiUrl}/ambercare/update-user`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ user_id: userId, city: `Tacoma ${n}-${i}` }),
            signal: AbortSignal.timeout(15_000),
          });
          await res.arrayBuffer();
          if (res.status === 503 && Number(res.headers.get("retry-after")) > 0) count("503");
          else count(String(res.status));
          if (res.status === 200) okSinceRestart += 1;
          else await new Promise((resolve) => setTimeout(resolve, 20));
        } catch (error) {
          count(`network: ${(error as Error).cause ?? (error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
    /** How long after each restart twenty writes had succeeded again (ms). */
    const recoveries: number[] = [];

    try {
      await waitUntil(
        () => okSinceRestart >= WRITERS,
        30_000,
        "writes did not succeed before the first shutdown",
      );
      // Each round starts once twenty writes succeeded since the last restart.
      for (let round = 0; round < SHUTDOWNS; round += 1) {
        await database!.shutDown();
        await new Promise((resolve) => setTimeout(resolve, 300));
        await database!.startAgain();
        okSinceRestart = 0;
        const up = Date.now();
        await waitUntil(
          () => okSinceRestart >= WRITERS,
          RECOVERY_MS,
          `writes did not come back after restart ${round + 1}`,
        );
        recoveries.push(Date.now() - up);
      }
      await waitUntil(
        () => log.includes("2 processes share the port"),
        30_000,
        "both API processes did not listen",
      );
    } finally {
      writing = false;
      await Promise.all(writers);
    }

    expect(api!.exitCode, log.slice(-4000)).toBeNull();
    expect(workerPids(primary), log.slice(-4000)).toEqual(pidsBefore);
    const figures = Object.fromEntries(answers);
    console.log(
      `answers ${JSON.stringify(figures)}; writes back after each restart in ${recoveries.join(", ")} ms`,
    );
    // Only successes and 503 with Retry-After: never a 500, never a dropped connection.
    expect(Object.keys(figures).sort(), JSON.stringify(figures)).toEqual(["200", "503"]);
    expect(log).not.toMatch(/Unhandled 'error' event|stopped unexpectedly/);
  }, 240_000);
});
