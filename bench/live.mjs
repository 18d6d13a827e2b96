#!/usr/bin/env node
// `npm run live -w @ambercare/bench -- [--pairs 200] [--seconds 30] [--think-ms 1000] [--calls 20]
//   [--processes 1,2] [--no-ceiling] [--together] [--warm-up 5] [--cpu-prof DIR] [--idle 1000,2000,5000]
//   [--idle-seconds 20] [--fanout 50x500] [--storm 1000] [--postgres] [--verbose]`
// Message delivery latency of the visit chat: `--pairs` patients each in a chat visit with their own
// clinician, all at once, on a throwaway PostgreSQL cluster — with each count of `--processes` API
// processes (with two, the patient's socket and calls on one, the clinician's on the other, so every
// message crosses processes through LISTEN/NOTIFY). Each side sends a message, pauses (`--think-ms`
// ± 50 %), and so on; the latency of a message is from the start of its POST to the moment the other
// side's live socket receives its event. Each pair writes its first message at a random moment of
// the first pause, as people do; `--together` has every pair write it in the same instant (a burst of
// `--pairs` messages at once, which then decides the p99). Prints messages sent, delivered, lost,
// p50/p95/p99 of the messages sent after the first `--warm-up` seconds (the API's start: every
// session read for the first time, connections opened, code compiled; their p99 and the whole
// run's are printed beside), the
// API's CPU per message, and what the API process says of itself (bench/live-probe.mjs: event loop
// delay, garbage collections, memory). `--cpu-prof DIR` writes the API processes' CPU profiles.
//
// The ceiling (unless `--no-ceiling`): before each API run, the same pairs and the same sockets on
// bench/live-ceiling.mjs, a bare server doing only the durable work of a message (insert, NOTIFY,
// send on the socket) on the same cluster with as many processes; the API's throughput and p99 are
// printed as ratios to it.
//
// The scale parts, each run only when asked, on PGlite (one API process) or with `--postgres` a
// throwaway cluster: `--idle` N idle live sockets (memory per socket, CPU at rest over
// `--idle-seconds`, so the heartbeat's cost); `--fanout CxP` C consoles open and P patients waiting,
// then new requests, each timed to every console; `--storm N` N sockets dropped at once by killing
// the API process mid-burst of messages, all coming back and resuming, with nothing lost.
//
// The accounts, providers, clinicians (second factor on) and visits are written straight into the
// database before the run, with their sessions' tokens: the run measures the chat, not sign-ups.
//
// Then the video call's setup time: `--calls` video visits one after another on the stack the browser
// journeys run (built web app, PGlite), in one Chromium with a fake camera and microphone, the demo
// clinician in one context and a new member in another, driven as the video journey drives them
// (e2e/video-call-steps.ts). Each call is a fresh visit: the patient requests it, the clinician
// accepts it and presses "Start video call" in the workspace, the patient's waiting room rings and
// the patient presses "Join the call". Measured in the pages (Date.now() of the press, and of the
// first `framesDecoded` of the other side's video, polled every 20 ms): start → the patient's first
// frame, start → the clinician's first frame, and join → the patient's first frame (the start →
// join part is the patient's own time). Prints p50/p95/min/max. `--pairs 0` or `--calls 0` skips a part.
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import { createDb } from "@ambercare/db/client";
import {
  accessTokens,
  clinicians,
  consultations,
  providerLicenses,
  providers,
  subscriptions,
  users,
} from "@ambercare/db/schema";
import { WebSocket } from "ws";
import { enableKnownSecondFactor } from "../apps/api/src/modules/accounts/second-factor-service.ts";
import { generateToken, hashToken } from "../apps/api/src/modules/accounts/tokens.ts";
import { consultationBody } from "../apps/api/src/test-support.ts";
import { waitForPath } from "../e2e/account-steps.ts";
import { launchBrowser } from "../e2e/browser-contexts.ts";
import { journeyStackEnv } from "../e2e/journey-env.ts";
import {
  firstRemoteFrameAt,
  openVideoVisit,
  signedInSides,
  startAndJoin,
  VIDEO_CALL_BROWSER_FLAGS,
} from "../e2e/video-call-steps.ts";
import { startThrowawayPostgres } from "../scripts/lib/postgres.mjs";
import {
  freePort,
  startApiInstance,
  startStack,
  throwawaySecrets,
  webBuildExists,
} from "../scripts/lib/stack.mjs";

