#!/usr/bin/env node
// `npm run load -w @ambercare/bench -- --users 200 --seconds 60 [--accounts N] [--db pg] [--hammer]`
// Starts the product as `npm start` does (scripts/lib/stack.mjs: the built web app, several web
// processes, one API process on PGlite or several on PostgreSQL), then lets `--users` visitors walk a
// mixed journey for `--seconds`: home, a search, a doctor's profile, log in, my profile, with a
// pause between steps. `--accounts N` patients (default: one per visitor) are written into the
// database before the run, each with a confirmed e-mail and a password hashed at the API's production
// cost, and visitor i logs in as patient i % N; `--accounts 1` has every visitor log in as the demo
// patient, whose logins then queue behind each other (ADR 031: five attempts at a time per account
// per process). Each visitor connects from its own loopback address (127.0.x.y via
// `localAddress`), which is how the web server tells visitors apart with no proxy in front.
// `--cpu-prof DIR` writes a CPU profile of the API process(es) there.
// `--hammer` adds one visitor asking for /captcha/challenge all along: as fast as it can, or
// `--hammer-rate N` requests a second. `--verbose` shows the servers' own output.
// Prints requests, errors by kind and by step with one example of each kind, p50/p99 and req/s, and
// the login step's p99 beside its floor: every visitor's login is one argon2id check (ADR 037), so
// when all of them queue at once the last waits for (visitors × one check's time ÷ cores); one
// check's time is measured here, with the API's own library and cost, before the servers start (the
// median of 15); then the logins by 5-second window of the run, to say whether the slow ones queued
// in a burst or met a stall.
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { createDb } from "@ambercare/db/client";
import { users } from "@ambercare/db/schema";
import { createPasswords } from "../apps/api/src/modules/accounts/passwords.ts";
import { PRODUCTION_ARGON2_PARAMS } from "../apps/api/src/platform/argon2-params.ts";
import { startThrowawayPostgres } from "../scripts/lib/postgres.mjs";
import {
  buildWeb,
  freePort,
  startApiInstance,
  startStack,
  throwawaySecrets,
  webBuildExists,
} from "../scripts/lib/stack.mjs";

const { values: options } = parseArgs({
  options: {
    users: { type: "string", default: "200" },
    // How many patients the visitors log in as (visitor i as patient i % N); default: one each.
    accounts: { type: "string" },
    seconds: { type: "string", default: "60" },
    db: { type: "string", default: "pglite" },
    hammer: { type: "boolean", default: false },
    // The hammer's pace in requests per second; 0 = as fast as its connections allow. On one
    // machine an unbounded hammer mostly measures how much CPU it takes from the servers; the
    // audit's attack was 320 requests in two seconds (160/s).
    "hammer-rate": { type: "string", default: "0" },
    "think-ms": { type: "string", default: "3000" },
    "timeout-ms": { type: "string", default: "30000" },
    "web-processes": { type: "string" },
    "api-processes": { type: "string" },
    verbose: { type: "boolean", default: false },
    // A CPU profile of the API process(es) into this folder, written when they stop: where a
    // login burst spends its time (open it in Chrome's DevTools, Performance panel).
    "cpu-prof": { type: "string" },
  },
});
const USERS = Number(options.users);
const SECONDS = Number(options.seconds);
const THINK_MS = Number(options["think-ms"]);
const TIMEOUT_MS = Number(options["timeout-ms"]);
const HAMMER_CONNECTIONS = 8;
const HAMMER_RATE = Number(options["hammer-rate"]);
if (!(HAMMER_RATE >= 0))
  throw new Error(`--hammer-rate takes requests a second (0: unbounded), not "${options["hammer-rate"]}"`);
const ACCOUNTS = Number(options.accounts ?? options.users);
if (!Number.isInteger(ACCOUNTS) || ACCOUNTS < 1)
  throw new Error(`--accounts takes a number of patients (1 or more), not "${options.accounts}"`);
