#!/usr/bin/env node
// `npm run live -w @ambercare/bench -- [--pairs 200] [--seconds 30] [--think-ms 1000] [--calls 20]`
// Message delivery latency of the visit chat: `--pairs` patients each in a chat visit with their own
// clinician, all at once, on a throwaway PostgreSQL cluster — first with one API process, then with
// two (the patient's socket and calls on one, the clinician's on the other, so every message crosses
// processes through LISTEN/NOTIFY). Each side sends a message, pauses (`--think-ms` ± 50 %), and so
// on; the latency of a message is from the start of its POST to the moment the other side's live
// socket receives its event. Prints messages sent, delivered, lost, and p50/p95/p99 per run.
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
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import { createDb } from "@ambercare/db/client";
import { accessTokens, clinicians, consultations, providers, users } from "@ambercare/db/schema";
import { WebSocket } from "ws";
import { enableKnownSecondFactor } from "../apps/api/src/modules/accounts/second-factor-service.ts";
import { generateToken, hashToken } from "../apps/api/src/modules/accounts/tokens.ts";
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
    verbose: { type: "boolean", default: false },
  },
});
const PAIRS = Number(options.pairs);
const SECONDS = Number(options.seconds);
const THINK_MS = Number(options["think-ms"]);
const CALLS = Number(options.calls);
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

/** Writes the pairs: a patient, a provider with its clinician, and a chat visit in progress. */
async function seedPairs() {
  const handle = await createDb({ databaseUrl: postgres.url });
  const { db } = handle;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000);
  const pairs = [];
  try {
    for (let i = 0; i < PAIRS; i++) {
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
      const [provider] = await db
        .insert(providers)
        .values({
          slug: `live-bench-provider-${i}`,
          firstName: "Bench",
          lastName: `Provider ${i}`,
          credentials: "MD",
          bioEn: "A provider of the chat benchmark.",
          languages: ["en"],
        })
        .returning({ id: providers.id });
      await db.insert(clinicians).values({ userId: clinicianUser.id, providerId: provider.id });
      await enableKnownSecondFactor(db, {
        encryptionKey: secrets.SECOND_FACTOR_KEY,
        userId: clinicianUser.id,
        secret: "JBSWY3DPEHPK3PXP",
        now,
      });
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
      pairs.push({ visitId: visit.id, patientToken, clinicianToken });
    }
  } finally {
    await handle.close();
  }
  return pairs;
}

/** A live socket that has resumed (the server answered the resume). */
function openSocket(apiUrl, token, onMessageEvent) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${apiUrl.replace(/^http/, "ws")}/api/v1/api/live`, {
      headers: { authorization: `Bearer ${token}` },
    });
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

async function run(instances, pairs) {
  const apis = [];
  try {
    for (let n = 0; n < instances; n++) {
      apis.push(
        await startApiInstance({
          env: apiEnv(await freePort()),
          name: `api${n + 1}`,
          quiet: !options.verbose,
        }),
      );
    }
    const patientApi = apis[0].url;
    const clinicianApi = apis[instances - 1].url;
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
      sockets.push(await openSocket(patientApi, pair.patientToken, delivered));
      sockets.push(await openSocket(clinicianApi, pair.clinicianToken, delivered));
    }
    let failedSends = 0;
    const send = async (url, token, body) => {
      const sentAt = performance.now();
      const response = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ body, client_id: randomUUID() }),
      });
      if (response.status !== 201 && response.status !== 200) {
        failedSends += 1;
        if (options.verbose) console.error(`send answered ${response.status}: ${await response.text()}`);
        return;
      }
      const { data } = await response.json();
      const message = { sentAt, deliveredAt: early.get(data.id) };
      early.delete(data.id);
      messages.set(data.id, message);
    };
    const load = loadavg()[0];
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(
      pairs.map(async (pair, i) => {
        let turn = i % 2;
        while (performance.now() < until) {
          if (turn === 0) {
            await send(
              `${patientApi}/${PRODUCT}/consultations/${pair.visitId}/messages`,
              pair.patientToken,
              "How long should I keep taking it?",
            );
          } else {
            await send(
              `${clinicianApi}/api/v1/api/care-team/visits/${pair.visitId}/messages`,
              pair.clinicianToken,
              "Five more days, then stop.",
            );
          }
          turn = 1 - turn;
          await pause();
        }
      }),
    );
    const graceUntil = performance.now() + GRACE_MS;
    while (
      performance.now() < graceUntil &&
      [...messages.values()].some((m) => m.deliveredAt === undefined)
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const socket of sockets) socket.terminate();
    const latencies = [...messages.values()]
      .filter((m) => m.deliveredAt !== undefined)
      .map((m) => m.deliveredAt - m.sentAt)
      .sort((a, b) => a - b);
    const at = (q) => quantile(latencies, q);
    return {
      instances,
      load,
      after: loadavg()[0],
      sent: messages.size,
      failedSends,
      delivered: latencies.length,
      lost: messages.size - latencies.length,
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
    };
  } finally {
    for (const api of apis) await api.stop();
  }
}

/** Both runs of the chat part, on a throwaway PostgreSQL cluster. */
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
    results.push(await run(1, pairs));
    results.push(await run(2, pairs));
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

const results = PAIRS > 0 ? await chatRuns() : [];
const calls = CALLS > 0 ? await callTimings() : null;

const ms = (n) => (Number.isNaN(n) ? "–" : `${Math.round(n)} ms`);
const today = new Date().toISOString().slice(0, 10);
if (results.length > 0) {
  console.log(
    `\nlive ${today}: ${PAIRS} chat pairs for ${SECONDS} s each, pause ${THINK_MS} ms ± 50 %, PostgreSQL`,
  );
  console.log(
    "| API processes | load avg before → after | messages sent | failed sends | delivered | lost | p50 | p95 | p99 |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.instances} | ${r.load.toFixed(1)} → ${r.after.toFixed(1)} | ${r.sent} | ${r.failedSends} | ${r.delivered} | ${r.lost} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} |`,
    );
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
process.exit(results.some((r) => r.lost > 0 || r.failedSends > 0) || (calls?.failed ?? 0) > 0 ? 1 : 0);
