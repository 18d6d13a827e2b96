#!/usr/bin/env -S npx tsx
// Booked visits (ADR 059, 063) through the real HTTP API on PGlite with the demo data and the demo
// clinicians' hours (seedDemoBooking):
// 1. free-slot listing: every demo provider with hours, each of their visit types, 14 days
//    (`GET /api/v1/api/provider/:slug/slots?type=&days=14`), one request at a time, `--rounds`
//    times over; p50/p99 beside a bare Fastify sending the largest of those answers (the ceiling).
// 2. contention: `--patients` patients hold the same free slot at once (`POST
//    /{product}/bookings/holds`), `--races` times on different slots; how many holds each race gave
//    (exactly one, by the database's exclusion constraint), the race's p50/p99 from first request
//    to last answer, and attempts a second, beside a bare Fastify answering the same requests.
// Prints figures; gates nothing.
//
// Usage: npm run booking -w @ambercare/bench [-- --rounds 20 --patients 20 --races 30]
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import { visitorHeaders } from "@ambercare/contracts/visitor";
import { createDb } from "@ambercare/db/client";
import {
  accessTokens,
  clinicianSchedules,
  clinicians,
  providerLicenses,
  providers,
  users,
} from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import Fastify from "fastify";
import { buildApp } from "../apps/api/src/app.ts";
import { generateToken, hashToken } from "../apps/api/src/modules/accounts/tokens.ts";
import { loadConfig } from "../apps/api/src/platform/config.ts";
import { runMigrations } from "../packages/db/src/migrate.ts";
import { seedDemoData } from "../packages/db/src/seed.ts";
import { seedDemoBooking } from "../packages/db/src/seed-booking.ts";

const { values: options } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    patients: { type: "string", default: "20" },
    races: { type: "string", default: "30" },
  },
});
const ROUNDS = Number(options.rounds);
const PATIENTS = Number(options.patients);
const RACES = Number(options.races);
const PRODUCT = "ambercare";
const PUBLIC_TOKEN = "bench-public-token-0123456789abcdef";
/** A signed visitor address per caller, as the web server sends (ADR 025): limits count per visitor. */
const visitor = (i) => visitorHeaders(PUBLIC_TOKEN, `198.51.100.${(i % 250) + 1}`);

function percentile(sorted, p) {
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
function stats(durations, wallMs) {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), count: sorted.length, wallMs };
}
const ms = (value) => `${value.toFixed(2)} ms`;

/** Patients with a care session each, written to the database (the run measures booking, not sign-ups). */
async function seedPatients(db, count) {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000);
  const tokens = [];
  for (let i = 0; i < count; i++) {
    const [patient] = await db
      .insert(users)
      .values({
        email: `booking-bench-patient-${i}@ambercare.example`,
        passwordHash: "unusable",
        firstName: "Patient",
        lastName: `Number ${i}`,
        emailConfirmedAt: now,
      })
      .returning({ id: users.id });
    const token = generateToken();
    await db.insert(accessTokens).values({
      tokenHash: hashToken(token),
      userId: patient.id,
      surface: "care",
      createdAt: now,
      expiresAt,
      lastUsedAt: now,
    });
    tokens.push(token);
  }
  return tokens;
}

/** The slot listings of every provider with hours and type: one request at a time, ROUNDS times. */
async function listSlots(baseUrl, paths) {
  const durations = [];
  let largest = "";
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, path] of paths.entries()) {
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers: visitor(i) });
      const body = await response.text();
      durations.push(performance.now() - t0);
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body}`);
      if (body.length > largest.length) largest = body;
    }
  }
  return { ...stats(durations, performance.now() - started), largest };
}

/** RACES races of all patients for one slot each; answers per race and their times. */
async function race(baseUrl, tokens, bodies) {
  const durations = [];
  const winners = [];
  const refusals = new Map();
  const started = performance.now();
  for (const body of bodies) {
    const t0 = performance.now();
    const answers = await Promise.all(
      tokens.map((token, i) =>
        fetch(`${baseUrl}/${PRODUCT}/bookings/holds`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...visitor(i) },
          body: JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: await response.json() })),
      ),
    );
    durations.push(performance.now() - t0);
    winners.push(answers.filter((answer) => answer.status === 201).length);
    for (const answer of answers.filter((one) => one.status !== 201)) {
      const code = `${answer.status} ${answer.body.code ?? ""}`.trim();
      refusals.set(code, (refusals.get(code) ?? 0) + 1);
    }
  }
  return { ...stats(durations, performance.now() - started), winners, refusals };
}

/** A bare Fastify answering the same paths with stored answers: what this machine does without us. */
async function ceiling(largest, holdAnswer) {
  const app = Fastify({ logger: false });
  app.get("/api/v1/api/provider/:slug/slots", async (_request, reply) =>
    reply.type("application/json").send(largest),
  );
  app.post(`/${PRODUCT}/bookings/holds`, async (_request, reply) =>
    reply.code(201).type("application/json").send(holdAnswer),
  );
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, baseUrl: `http://127.0.0.1:${app.server.address().port}` };
}