/** The demo patient (seeded on a fresh database): every visitor's account with `--accounts 1`. */
const DEMO_PATIENT = { email: "demo@ambercare.example", password: "sunny-meadow-visit" };
/** The patients written before the run (none with `--accounts 1`): visitor i logs in as i % N. */
const benchPatient = (k) => ({
  email: `load-bench-patient-${k}@ambercare.example`,
  password: `load-bench-meadow-${k}`,
});
const patientOf = (i) => (ACCOUNTS === 1 ? DEMO_PATIENT : benchPatient(i % ACCOUNTS));

/** Visitor i's own loopback address: 127.0.x.y, never 127.0.0.1 (the servers' own). */
const addressOf = (i) => `127.0.${Math.floor((i + 2) / 250)}.${((i + 2) % 250) + 2}`;

function send(agent, port, method, path, { headers = {}, body, localAddress } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(
      { agent, host: "127.0.0.1", port, method, path, localAddress, headers, timeout: TIMEOUT_MS },
      (res) => {
        // The start of the body, so that an error's example can say who answered it.
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          if (body.length < BODY_SAMPLE_CHARS) body += chunk;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            startedAt: started,
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) =>
      resolve({
        status: 0,
        kind: error.message === "timeout" ? "timeout" : "network",
        detail: error.message === "timeout" ? "timeout" : (error.code ?? error.message),
        reused: req.reusedSocket,
        startedAt: started,
        ms: performance.now() - started,
      }),
    );
    if (body) req.write(body);
    req.end();
  });
}

const BODY_SAMPLE_CHARS = 4_000;
/** The login's timeline is printed in windows of this many seconds. */
const TIMELINE_WINDOW_S = 5;
const STEPS = ["home", "search", "profile", "login", "my-profile"];
const KINDS = ["5xx", "429", "timeout", "network", "unexpected"];
const results = [];
/** Errors by kind, and by step and kind. */
const errors = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
const errorsByStep = Object.fromEntries(
  STEPS.map((step) => [step, Object.fromEntries(KINDS.map((k) => [k, 0]))]),
);
/** One example of each distinct error (step, status or network error), printed after the figures. */
const examples = new Map();

function kindOf(answer, expected) {
  if (answer.status === 0) return answer.kind;
  if (answer.status >= 500) return "5xx";
  if (answer.status === 429) return "429";
  return expected.includes(answer.status) ? null : "unexpected";
}

function record(step, answer, expected) {
  results.push({ step, ms: answer.ms, startedAt: answer.startedAt });
  const kind = kindOf(answer, expected);
  if (!kind) return answer;
  errors[kind] += 1;
  errorsByStep[step][kind] += 1;
  const what =
    answer.status === 0 ? `${answer.detail}${answer.reused ? " (reused socket)" : ""}` : answer.status;
  const key = `${step} ${what}`;
  const example = examples.get(key) ?? { count: 0, answer };
  example.count += 1;
  examples.set(key, example);
  return answer;
}

/** What answered an error: the status, Location, Retry-After and the page's visible text. */
function describeExample({ answer }) {
  if (answer.status === 0) return `after ${Math.round(answer.ms)} ms`;
  const text = (answer.body ?? "")
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<head>[\s\S]*?<\/head>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 500);
  const headers = ["location", "retry-after"]
    .filter((name) => answer.headers?.[name])
    .map((name) => `${name}: ${answer.headers[name]}`)
    .join(", ");
  return `${headers ? `${headers}; ` : ""}${text}`;
}

const pause = () => new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));