const { values: options } = parseArgs({
  options: {
    pairs: { type: "string", default: "200" },
    seconds: { type: "string", default: "30" },
    "think-ms": { type: "string", default: "1000" },
    calls: { type: "string", default: "20" },
    processes: { type: "string", default: "1,2" },
    "no-ceiling": { type: "boolean", default: false },
    "warm-up": { type: "string", default: "5" },
    together: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
    idle: { type: "string", default: "" },
    "idle-seconds": { type: "string", default: "20" },
    fanout: { type: "string", default: "" },
    storm: { type: "string", default: "" },
    postgres: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const PAIRS = Number(options.pairs);
const SECONDS = Number(options.seconds);
const THINK_MS = Number(options["think-ms"]);
const CALLS = Number(options.calls);
const PROCESSES = options.processes.split(",").map(Number);
const WITH_CEILING = !options["no-ceiling"];
/** Seconds at the start of a chat run whose messages are reported apart (the API's start). */
const WARM_UP_S = Number(options["warm-up"]);
/** How long after the run a message may still arrive before it counts as lost. */
const GRACE_MS = 10_000;
const PRODUCT = "ambercare";
const secrets = throwawaySecrets("livebench");

if (CALLS > 0 && !webBuildExists()) {
  console.error("The call timing needs the built web app: run `npm run build` first (or pass --calls 0).");
  process.exit(1);
}
/** The throwaway PostgreSQL cluster of the chat part (set while it runs). */
let postgres;

let chatDataDir = "";
const apiEnv = (port) => ({
  ...secrets,
  API_PORT: String(port),
  DATABASE_URL: postgres.url,
  LOG_LEVEL: "warn",
  MAIL_TO_FILES: "true",
  // Every call of the run comes from one address: the limit per address must not be what is measured.
  RATE_LIMIT_MAX: "100000000",
  RATE_LIMIT_ADDRESS_MAX: "100000000",
  DATA_DIR: chatDataDir,
});

/** A provider taking chat visits, its clinician account `userId` (second factor on): { id }. */
async function seedProvider(db, userId, slug, now) {
  const [provider] = await db
    .insert(providers)
    .values({
      slug,
      firstName: "Bench",
      lastName: slug,
      credentials: "MD",
      bioEn: "A provider of the live benchmark.",
      languages: ["en"],
      visitTypes: ["chat"],
    })
    .returning({ id: providers.id });
  await db.insert(clinicians).values({ userId, providerId: provider.id });
  await enableKnownSecondFactor(db, {
    encryptionKey: secrets.SECOND_FACTOR_KEY,
    userId,
    secret: "JBSWY3DPEHPK3PXP",
    now,
  });
  return provider;
}

/** Writes the pairs: a patient, a provider with its clinician, and a chat visit in progress. */
async function seedPairs(count = PAIRS, handle = null) {
  const own = handle === null;
  handle ??= await createDb({ databaseUrl: postgres.url });
  const { db } = handle;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000);
  const pairs = [];
  try {
    for (let i = 0; i < count; i++) {
      const [patient] = await db
        .insert(users)
        .values({
          email: `live-bench-patient-${i}@ambercare.example`,
          // Nobody logs in with a password here: the sessions are written below.
          passwordHash: "unusable",
          firstName: "Patient",
          lastName: `Number ${i}`,
          emailConfirmedAt: now,
        })
        .returning({ id: users.id });
      const [clinicianUser] = await db
        .insert(users)
        .values({
          email: `live-bench-clinician-${i}@ambercare.example`,
          passwordHash: "unusable",
          firstName: "Clinician",
          lastName: `Number ${i}`,
          emailConfirmedAt: now,
          role: "clinician",
        })
        .returning({ id: users.id });
      const provider = await seedProvider(db, clinicianUser.id, `live-bench-provider-${i}`, now);
      const [visit] = await db
        .insert(consultations)
        .values({
          userId: patient.id,
          providerId: provider.id,
          type: "chat",
          status: "in_progress",
          state: "CA",
          acceptedAt: now,
          startedAt: now,
        })
        .returning({ id: consultations.id });
      const patientToken = generateToken();
      const clinicianToken = generateToken();
      await db.insert(accessTokens).values([
        {
          tokenHash: hashToken(patientToken),
          userId: patient.id,
          surface: "care",
          createdAt: now,
          expiresAt,
          lastUsedAt: now,
        },
        {
          tokenHash: hashToken(clinicianToken),
          userId: clinicianUser.id,
          surface: "main",
          createdAt: now,
          expiresAt,
          lastUsedAt: now,
        },
      ]);
      pairs.push({
        visitId: visit.id,
        patientId: patient.id,
        clinicianId: clinicianUser.id,
        patientToken,
        clinicianToken,
      });
    }
  } finally {
    if (own) await handle.close();
  }
  return pairs;
}

/**
 * A live socket that has resumed (the server answered the resume): the API's, with the bearer
 * token, or the ceiling's, naming its user.
 */
function openSocket(url, headers, onMessageEvent) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on("error", reject);
    socket.on("open", () => {
      socket.send(JSON.stringify({ type: "resume", after: null }));
    });
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === "resumed") resolve(socket);
      else if (frame.topic === "visit.message" && frame.payload?.change === "created") {
        onMessageEvent(frame.payload.message_id, performance.now());
      }
    });
  });
}

const pause = () => new Promise((r) => setTimeout(r, THINK_MS * (0.5 + Math.random())));