const dir = mkdtempSync(join(tmpdir(), "ambercare-bench-booking-"));
const handle = await createDb({ dataDir: join(dir, "db") });
let app;
let bare;
try {
  await runMigrations(handle);
  await seedDemoData(handle);
  const schedules = await seedDemoBooking(handle);
  const tokens = await seedPatients(handle.db, PATIENTS);
  const bookable = await handle.db
    .select({ slug: providers.slug, visitTypes: providers.visitTypes, providerId: providers.id })
    .from(providers)
    .innerJoin(clinicians, eq(clinicians.providerId, providers.id))
    .innerJoin(clinicianSchedules, eq(clinicianSchedules.clinicianUserId, clinicians.userId));
  const paths = bookable.flatMap((provider) =>
    provider.visitTypes.map((type) => `/api/v1/api/provider/${provider.slug}/slots?type=${type}&days=14`),
  );

  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DATA_DIR: join(dir, "data"),
    // The booking's e-mails (the hold sends none; the jobs runner is not started) go to files.
    MAIL_TO_FILES: "true",
    PUBLIC_API_TOKEN: PUBLIC_TOKEN,
    SERVICE_ACCOUNT_EMAIL: "service@ambercare.bench",
    SERVICE_ACCOUNT_PASSWORD: "bench-service-password",
  });
  app = await buildApp(config, { db: handle });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const baseUrl = `http://127.0.0.1:${app.server.address().port}`;

  // Warm up once, then measure.
  for (const path of paths) await fetch(`${baseUrl}${path}`, { headers: visitor(0) });
  const listing = await listSlots(baseUrl, paths);

  // The races: the provider with the most free times of one type, in a state they are licensed in.
  const candidates = [];
  for (const provider of bookable) {
    const [licence] = await handle.db
      .select({ state: providerLicenses.state })
      .from(providerLicenses)
      .where(eq(providerLicenses.providerId, provider.providerId))
      .limit(1);
    if (!licence) continue;
    for (const type of provider.visitTypes) {
      const response = await fetch(
        `${baseUrl}/api/v1/api/provider/${provider.slug}/slots?type=${type}&state=${licence.state}&days=14`,
      );
      const { data } = await response.json();
      candidates.push({
        slug: provider.slug,
        type,
        state: licence.state,
        starts: data.slots.map((s) => s.start),
      });
    }
  }
  const chosen = candidates.sort((a, b) => b.starts.length - a.starts.length)[0];
  if (!chosen || chosen.starts.length < RACES) throw new Error("not enough free times for the races");
  // Every other time, so a race's slot never touches the last one (slots of one type never overlap).
  const bodies = chosen.starts
    .filter((_, i) => i % 2 === 0)
    .slice(0, RACES)
    .map((start) => ({ provider_slug: chosen.slug, type: chosen.type, state: chosen.state, start }));
  const contention = await race(baseUrl, tokens, bodies);

  bare = await ceiling(
    listing.largest,
    JSON.stringify({ data: { id: "00000000-0000-4000-8000-000000000000" } }),
  );
  for (const path of paths) await fetch(`${bare.baseUrl}${path}`);
  const bareListing = await listSlots(bare.baseUrl, paths);
  const bareRace = await race(bare.baseUrl, tokens, bodies);

  const [load1] = loadavg();
  console.log(
    `\nBooked visits on PGlite: ${schedules} demo schedules, ${paths.length} provider × type listings of 14 days, ${availableParallelism()} CPUs, load average ${load1.toFixed(1)} at the end (other processes share the machine).\n`,
  );
  console.log("| Measure | Requests | p50 | p99 | Throughput | Ceiling p50 | Ceiling p99 | p50 / ceiling |");
  console.log("|---|---|---|---|---|---|---|---|");
  const row = (label, ours, base, unit) =>
    console.log(
      `| ${label} | ${ours.count * (unit ?? 1)} | ${ms(ours.p50)} | ${ms(ours.p99)} | ${((ours.count * (unit ?? 1) * 1000) / ours.wallMs).toFixed(0)}/s | ${ms(base.p50)} | ${ms(base.p99)} | ${(ours.p50 / base.p50).toFixed(1)}× |`,
    );
  row("Free slots, one listing (14 days)", listing, bareListing);
  row(
    `Hold race, ${PATIENTS} patients for one slot (first request → last answer)`,
    contention,
    bareRace,
    PATIENTS,
  );
  const exactlyOne = contention.winners.filter((count) => count === 1).length;
  console.log(
    `\nRaces: ${RACES}, each on its own slot of ${chosen.slug} (${chosen.type}, ${chosen.state}); races won by exactly one patient: ${exactlyOne}/${RACES}; the others were refused: ${[...contention.refusals].map(([code, n]) => `${code} × ${n}`).join(", ")}.`,
  );
} finally {
  await bare?.app.close();
  await app?.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
}