async function visitor(i, port, profilePath, until) {
  const localAddress = addressOf(i);
  const agent = new Agent({ keepAlive: true, maxSockets: 2, localAddress });
  const html = { accept: "text/html", "accept-language": i % 5 === 0 ? "bg" : "en" };
  // Visitors start spread over the first think time, as arrivals do.
  await new Promise((r) => setTimeout(r, Math.random() * THINK_MS));
  while (performance.now() < until) {
    const steps = [
      ["home", "GET", "/"],
      ["search", "GET", `/find-a-doctor?state=${["CA", "NY", "TX", "WA"][i % 4]}`],
      ["profile", "GET", profilePath],
    ];
    for (const [step, method, path] of steps) {
      record(step, await send(agent, port, method, path, { headers: html, localAddress }), [200]);
      if (performance.now() >= until) break;
      await pause();
    }
    if (performance.now() >= until) break;
    const form = new URLSearchParams({ ...patientOf(i), redirectTo: "/my-profile" }).toString();
    const login = record(
      "login",
      await send(agent, port, "POST", "/login", {
        localAddress,
        headers: {
          ...html,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(Buffer.byteLength(form)),
          origin: `http://127.0.0.1:${port}`,
        },
        body: form,
      }),
      [302, 303],
    );
    const cookie = [login.headers?.["set-cookie"] ?? []]
      .flat()
      .map((line) => line.split(";")[0])
      .join("; ");
    await pause();
    if (performance.now() >= until) break;
    // A visitor whose login failed (already counted) has no profile to see: /login is the right answer.
    if (login.status !== 302 && login.status !== 303) continue;
    record(
      "my-profile",
      await send(agent, port, "GET", "/my-profile", { headers: { ...html, cookie }, localAddress }),
      [200],
    );
    await pause();
  }
  agent.destroy();
}

async function hammer(port, until) {
  const localAddress = "127.0.255.254";
  const agent = new Agent({ keepAlive: true, maxSockets: HAMMER_CONNECTIONS, localAddress });
  const counts = { requests: 0, 200: 0, 429: 0, other: 0 };
  const started = performance.now();
  let scheduled = 0;
  await Promise.all(
    Array.from({ length: HAMMER_CONNECTIONS }, async () => {
      while (performance.now() < until) {
        if (HAMMER_RATE > 0) {
          // Keep to the pace: the n-th request is due n / rate seconds after the start.
          const dueMs = started + (scheduled++ / HAMMER_RATE) * 1_000 - performance.now();
          if (dueMs > 0) await new Promise((resolve) => setTimeout(resolve, dueMs));
          if (performance.now() >= until) break;
        }
        const answer = await send(agent, port, "GET", "/captcha/challenge", {
          headers: { accept: "application/json" },
          localAddress,
        });
        counts.requests += 1;
        if (answer.status === 200 || answer.status === 429) counts[answer.status] += 1;
        else counts.other += 1;
      }
    }),
  );
  agent.destroy();
  return counts;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function firstProfilePath(port) {
  const agent = new Agent({ keepAlive: false });
  const html = await new Promise((resolve, reject) => {
    const req = request({ agent, host: "127.0.0.1", port, path: "/find-a-doctor" }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve(Buffer.concat(chunks).toString()));
    });
    req.on("error", reject);
    req.end();
  });
  const match = /href="(\/find-a-doctor\/[a-z0-9-]+)"/.exec(html);
  if (!match) throw new Error("no doctor's profile link on /find-a-doctor");
  return match[1];
}

/** The API's hashing at its default cost (ARGON2_PARAMS unset): the patients' and the floor's. */
const passwords = createPasswords(PRODUCTION_ARGON2_PARAMS);

/**
 * Writes the `--accounts` patients straight into the database (as bench/live.mjs writes its
 * accounts), each with a confirmed e-mail and its own password hashed as the API hashes one (its
 * hashing, at the production cost), so that each login costs what it costs in production. PGlite's
 * files are one process's at a time: this runs while no API process does, after a first one has
 * migrated and seeded the database.
 */