/** The value at quantile `q` of ascending `sorted` (nearest rank below), NaN when empty. */
function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
function cpuMsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
/** Resident memory of a process in bytes, from /proc/<pid>/status. */
function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** The probe's figures of an API process (bench/live-probe.mjs), resetting its counters. */
async function probe(server) {
  if (!server.probeFile) return null;
  rmSync(server.probeFile, { force: true });
  process.kill(server.pid, "SIGUSR2");
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    try {
      return JSON.parse(readFileSync(server.probeFile, "utf8"));
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return null;
}

const PROBE = fileURLToPath(new URL("./live-probe.mjs", import.meta.url));
/** The probe's event loop sampling in the idle runs (ms). */
const IDLE_PROBE_RESOLUTION_MS = 200;
const CEILING = fileURLToPath(new URL("./live-ceiling.mjs", import.meta.url));
let profileCount = 0;

/** An API process of the run, with the probe loaded (and `--cpu-prof` when asked). */
async function startApi(name, env = apiEnv, fixedPort = undefined, probeEnv = {}) {
  const port = fixedPort ?? (await freePort());
  const probeFile = join(tmpdir(), `ambercare-live-probe-${process.pid}-${port}.json`);
  const nodeFlags = ["--import", PROBE];
  if (options["cpu-prof"]) {
    // One file per thread (tsx's loader runs in a worker): the main thread's is the largest.
    profileCount += 1;
    nodeFlags.push("--cpu-prof", `--cpu-prof-dir=${options["cpu-prof"]}/${name}-${profileCount}`);
  }
  const api = await startApiInstance({
    env: { ...env(port), LIVE_PROBE_FILE: probeFile, ...probeEnv },
    name,
    quiet: !options.verbose,
    nodeFlags,
  });
  return { ...api, probeFile };
}

/** A process of the live ceiling (bench/live-ceiling.mjs) on `postgres`. */
async function startCeiling(name) {
  const port = await freePort();
  const child = spawn(process.execPath, [CEILING], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: postgres.url },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ceiling ${name} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > until) throw new Error(`the ceiling ${name} did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once("exit", () => r());
      child.kill("SIGTERM");
    });
  return { url, pid: child.pid, stop, probeFile: null };
}

/** How the pairs talk to the API: the patient on the care API, the clinician on the console's. */
const apiTarget = {
  kind: "API",
  start: startApi,
  socket: (server, pair, side) => [
    `${server.url.replace(/^http/, "ws")}/api/v1/api/live`,
    { authorization: `Bearer ${side === "patient" ? pair.patientToken : pair.clinicianToken}` },
  ],
  post: (server, pair, side) =>
    side === "patient"
      ? [
          `${server.url}/${PRODUCT}/consultations/${pair.visitId}/messages`,
          pair.patientToken,
          (body) => ({ body, client_id: randomUUID() }),
        ]
      : [
          `${server.url}/api/v1/api/care-team/visits/${pair.visitId}/messages`,
          pair.clinicianToken,
          (body) => ({ body, client_id: randomUUID() }),
        ],
};

/** The same talk to the ceiling: the message names its recipients, the socket its user. */
const ceilingTarget = {
  kind: "ceiling",
  start: startCeiling,
  socket: (server, pair, side) => [
    `${server.url.replace(/^http/, "ws")}/live?user=${side === "patient" ? pair.patientId : pair.clinicianId}`,
    {},
  ],
  post: (server, pair) => [
    `${server.url}/messages`,
    "none",
    (body) => ({ body, recipients: [pair.patientId, pair.clinicianId] }),
  ],
};

async function run(target, instances, pairs) {
  const servers = [];
  try {
    for (let n = 0; n < instances; n++) servers.push(await target.start(`${target.kind}${n + 1}`));
    const patientServer = servers[0];
    const clinicianServer = servers[instances - 1];
    /** message id → { sentAt, deliveredAt } */
    const messages = new Map();
    const delivered = (id, at) => {
      const message = messages.get(id);
      if (message && message.deliveredAt === undefined) message.deliveredAt = at;
      else if (!message) early.set(id, at);
    };
    // An event can come before the POST's answer names the message: kept until then.
    const early = new Map();
    const sockets = [];
    for (const pair of pairs) {
      sockets.push(await openSocket(...target.socket(patientServer, pair, "patient"), delivered));
      sockets.push(await openSocket(...target.socket(clinicianServer, pair, "clinician"), delivered));
    }
    let failedSends = 0;
    const send = async ([url, token, bodyOf], text) => {
      const sentAt = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(bodyOf(text)),
      });
      if (response.status !== 201 && response.status !== 200) {
        failedSends += 1;
        if (options.verbose) console.error(`send answered ${response.status}: ${await response.text()}`);
        return;
      }
      const { data } = await response.json();
      const message = { sentAt, answeredAt: performance.now(), deliveredAt: early.get(data.id) };
      early.delete(data.id);
      messages.set(data.id, message);
    };
    for (const server of servers) await probe(server);
    const cpuBefore = servers.map((server) => cpuMsOf(server.pid));
    const load = loadavg()[0];
    const started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all(
      pairs.map(async (pair, i) => {
        let turn = i % 2;
        if (!options.together) await new Promise((r) => setTimeout(r, Math.random() * THINK_MS));
        while (performance.now() < until) {
          if (turn === 0) {
            await send(target.post(patientServer, pair, "patient"), "How long should I keep taking it?");
          } else {
            await send(target.post(clinicianServer, pair, "clinician"), "Five more days, then stop.");
          }
          turn = 1 - turn;
          await pause();
        }
      }),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const graceUntil = performance.now() + GRACE_MS;
    while (
      performance.now() < graceUntil &&
      [...messages.values()].some((m) => m.deliveredAt === undefined)
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const cpuMs = servers.reduce((sum, server, i) => sum + cpuMsOf(server.pid) - cpuBefore[i], 0);
    const probes = [];
    for (const server of servers) probes.push(await probe(server));
    for (const socket of sockets) socket.terminate();
    const arrived = [...messages.values()].filter((m) => m.deliveredAt !== undefined);
    /** The delivery latencies of `list`, in ascending order. */
    const sortedLatencies = (list) => list.map((m) => m.deliveredAt - m.sentAt).sort((a, b) => a - b);
    const latencies = sortedLatencies(arrived);
    // The first seconds are the API's start: 400 sessions read for the first time, connections
    // opened, code compiled. Reported on their own; the percentiles are of the steady state after.
    const warmUpEnd = started + WARM_UP_S * 1000;
    const steady = sortedLatencies(arrived.filter((m) => m.sentAt >= warmUpEnd));
    const warmUp = sortedLatencies(arrived.filter((m) => m.sentAt < warmUpEnd));
    const at = (q) => quantile(steady, q);
    const answers = [...messages.values()].map((m) => m.answeredAt - m.sentAt).sort((a, b) => a - b);
    if (options.verbose) {
      // When the slow messages were sent, by second of the run: a stall shows as a few seconds
      // holding most of them, a queue as slow messages spread everywhere.
      const slow = new Map();
      for (const m of messages.values()) {
        if (m.deliveredAt !== undefined && m.deliveredAt - m.sentAt <= 250) continue;
        const second = Math.floor((m.sentAt - started) / 1000);
        slow.set(second, (slow.get(second) ?? 0) + 1);
      }
      console.log(
        `${target.kind} ×${instances}: messages over 250 ms by second sent: ${
          [...slow]
            .sort((a, b) => a[0] - b[0])
            .map(([second, count]) => `${second}s:${count}`)
            .join(" ") || "none"
        }`,
      );
    }
    return {
      answerP50: quantile(answers, 0.5),
      answerP99: quantile(answers, 0.99),
      kind: target.kind,
      instances,
      load,
      after: loadavg()[0],
      sent: messages.size,
      failedSends,
      delivered: latencies.length,
      lost: messages.size - latencies.length,
      perSecond: latencies.length / elapsedS,
      cpuMsPerMessage: cpuMs / Math.max(1, messages.size),
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      max: steady.at(-1) ?? Number.NaN,
      warmUpP99: quantile(warmUp, 0.99),
      allP99: quantile(latencies, 0.99),
      probes: probes.filter(Boolean),
    };
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** The runs of the chat part, each process count on the ceiling and then the API, on PostgreSQL. */
async function chatRuns() {
  postgres = await startThrowawayPostgres();
  if (!postgres) {
    console.error("bench/live needs PostgreSQL's server binaries (Debian: apt-get install postgresql)");
    process.exit(1);
  }
  chatDataDir = mkdtempSync(join(tmpdir(), "ambercare-bench-live-"));
  const results = [];
  try {
    // The first instance migrates and seeds the empty database; the pairs are written after it.
    const first = await startApiInstance({
      env: apiEnv(await freePort()),
      name: "setup",
      quiet: !options.verbose,
    });
    await first.stop();
    const pairs = await seedPairs();
    for (const instances of PROCESSES) {
      if (WITH_CEILING) results.push(await run(ceilingTarget, instances, pairs));
      results.push(await run(apiTarget, instances, pairs));
    }
  } finally {
    postgres.stop();
    rmSync(chatDataDir, { recursive: true, force: true });
  }
  return results;
}

/**
 * Arms a clock in the page for the next press of the button whose text or label holds `name`:
 * Date.now() when its click reaches the window, before any of the page's own handlers.
 */
async function armPressClock(page, name) {
  await page.evaluate((buttonName) => {
    window.__benchPressedAt = undefined;
    const listener = (event) => {
      const button = event.target instanceof Element ? event.target.closest("button") : null;
      const label = `${button?.getAttribute("aria-label") ?? ""} ${button?.textContent ?? ""}`;
      if (!label.includes(buttonName)) return;
      window.__benchPressedAt = Date.now();
      window.removeEventListener("click", listener, true);
    };
    window.addEventListener("click", listener, true);
  }, name);
  return async () => {
    const at = await page.evaluate(() => window.__benchPressedAt);
    if (typeof at !== "number") throw new Error(`the press of "${name}" was not seen`);
    return at;
  };
}

/** `--calls` video calls one after another, each in a fresh visit; the times of every call. */
async function callTimings() {
  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-bench-calls-"));
  const [port, apiPort] = [await freePort(), await freePort()];
  const load = loadavg()[0];
  const timings = [];
  let failed = 0;
  const stack = await startStack({
    quiet: !options.verbose,
    env: journeyStackEnv(port, apiPort, dataDir),
    // Outside production as in the journeys: the demo clinician's second-factor code is computed by
    // the API's clock (GET /dev/clock).
    apiEnv: { NODE_ENV: "test" },
  });
  const browser = await launchBrowser(VIDEO_CALL_BROWSER_FLAGS);
  try {
    const site = stack.webUrl;
    const sides = await signedInSides(browser, site, stack.apiUrl, dataDir);
    for (let call = 1; call <= CALLS; call++) {
      let visitId;
      try {
        visitId = await openVideoVisit(sides, site, stack.apiUrl);
        const started = await armPressClock(sides.doctor, "Start video call");
        const joined = await armPressClock(sides.patient, "Join the call");
        const frames = Promise.all([firstRemoteFrameAt(sides.patient), firstRemoteFrameAt(sides.doctor)]);
        // Kept from becoming an unhandled rejection should the steps below fail first.
        frames.catch(() => {});
        await startAndJoin(sides.patient, sides.doctor);
        const [patientFrame, clinicianFrame] = await frames;
        const [startAt, joinAt] = [await started(), await joined()];
        const timing = {
          startToPatient: patientFrame - startAt,
          startToClinician: clinicianFrame - startAt,
          joinToPatient: patientFrame - joinAt,
        };
        timings.push(timing);
        if (options.verbose) console.log(`call ${call}: ${JSON.stringify(timing)}`);
        await sides.doctor.getByRole("button", { name: "Leave the call" }).click();
        await waitForPath(sides.patient, "/call-ended");
      } catch (error) {
        failed += 1;
        console.error(`call ${call} failed: ${error instanceof Error ? error.message : error}`);
      } finally {
        if (visitId) {
          await sides.clinician
            .step(visitId, "complete", { summary: "Video call timing of the live benchmark." })
            .catch((error) => console.error(`call ${call}: the visit was not completed: ${error.message}`));
        }
      }
    }
    await sides.close();
  } finally {
    await browser.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const sorted = (key) => timings.map((t) => t[key]).sort((a, b) => a - b);
  return {
    load,
    after: loadavg()[0],
    calls: timings.length,
    failed,
    measures: [
      ["“Start video call” → the patient's first frame", sorted("startToPatient")],
      ["“Start video call” → the clinician's first frame", sorted("startToClinician")],
      ["“Join the call” → the patient's first frame", sorted("joinToPatient")],
    ],
  };
}

/**
 * The database of the scale parts: PGlite in a data directory of its own (one API process, as in
 * production on PGlite), or a throwaway PostgreSQL cluster with `--postgres`. The first API process
 * migrates and seeds it; the benchmark writes its accounts while no API process runs (PGlite's files
 * are one process's at a time) and then starts the one it measures.
 */
async function scaleStack() {
  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-bench-scale-"));
  const cluster = options.postgres ? await startThrowawayPostgres() : null;
  if (options.postgres && !cluster) {
    console.error("--postgres needs PostgreSQL's server binaries (Debian: apt-get install postgresql)");
    process.exit(1);
  }
  const env = (port) => ({
    ...secrets,
    API_PORT: String(port),
    ...(cluster ? { DATABASE_URL: cluster.url } : {}),
    LOG_LEVEL: "warn",
    MAIL_TO_FILES: "true",
    RATE_LIMIT_MAX: "100000000",
    RATE_LIMIT_ADDRESS_MAX: "100000000",
    DATA_DIR: dataDir,
  });
  const setup = await startApiInstance({
    env: env(await freePort()),
    name: "setup",
    quiet: !options.verbose,
  });
  await setup.stop();
  return {
    kind: cluster ? "PostgreSQL" : "PGlite",
    env,
    openDb: () => createDb(cluster ? { databaseUrl: cluster.url } : { dataDir }),
    close() {
      cluster?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `count` accounts with a live session each (written in batches): [{ userId, token }]. */
async function seedAccounts(db, count, prefix, role = "patient") {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000);
  const accounts = [];
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const rows = await db
      .insert(users)
      .values(
        Array.from({ length: size }, (_, k) => ({
          email: `${prefix}-${start + k}@ambercare.example`,
          passwordHash: "unusable",
          firstName: "Bench",
          lastName: `${prefix} ${start + k}`,
          emailConfirmedAt: now,
          role,
        })),
      )
      .returning({ id: users.id });
    const tokens = rows.map(() => generateToken());
    await db.insert(accessTokens).values(
      rows.map((row, k) => ({
        tokenHash: hashToken(tokens[k]),
        userId: row.id,
        surface: role === "patient" ? "care" : "main",
        createdAt: now,
        expiresAt,
        lastUsedAt: now,
      })),
    );
    for (const [k, row] of rows.entries()) accounts.push({ userId: row.id, token: tokens[k] });
  }
  return accounts;
}

/**
 * Opens `tokens`' live sockets on `api`, `concurrency` at a time; each resumes before it counts. An
 * upgrade refused on a loaded machine (408) is tried again after a pause, as a page would.
 */
async function openMany(api, tokens, onEvent = () => {}, concurrency = 20) {
  const sockets = [];
  let next = 0;
  const url = `${api.url.replace(/^http/, "ws")}/api/v1/api/live`;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tokens.length) {
        const token = tokens[next++];
        for (let attempt = 1; ; attempt++) {
          try {
            sockets.push(await openSocket(url, { authorization: `Bearer ${token}` }, onEvent));
            break;
          } catch (error) {
            if (attempt === 5) throw error;
            await sleep(500 * attempt);
          }
        }
      }
    }),
  );
  return sockets;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * (a) N idle live sockets on one API process, for each N of `--idle` in turn (sockets added to
 * those already open): resident memory and heap per socket against the process with none, and the
 * CPU the process uses at rest over `--idle-seconds` (which holds the heartbeat rounds: a ping per
 * socket and a session check per socket every LIVE_PING_INTERVAL_S).
 */
async function idleRuns(stack, counts) {
  const handle = await stack.openDb();
  const accounts = await seedAccounts(handle.db, Math.max(...counts), "live-bench-idle");
  await handle.close();
  // The probe samples the event loop every 200 ms here, not every 10 ms: at rest its own timer
  // would be most of what the process does. Its cost at that resolution is measured beside the
  // API's first window, in a node process that loads the probe and nothing else.
  const probeEnv = { LIVE_PROBE_RESOLUTION_MS: String(IDLE_PROBE_RESOLUTION_MS) };
  const api = await startApi("idle", stack.env, undefined, probeEnv);
  const windowMs = Number(options["idle-seconds"]) * 1000;
  const rows = [];
  const sockets = [];
  const probeAlone = spawn(process.execPath, ["--import", PROBE, "-e", "setInterval(() => {}, 1e9)"], {
    env: {
      ...process.env,
      ...probeEnv,
      LIVE_PROBE_FILE: join(tmpdir(), `ambercare-probe-alone-${process.pid}.json`),
    },
    stdio: "ignore",
  });
  let probeOnlyMs = Number.NaN;
  try {
    const measure = async (n) => {
      await sleep(2_000);
      const before = await probe(api);
      const rss = rssOf(api.pid);
      const cpu0 = cpuMsOf(api.pid);
      const load = loadavg()[0];
      await sleep(windowMs);
      const cpuMs = cpuMsOf(api.pid) - cpu0;
      const after = await probe(api);
      const open = sockets.filter((socket) => socket.readyState === WebSocket.OPEN).length;
      return {
        n,
        open,
        rss,
        heap: before?.memory.heapUsed ?? Number.NaN,
        cpuMs,
        load,
        loop: after?.loopDelay,
      };
    };
    // The API's first minute is not rest: its start-up's garbage is collected (RSS drops by ~70 MiB)
    // and the compiler finishes. One window at rest is measured and left out first.
    await measure(0);
    const probeCpu0 = cpuMsOf(probeAlone.pid);
    const base = await measure(0);
    probeOnlyMs = cpuMsOf(probeAlone.pid) - probeCpu0;
    probeAlone.kill();
    rows.push(base);
    for (const n of [...counts].sort((a, b) => a - b)) {
      const opened = performance.now();
      sockets.push(
        ...(await openMany(
          api,
          accounts.slice(sockets.length, n).map((account) => account.token),
        )),
      );
      const openS = (performance.now() - opened) / 1000;
      rows.push({ ...(await measure(n)), openS });
    }
    return { windowMs, rows, base, probeOnlyMs };
  } finally {
    probeAlone.kill();
    for (const socket of sockets) socket.terminate();
    await api.stop();
  }
}

/**
 * (b) The queue's fan-out: `--fanout CxP` — C clinicians on duty, each with the console open (a
 * provider of their own licensed in the benchmark's state), and P patients waiting with the waiting
 * room open, their requests in the queue. Then new requests one after another, each from another
 * patient through the API as the site sends it: the time from the request's POST to each console's
 * `queue.changed` event.
 */
async function fanoutRun(stack, clinicianCount, waitingCount, requests = 20) {
  const STATE = "WY";
  const handle = await stack.openDb();
  const { db } = handle;
  const now = new Date();
  const clinicianAccounts = await seedAccounts(db, clinicianCount, "live-bench-console", "clinician");
  for (const [i, account] of clinicianAccounts.entries()) {
    const provider = await seedProvider(db, account.userId, `live-bench-fanout-${i}`, now);
    await db.insert(providerLicenses).values({ providerId: provider.id, state: STATE });
  }
  const waiting = await seedAccounts(db, waitingCount, "live-bench-waiting");
  for (let start = 0; start < waiting.length; start += 500) {
    await db.insert(consultations).values(
      waiting.slice(start, start + 500).map((account) => ({
        userId: account.userId,
        type: "chat",
        status: "requested",
        state: STATE,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  // One more: the first request warms the path up (its time is printed apart, not counted).
  const requesters = await seedAccounts(db, requests + 1, "live-bench-requester");
  await db.insert(subscriptions).values(
    requesters.map((account) => ({
      userId: account.userId,
      plan: "subscription_monthly",
      interval: "month",
      status: "active",
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + 30 * 24 * 3600_000),
      provider: "demo",
      createdAt: now,
      updatedAt: now,
    })),
  );
  await handle.close();
  const api = await startApi("fanout", stack.env);
  const latencies = [];
  let missing = 0;
  let failed = 0;
  const sockets = [];
  try {
    /** consultation id → { sentAt, reached: Set of console index } */
    const pending = new Map();
    const early = new Map();
    const onQueue = (index) => (frame) => {
      if (frame.topic !== "queue.changed" || frame.payload?.change !== "created") return;
      const id = frame.payload.consultation_id;
      const at = performance.now();
      const request = pending.get(id);
      if (!request) {
        const list = early.get(id) ?? [];
        list.push([index, at]);
        early.set(id, list);
      } else if (!request.reached.has(index)) {
        request.reached.set(index, at);
      }
    };
    const url = `${api.url.replace(/^http/, "ws")}/api/v1/api/live`;
    for (const [index, account] of clinicianAccounts.entries()) {
      sockets.push(await openFrames(url, account.token, onQueue(index)));
    }
    sockets.push(
      ...(await openMany(
        api,
        waiting.map((account) => account.token),
      )),
    );
    await probe(api);
    let cpu0 = cpuMsOf(api.pid);
    const load = loadavg()[0];
    let warmUpMs = Number.NaN;
    for (const [n, requester] of requesters.entries()) {
      const sentAt = performance.now();
      const response = await fetch(`${api.url}/${PRODUCT}/create-consultation`, {
        method: "POST",
        headers: { authorization: `Bearer ${requester.token}`, "content-type": "application/json" },
        body: JSON.stringify(consultationBody("chat", STATE)),
      });
      if (response.status !== 201) {
        failed += 1;
        if (options.verbose) console.error(`request answered ${response.status}: ${await response.text()}`);
        continue;
      }
      const { data } = await response.json();
      if (n === 0) {
        warmUpMs = performance.now() - sentAt;
        await sleep(1_000);
        await probe(api);
        cpu0 = cpuMsOf(api.pid);
        continue;
      }
      const request = { sentAt, reached: new Map(early.get(data.id) ?? []) };
      early.delete(data.id);
      pending.set(data.id, request);
      await sleep(500);
    }
    await sleep(3_000);
    for (const request of pending.values()) {
      for (const at of request.reached.values()) latencies.push(at - request.sentAt);
      missing += clinicianCount - request.reached.size;
    }
    latencies.sort((a, b) => a - b);
    const cpuMs = cpuMsOf(api.pid) - cpu0;
    const after = await probe(api);
    return {
      clinicianCount,
      waitingCount,
      requests: pending.size,
      warmUpMs,
      failed,
      missing,
      load,
      cpuMs,
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      max: latencies.at(-1) ?? Number.NaN,
      loop: after?.loopDelay,
    };
  } finally {
    for (const socket of sockets) socket.terminate();
    await api.stop();
  }
}

/** A live socket handing every frame with a topic to `onFrame`, resolved once resumed. */
function openFrames(url, token, onFrame, after = null, onResumed = () => {}) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    socket.on("error", reject);
    socket.on("open", () => socket.send(JSON.stringify({ type: "resume", after })));
    socket.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.type === "resumed") {
        onResumed(frame.after);
        resolve(socket);
      } else if (frame.topic) onFrame(frame);
    });
  });
}

/**
 * (c) The reconnect storm: `--storm N` sockets (N/2 chat pairs, both sides on one API process).
 * Every patient sends a message at once and the API process is killed (SIGKILL) once half of them
 * have been answered; it is started again on the same port, and every socket comes back as a page
 * does (a retry every 250–500 ms, resuming after the last event it had). Counts the answered (so
 * committed) messages that never reached both sides, and times the way back.
 */
async function stormRun(stack, socketCount) {
  const handle = await stack.openDb();
  const pairs = await seedPairs(Math.floor(socketCount / 2), handle);
  await handle.close();
  const port = await freePort();
  let api = await startApi("storm", stack.env, port);
  const url = `${api.url.replace(/^http/, "ws")}/api/v1/api/live`;
  /** One client per side: its socket, the last event id it had, the messages it heard of. */
  const clients = pairs.flatMap((pair) =>
    ["patient", "clinician"].map((side) => ({
      token: side === "patient" ? pair.patientToken : pair.clinicianToken,
      pair,
      lastId: null,
      heard: new Set(),
      socket: null,
      droppedAt: null,
      backAt: null,
      stopped: false,
    })),
  );
  const connect = async (client) => {
    for (;;) {
      if (client.stopped) return;
      try {
        const socket = await openFrames(
          url,
          client.token,
          (frame) => {
            if (typeof frame.id === "number") client.lastId = frame.id;
            if (frame.topic === "visit.message") client.heard.add(frame.payload.message_id);
          },
          client.lastId,
          // A page re-reads what it shows on `resumed`; from then on it counts on the events.
          (after) => {
            if (client.lastId === null) client.lastId = after;
          },
        );
        client.socket = socket;
        if (client.droppedAt !== null) client.backAt = performance.now();
        socket.on("close", () => {
          if (client.stopped) return;
          client.droppedAt = performance.now();
          client.backAt = null;
          void sleep(250 + Math.random() * 250).then(() => connect(client));
        });
        return;
      } catch {
        await sleep(250 + Math.random() * 250);
      }
    }
  };
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < clients.length) await connect(clients[next++]);
      }),
    );
    const answered = [];
    let answers = 0;
    const killAt = Math.ceil(pairs.length / 2);
    let killed = null;
    const kill = () => {
      if (killed) return;
      killed = performance.now();
      process.kill(api.pid, "SIGKILL");
    };
    await Promise.all(
      pairs.map(async (pair) => {
        try {
          const response = await fetch(`${api.url}/${PRODUCT}/consultations/${pair.visitId}/messages`, {
            method: "POST",
            headers: { authorization: `Bearer ${pair.patientToken}`, "content-type": "application/json" },
            body: JSON.stringify({ body: "Are you still there?", client_id: randomUUID() }),
          });
          if (response.status === 201) answered.push({ pair, id: (await response.json()).data.id });
        } catch {
          // Cut by the kill: not answered, so not counted.
        }
        answers += 1;
        if (answers >= killAt) kill();
      }),
    );
    kill();
    await api.stop();
    const load = loadavg()[0];
    const restartAt = performance.now();
    api = await startApi("storm-again", stack.env, port);
    const healthyAt = performance.now();
    const until = performance.now() + 60_000;
    while (performance.now() < until && clients.some((client) => client.backAt === null)) await sleep(100);
    // The sockets come back as soon as the port listens, before the bench has seen /healthz answer:
    // the way back is timed from the first socket back. The CPU is the new process's since it began.
    const cpuMs = cpuMsOf(api.pid);
    const graceUntil = performance.now() + GRACE_MS;
    const lostCount = () =>
      answered.filter(({ pair, id }) =>
        clients.some((client) => client.pair === pair && !client.heard.has(id)),
      ).length;
    while (performance.now() < graceUntil && lostCount() > 0) await sleep(100);
    // A lost message still in its thread was not delivered; one missing from it was not kept.
    let notKept = 0;
    for (const { pair, id } of answered) {
      if (!clients.some((client) => client.pair === pair && !client.heard.has(id))) continue;
      const thread = await fetch(`${api.url}/${PRODUCT}/consultations/${pair.visitId}/messages`, {
        headers: { authorization: `Bearer ${pair.patientToken}` },
      });
      const { data } = await thread.json();
      if (!data.some((message) => message.id === id)) notKept += 1;
    }
    const firstBack = Math.min(...clients.map((client) => client.backAt ?? Number.POSITIVE_INFINITY));
    const backTimes = clients
      .filter((client) => client.backAt !== null)
      .map((client) => client.backAt - firstBack)
      .sort((a, b) => a - b);
    return {
      sockets: clients.length,
      answered: answered.length,
      lost: lostCount(),
      notKept,
      back: backTimes.length,
      restartMs: healthyAt - restartAt,
      firstBackMs: firstBack - restartAt,
      allBackMs: backTimes.at(-1) ?? Number.NaN,
      p50: quantile(backTimes, 0.5),
      p99: quantile(backTimes, 0.99),
      cpuMs,
      load,
    };
  } finally {
    for (const client of clients) {
      client.stopped = true;
      client.socket?.terminate();
    }
    await api.stop();
  }
}

/** The scale parts asked for, on one database. */
async function scaleRuns() {
  const idle = options.idle ? options.idle.split(",").map(Number) : [];
  const fanout = options.fanout ? options.fanout.split("x").map(Number) : null;
  const storm = options.storm ? Number(options.storm) : 0;
  if (idle.length === 0 && !fanout && storm === 0) return null;
  const stack = await scaleStack();
  try {
    // A part that fails says why and leaves the others to run.
    const part = async (name, work) => {
      try {
        return await work();
      } catch (error) {
        console.error(`the ${name} part failed: ${error instanceof Error ? error.message : error}`);
        return null;
      }
    };
    return {
      db: stack.kind,
      idle: idle.length > 0 ? await part("idle", () => idleRuns(stack, idle)) : null,
      fanout: fanout ? await part("fan-out", () => fanoutRun(stack, fanout[0], fanout[1])) : null,
      storm: storm > 0 ? await part("storm", () => stormRun(stack, storm)) : null,
    };
  } finally {
    stack.close();
  }
}

const results = PAIRS > 0 ? await chatRuns() : [];
const scale = await scaleRuns();
const calls = CALLS > 0 ? await callTimings() : null;

const ms = (n) => (Number.isNaN(n) ? "–" : `${Math.round(n)} ms`);
const today = new Date().toISOString().slice(0, 10);
const ratio = (a, b) => (Number.isFinite(a / b) ? `${Math.round((100 * a) / b)} %` : "–");
if (results.length > 0) {
  console.log(
    `\nlive ${today}: ${PAIRS} chat pairs for ${SECONDS} s each, pause ${THINK_MS} ms ± 50 %, ${options.together ? "every first message in the same instant" : "first messages spread over the first pause"}, PostgreSQL; /proc/loadavg at the end: ${readFileSync("/proc/loadavg", "utf8").trim()}`,
  );
  console.log(
    `| server | processes | load avg before → after | sent | failed | delivered | lost | delivered/s | CPU ms/message | p50 | p95 | p99 | max | POST answered p50 / p99 | first ${WARM_UP_S} s: p99 | whole run: p99 |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.kind} | ${r.instances} | ${r.load.toFixed(1)} → ${r.after.toFixed(1)} | ${r.sent} | ${r.failedSends} | ${r.delivered} | ${r.lost} | ${r.perSecond.toFixed(0)} | ${r.cpuMsPerMessage.toFixed(2)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} | ${ms(r.answerP50)} / ${ms(r.answerP99)} | ${ms(r.warmUpP99)} | ${ms(r.allP99)} |`,
    );
  }
  const ceilings = results.filter((r) => r.kind === "ceiling");
  if (ceilings.length > 0) {
    console.log("\n| processes | API throughput / ceiling | API p99 / ceiling p99 |");
    console.log("|---|---|---|");
    for (const r of results.filter((x) => x.kind === "API")) {
      const ceiling = ceilings.find((c) => c.instances === r.instances);
      if (!ceiling) continue;
      const p99s = `${(r.p99 / ceiling.p99).toFixed(1)}× (${ms(r.p99)} against ${ms(ceiling.p99)})`;
      console.log(`| ${r.instances} | ${ratio(r.perSecond, ceiling.perSecond)} | ${p99s} |`);
    }
  }
  for (const r of results.filter((x) => x.probes.length > 0)) {
    for (const [i, p] of r.probes.entries()) {
      const gc = Object.entries(p.gc)
        .map(
          ([kind, g]) => `${kind} ${g.count}× ${g.totalMs.toFixed(0)} ms (longest ${g.maxMs.toFixed(0)} ms)`,
        )
        .join(", ");
      console.log(
        `${r.kind} ×${r.instances}, process ${i + 1}: event loop delay p50 ${p.loopDelay.p50.toFixed(0)} ms, p99 ${p.loopDelay.p99.toFixed(0)} ms, max ${p.loopDelay.max.toFixed(0)} ms; GC ${gc || "none"}; RSS ${(p.memory.rss / 2 ** 20).toFixed(0)} MiB`,
      );
    }
  }
}
if (calls) {
  console.log(
    `\nlive ${today}: ${calls.calls} of ${CALLS} video calls one after another (${calls.failed} failed), PGlite, one Chromium with a fake camera and microphone; load avg before → after ${calls.load.toFixed(1)} → ${calls.after.toFixed(1)}`,
  );
  console.log("| measure | p50 | p95 | min | max |");
  console.log("|---|---|---|---|---|");
  for (const [name, sorted] of calls.measures) {
    console.log(
      `| ${name} | ${ms(quantile(sorted, 0.5))} | ${ms(quantile(sorted, 0.95))} | ${ms(sorted[0] ?? Number.NaN)} | ${ms(sorted.at(-1) ?? Number.NaN)} |`,
    );
  }
}
if (scale?.idle) {
  const { rows, base, windowMs, probeOnlyMs } = scale.idle;
  const rounds = windowMs / 1000 / 20;
  console.log(
    `\nlive ${today}: idle live sockets on one API process, ${scale.db}; CPU over ${windowMs / 1000} s at rest (heartbeat every 20 s: ${rounds.toFixed(1)} rounds); /proc/loadavg ${readFileSync("/proc/loadavg", "utf8").trim()}`,
  );
  console.log(
    "| sockets | open | opened in | RSS | RSS per socket | heap per socket | CPU at rest (% of a core) | CPU per socket per heartbeat round | event loop p99 / max | load avg |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const perSocket = (value, baseValue) =>
      r.n > 0 ? `${((value - baseValue) / r.n / 1024).toFixed(1)} KiB` : "–";
    const cpuShare = (100 * r.cpuMs) / windowMs;
    const perRound = r.n > 0 ? `${((1000 * (r.cpuMs - base.cpuMs)) / r.n / rounds).toFixed(0)} µs` : "–";
    console.log(
      `| ${r.n} | ${r.open} | ${r.openS ? `${r.openS.toFixed(1)} s` : "–"} | ${(r.rss / 2 ** 20).toFixed(0)} MiB | ${perSocket(r.rss, base.rss)} | ${perSocket(r.heap, base.heap)} | ${cpuShare.toFixed(2)} % | ${perRound} | ${r.loop ? `${r.loop.p99.toFixed(0)} / ${r.loop.max.toFixed(0)} ms` : "–"} | ${r.load.toFixed(1)} |`,
    );
  }
  console.log(
    `The probe alone (event loop sampled every ${IDLE_PROBE_RESOLUTION_MS} ms), in a node process of its own over the same window: ${((100 * probeOnlyMs) / windowMs).toFixed(2)} % of a core.`,
  );
  const over = rows.find((r) => r.n > 0 && (100 * r.cpuMs) / windowMs > 1);
  console.log(
    over
      ? `CPU at rest passes 1 % of a core at ${over.n} sockets.`
      : "CPU at rest stays within 1 % of a core at every N measured.",
  );
}
if (scale?.fanout) {
  const f = scale.fanout;
  console.log(
    `\nlive ${today}: queue fan-out on one API process, ${scale.db}: ${f.clinicianCount} consoles open, ${f.waitingCount} patients waiting with the waiting room open; ${f.requests} new requests (${f.failed} failed), one every 0.5 s, after a first one that warms the path up (answered in ${ms(f.warmUpMs)}); load avg ${f.load.toFixed(1)}`,
  );
  console.log(
    "| deliveries | missing | request POST → console p50 | p99 | max | API CPU | event loop p99 / max |",
  );
  console.log("|---|---|---|---|---|---|---|");
  console.log(
    `| ${f.requests * f.clinicianCount - f.missing} | ${f.missing} | ${ms(f.p50)} | ${ms(f.p99)} | ${ms(f.max)} | ${Math.round(f.cpuMs)} ms | ${f.loop ? `${f.loop.p99.toFixed(0)} / ${f.loop.max.toFixed(0)} ms` : "–"} |`,
  );
}
if (scale?.storm) {
  const r = scale.storm;
  console.log(
    `\nlive ${today}: reconnect storm on one API process, ${scale.db}: ${r.sockets} sockets dropped at once (the process killed mid-burst of messages and started again); load avg ${r.load.toFixed(1)}`,
  );
  console.log(
    "| sockets | back | answered messages | lost (of them not in the thread any more) | restart → /healthz answers | restart → first socket back | first → last back | back p50 | back p99 | new process's CPU until all back (start-up included) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| ${r.sockets} | ${r.back} | ${r.answered} | ${r.lost} (${r.notKept}) | ${ms(r.restartMs)} | ${ms(r.firstBackMs)} | ${ms(r.allBackMs)} | ${ms(r.p50)} | ${ms(r.p99)} | ${Math.round(r.cpuMs)} ms |`,
  );
}
process.exit(
  results.some((r) => r.lost > 0 || r.failedSends > 0) ||
    (calls?.failed ?? 0) > 0 ||
    (scale?.storm?.lost ?? 0) > 0 ||
    (scale?.fanout?.missing ?? 0) > 0
    ? 1
    : 0,
);
