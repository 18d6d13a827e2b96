// Starts the API and the web server as child processes and waits until both answer /healthz.
// Used by `npm start`, the e2e suite and the benchmarks, so all three run the product the same way.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const WEB_DIR = join(ROOT, "apps/web");
export const API_DIR = join(ROOT, "apps/api");

/** The web build directory (WEB_BUILD_DIR, relative to apps/web; default "build"). */
export function webBuildDir() {
  return resolve(WEB_DIR, process.env.WEB_BUILD_DIR ?? "build");
}

export function webBuildExists() {
  return existsSync(join(webBuildDir(), "server/index.js"));
}

/** Runs a command to completion, inheriting stdio; rejects on a non-zero exit. */
export function run(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: "inherit", cwd: ROOT, ...options });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(" ")} exited with ${signal ?? code}`));
    });
  });
}

/** Builds the web app; `stdio` sends its output elsewhere than this terminal (a log file's fd). */
export async function buildWeb({ stdio = "inherit" } = {}) {
  await run("npm", ["run", "build", "-w", "@ambercare/web"], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio,
  });
}

/**
 * The secrets a production-mode run needs, for a throwaway run of a benchmark: never for a real
 * deployment. `name` (letters only: it ends the service account's e-mail domain) tells runs apart.
 */
export function throwawaySecrets(name) {
  return {
    PUBLIC_API_TOKEN: `${name}-public-token-0123456789abcdef`,
    SERVICE_ACCOUNT_EMAIL: `service@ambercare.${name}`,
    SERVICE_ACCOUNT_PASSWORD: `${name}-service-password-0123`,
    CAPTCHA_HMAC_KEY: `${name}-captcha-hmac-key-0123456789abcdef`,
    LIST_TOKEN_SECRET: `${name}-list-token-secret-0123456789abcdef`,
    SECOND_FACTOR_KEY: `${name}-second-factor-key-0123456789abcdef`,
    // A throwaway VAPID pair (web push): every throwaway run may share it.
    VAPID_PUBLIC_KEY:
      "BGFKnsXPn1fkxYVqpcIrTFK4rMVoLtDbkDhCKZq1sHhPX-QJn_2cca24-SZMxcrcAdD_7l00q5fJVLMhceUn-rM",
    VAPID_PRIVATE_KEY: "S8aN83QtospE5IYztzEsGjNZr2dRNnFjlYAkqL0XKbE",
  };
}

/** The lowest port of the kernel's ephemeral range (Linux's default: 32768). */
function ephemeralRangeStart() {
  try {
    const start = Number.parseInt(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8"), 10);
    if (Number.isInteger(start) && start > 1024) return start;
  } catch {
    // Not Linux: use the default below.
  }
  return 32_768;
}

/** Whether a server can listen on the port of the loopback interface now (0: any free port). */
function listenOnce(port) {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolvePromise(undefined));
    server.listen(port, "127.0.0.1", () => {
      const chosen = server.address().port;
      server.close(() => resolvePromise(chosen));
    });
  });
}

const LOWEST_CHOSEN_PORT = 20_000;

/**
 * An unused TCP port on the loopback interface, below the kernel's ephemeral range. Whoever asks
 * binds it later, sometimes seconds later (an API binds once its database answers); a port of the
 * ephemeral range can be handed meanwhile to another server's listen(0) or to an outgoing
 * connection, both constant while the suites run side by side, and the late bind then fails with
 * EADDRINUSE (or, worse, another server answers on it). Below that range only another caller of
 * this function could pick the same port, one chance in thousands within the same moment.
 */
export async function freePort() {
  const end = ephemeralRangeStart();
  if (end - LOWEST_CHOSEN_PORT >= 1_000) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port = await listenOnce(
        LOWEST_CHOSEN_PORT + Math.floor(Math.random() * (end - LOWEST_CHOSEN_PORT)),
      );
      if (port !== undefined) return port;
    }
  }
  const port = await listenOnce(0);
  if (port === undefined) throw new Error("no free TCP port on 127.0.0.1");
  return port;
}

async function waitForHealth(url, child, name, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy at ${url} within ${timeoutMs} ms (${lastError})`);
}