async function seedPatients(openDb) {
  const now = new Date();
  const handle = await openDb();
  try {
    for (let start = 0; start < ACCOUNTS; start += 50) {
      const batch = Array.from({ length: Math.min(50, ACCOUNTS - start) }, (_, k) => start + k);
      const rows = await Promise.all(
        batch.map(async (k) => ({
          email: benchPatient(k).email,
          passwordHash: await passwords.hash(benchPatient(k).password),
          firstName: "Bench",
          lastName: `Patient ${k}`,
          emailConfirmedAt: now,
        })),
      );
      await handle.db.insert(users).values(rows);
    }
  } finally {
    await handle.close();
  }
}

/** The median time of one argon2id hash at the API's cost, in ms, one at a time on this machine. */
async function argon2Ms(rounds = 15) {
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await passwords.hash(`load-bench-${i}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

if (!webBuildExists()) {
  console.log("Building the web app…");
  await buildWeb();
}
const postgres = options.db === "pg" ? await startThrowawayPostgres() : null;
if (options.db === "pg" && !postgres) throw new Error("--db pg needs the PostgreSQL server binaries");
const dataDir = mkdtempSync(join(tmpdir(), "ambercare-load-"));
const [port, apiPort] = [await freePort(), await freePort()];
const env = {
  PORT: String(port),
  API_PORT: String(apiPort),
  DATA_DIR: dataDir,
  LOG_LEVEL: "warn",
  SEED_DEMO_PATIENT: "true",
  MAIL_TO_FILES: "true",
  ...throwawaySecrets("load"),
  ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  ...(options["web-processes"] ? { WEB_PROCESSES: options["web-processes"] } : {}),
  ...(options["api-processes"] ? { API_PROCESSES: options["api-processes"] } : {}),
};
if (ACCOUNTS > 1) {
  // A first API process migrates (and seeds) the empty database, then stops for the patients' writing.
  const setup = await startApiInstance({ env, name: "setup", quiet: !options.verbose });
  await setup.stop();
  const seedStarted = performance.now();
  await seedPatients(() => createDb(postgres ? { databaseUrl: postgres.url } : { dataDir }));
  console.log(`${ACCOUNTS} patients written in ${((performance.now() - seedStarted) / 1_000).toFixed(1)} s`);
}
// One check's time, measured before the servers start: measured right after they had started and
// answered their first page (still warming up), it came out at 10 to 75 ms from one run to the
// next, and the floor with it.
const hashMs = await argon2Ms();
const stack = await startStack({
  env,
  quiet: !options.verbose,
  apiNodeFlags: options["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${options["cpu-prof"]}`] : [],
});
try {
  const profilePath = await firstProfilePath(port);
  const loadBefore = loadavg()[0];
  const started = performance.now();
  const until = started + SECONDS * 1_000;
  const [, hammered] = await Promise.all([
    Promise.all(Array.from({ length: USERS }, (_, i) => visitor(i, port, profilePath, until))),
    options.hammer ? hammer(port, until) : Promise.resolve(null),
  ]);
  const wallS = (performance.now() - started) / 1_000;
  const all = results.map((r) => r.ms).sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const ms = (value) => `${Math.round(value)} ms`;
  console.log(
    `\nload ${new Date().toISOString().slice(0, 10)}: ${USERS} visitors for ${SECONDS} s as ${ACCOUNTS === 1 ? "the one demo patient" : `${ACCOUNTS} patients`}, ${options.db === "pg" ? "PostgreSQL" : "PGlite"}, ${stack.processes.web} web + ${stack.processes.api} API process(es), pause ${THINK_MS} ms ± 50 %${options.hammer ? `, one visitor hammering /captcha/challenge${HAMMER_RATE > 0 ? ` at ${HAMMER_RATE}/s` : " as fast as it can"}` : ""}`,
  );
  console.log(`machine: ${loadBefore.toFixed(1)} load average before, ${loadavg()[0].toFixed(1)} after`);
  console.log(
    `requests ${results.length}  errors ${errorCount} (5xx ${errors["5xx"]}, 429 ${errors[429]}, time-outs ${errors.timeout}, network ${errors.network}, unexpected status ${errors.unexpected})`,
  );
  console.log(
    `p50 ${ms(percentile(all, 50))}  p99 ${ms(percentile(all, 99))}  ${(results.length / wallS).toFixed(1)} req/s`,
  );
  for (const step of STEPS) {
    const times = results
      .filter((r) => r.step === step)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    const stepErrors = KINDS.filter((kind) => errorsByStep[step][kind] > 0)
      .map((kind) => `${kind} ${errorsByStep[step][kind]}`)
      .join(", ");
    console.log(
      `  ${step.padEnd(10)} ${String(times.length).padStart(6)}  p50 ${ms(percentile(times, 50))}  p99 ${ms(percentile(times, 99))}  errors ${stepErrors || "0"}`,
    );
  }
  // The login's floor: every visitor's login queued at once on the machine's cores.
  const cores = availableParallelism();
  const loginFloorMs = (USERS * hashMs) / cores;
  const loginTimes = results
    .filter((r) => r.step === "login")
    .map((r) => r.ms)
    .sort((a, b) => a - b);
  const slowestOther = Math.max(
    0,
    ...STEPS.filter((step) => step !== "login").map((step) =>
      percentile(
        results
          .filter((r) => r.step === step)
          .map((r) => r.ms)
          .sort((a, b) => a - b),
        99,
      ),
    ),
  );
  console.log(
    `login floor: ${USERS} logins × ${Math.round(hashMs)} ms (one argon2id check, m=${passwords.params.memoryCost},t=${passwords.params.timeCost},p=${passwords.params.parallelism}) ÷ ${cores} cores = ${ms(loginFloorMs)}; login p99 ${ms(percentile(loginTimes, 99))} = ${(percentile(loginTimes, 99) / loginFloorMs).toFixed(2)}× the floor (target ≤ 1.5×); slowest other step p99 ${ms(slowestOther)} (target ≤ 1 000 ms)`,
  );
  // When the slow logins happened: a queue of hashes grows and drains, a stall stops everything.
  console.log(
    `login by ${TIMELINE_WINDOW_S} s window of the run (when sent): logins, p50, max; other steps' max`,
  );
  // A visitor's step after its last pause may be sent after --seconds: those windows are shown too.
  for (let from = 0; from < wallS; from += TIMELINE_WINDOW_S) {
    const inWindow = (r) =>
      r.startedAt - started >= from * 1_000 && r.startedAt - started < (from + TIMELINE_WINDOW_S) * 1_000;
    const logins = results.filter((r) => r.step === "login" && inWindow(r)).map((r) => r.ms);
    const others = results.filter((r) => r.step !== "login" && inWindow(r)).map((r) => r.ms);
    logins.sort((a, b) => a - b);
    const loginFigures =
      logins.length === 0
        ? "   0  —"
        : `${String(logins.length).padStart(4)}  p50 ${ms(percentile(logins, 50))}  max ${ms(logins.at(-1))}`;
    const otherFigures =
      others.length === 0 ? "others 0" : `others ${others.length}, max ${ms(Math.max(...others))}`;
    console.log(
      `  ${String(from).padStart(3)}–${from + TIMELINE_WINDOW_S} s  ${loginFigures};  ${otherFigures}`,
    );
  }
  // Every kind of error seen, with one example each: a count alone does not say what to fix.
  for (const [key, example] of examples)
    console.log(`  × ${example.count} ${key}: ${describeExample(example)}`);
  if (hammered) {
    console.log(
      `hammer: ${hammered.requests} requests to /captcha/challenge, ${hammered[200]} answered 200, ${hammered[429]} 429, ${hammered.other} other`,
    );
  }
  process.exitCode = errorCount === 0 ? 0 : 1;
} finally {
  await stack.stop();
  postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