function prefixOutput(child, name, quiet) {
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    let buffered = "";
    stream?.on("data", (chunk) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      if (quiet) return;
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
}

const CLUSTER = join(ROOT, "scripts/lib/cluster.mjs");
/** Beyond this, more processes on one machine only add memory. */
const MAX_DEFAULT_PROCESSES = 4;

/**
 * How many web and API processes to run (WEB_PROCESSES, API_PROCESSES). Default: one per core (at
 * most four) for the web server; for the API the same on PostgreSQL, but always one on PGlite, an
 * embedded database only one process may open.
 */
export function processCounts(env) {
  const cores = Math.min(availableParallelism(), MAX_DEFAULT_PROCESSES);
  const count = (value, fallback) => {
    if (value === undefined || value === "") return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`expected a whole number of processes ≥ 1, got "${value}"`);
    return n;
  };
  const web = count(env.WEB_PROCESSES, cores);
  const onPostgres = Boolean(env.DATABASE_URL);
  const api = count(env.API_PROCESSES, onPostgres ? cores : 1);
  if (api > 1 && !onPostgres) {
    throw new Error(
      "API_PROCESSES > 1 needs PostgreSQL (DATABASE_URL): PGlite is opened by one process only",
    );
  }
  return { web, api };
}

/**
 * The cluster launcher running CLUSTER_PROCESSES of `node [flags] entry` on one port: also for one
 * process, so that a process that dies is started again (scripts/lib/cluster.mjs).
 */
function serverCommand(flags, entry) {
  return [...flags, CLUSTER, entry];
}

/** Stops the processes (SIGTERM, then SIGKILL after 5 s). */
function stopChildren(children) {
  return Promise.all(
    children.map(
      (child) =>
        new Promise((r) => {
          if (child.exitCode !== null || child.signalCode !== null) return r();
          const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          child.once("exit", () => {
            clearTimeout(timer);
            r();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
}

/**
 * One API process on `env.API_PORT` (a benchmark's instance: several of them share one PostgreSQL
 * database with DATABASE_URL); `nodeFlags` are Node's own (bench/live's `--cpu-prof`, its probe).
 * Returns { url, pid, stop() } once it answers /healthz.
 */
export async function startApiInstance({ env, name = "api", quiet = false, nodeFlags = [] }) {
  const api = spawn(process.execPath, ["--import", "tsx", ...nodeFlags, "src/server.ts"], {
    cwd: API_DIR,
    env: { TRUST_PROXY: "false", ...process.env, NODE_ENV: "production", ...env, CLUSTER_PROCESSES: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  prefixOutput(api, name, quiet);
  const url = `http://127.0.0.1:${env.API_PORT}`;
  const stop = () => stopChildren([api]);
  try {
    await waitForHealth(`${url}/healthz`, api, name, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: api.pid, stop };
}

/**
 * Starts api then web. `env` is passed to both (PORT, API_PORT, DATA_DIR, DATABASE_URL…), `apiEnv`
 * to the API only (the e2e suite runs it with NODE_ENV=test for its test clock); `apiNodeFlags` and
 * `webNodeFlags` are Node's own flags for the API and the web server (the benches' `--cpu-prof`). Returns { webUrl, apiUrl, stop() }.
 */
export async function startStack({
  env = {},
  apiEnv = {},
  apiNodeFlags = [],
  webNodeFlags = [],
  quiet = false,
  nodeEnv = "production",
} = {}) {
  const port = Number(env.PORT ?? process.env.PORT ?? 3000);
  const apiPort = Number(env.API_PORT ?? process.env.API_PORT ?? 4000);
  const childEnv = {
    // The web server runs as in production, which needs TRUST_PROXY said: locally nothing is in
    // front of it. Behind a proxy, set TRUST_PROXY (README, configuration).
    TRUST_PROXY: "false",
    ...process.env,
    NODE_ENV: nodeEnv,
    ...env,
    PORT: String(port),
    API_PORT: String(apiPort),
  };
  const counts = processCounts({ ...childEnv, ...apiEnv });
  const children = [];
  const stop = () => stopChildren(children);
  try {
    const api = spawn(
      process.execPath,
      serverCommand(["--import", "tsx", ...apiNodeFlags], "src/server.ts"),
      {
        cwd: API_DIR,
        env: { ...childEnv, ...apiEnv, CLUSTER_PROCESSES: String(counts.api) },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(api);
    prefixOutput(api, "api", quiet);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    await waitForHealth(`${apiUrl}/healthz`, api, "API", 120_000);

    const web = spawn(process.execPath, serverCommand(webNodeFlags, "server.mjs"), {
      cwd: WEB_DIR,
      env: { ...childEnv, CLUSTER_PROCESSES: String(counts.web) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(web);
    prefixOutput(web, "web", quiet);
    const webUrl = `http://localhost:${port}`;
    await waitForHealth(`${webUrl}/healthz`, web, "web", 60_000);
    return { webUrl, apiUrl, stop, children, processes: counts };
  } catch (error) {
    await stop();
    throw error;
  }
}
