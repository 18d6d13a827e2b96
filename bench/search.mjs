#!/usr/bin/env -S npx tsx
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
// Provider search under load: seeds 100 000 providers into PostgreSQL and into PGlite, runs one fixed
// mix of 1 000 searches through the real HTTP API (Fastify listening on a free loopback port) at 64
// concurrent connections, and prints p50/p95/p99 and throughput beside the same searches run
// directly on the database (provider service → repository → SQL, no HTTP). Prints figures; gates
// nothing.
//
// Usage: npm run search -w @ambercare/bench [-- --providers 100000 --concurrency 64 --only pg|pglite
//        --profile DIR]
// PostgreSQL: TEST_DATABASE_URL or DATABASE_URL when set (a database `ambercare_bench_…` is created
// on that server and dropped afterwards), else a throwaway cluster (scripts/lib/postgres.mjs).
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import pg from "pg";
import { buildApp } from "../apps/api/src/app.ts";
import { createProviderDirectory } from "../apps/api/src/modules/directory/provider-directory.ts";
import { createProviderRepository } from "../apps/api/src/modules/directory/provider-repository.ts";
import { createProviderService } from "../apps/api/src/modules/directory/provider-service.ts";
import { systemClock } from "../apps/api/src/platform/clock.ts";
import { loadConfig } from "../apps/api/src/platform/config.ts";
import { providerListQuery } from "../packages/contracts/src/provider.ts";
import { US_STATE_CODES } from "../packages/contracts/src/us-states.ts";
import { visitorHeaders } from "../packages/contracts/src/visitor.ts";
import { createDb } from "../packages/db/src/client.ts";
import { runMigrations } from "../packages/db/src/migrate.ts";
import { seedDemoData } from "../packages/db/src/seed.ts";
import { SEED_CONDITIONS, SEED_SPECIALIZATIONS } from "../packages/db/src/seed-data.ts";
import { createPrng, seedProviders } from "../packages/db/src/seed-providers.ts";
import { startThrowawayPostgres } from "../scripts/lib/postgres.mjs";

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}
const PROVIDERS = Number(option("providers", "100000"));
const ONLY = option("only", "");
const PROFILE = option("profile", "");
const SEARCHES = 1_000;
const WARM_UP = 200;
const CONCURRENCY = Number(option("concurrency", "64"));
/** Distinct visitors the web server names (signed, ADR 025), so the per-visitor rate limit is real. */
const VISITORS = 64;
const BENCH_PUBLIC_TOKEN = "bench-public-token-0123456789abcdef";
/** Each visitor's headers, as the web server sends them on its calls. */
const VISITOR_HEADERS = Array.from({ length: VISITORS }, (_, i) =>
  visitorHeaders(BENCH_PUBLIC_TOKEN, `198.51.100.${i + 1}`),
);
const MIX_SEED = 20261122;

// ---------------------------------------------------------------------------------------------
// The search mix: what patients do on /find-a-doctor, weighted, from a fixed seed.

const NAME_PREFIXES = ["sm", "gar", "ng", "pet", "ivan", "jo", "mar", "lee", "kim", "a", "dimitr", "pat"];
const SPECIALIZATIONS = SEED_SPECIALIZATIONS.map((s) => s.slug);
const CONDITIONS = SEED_CONDITIONS.map((c) => c.slug);

function searchMix(count, seed = MIX_SEED) {
  const random = createPrng(seed);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const kinds = [
    // [weight, build]
    [14, () => ({})],
    [4, () => ({ page: 2 + Math.floor(random() * 4) })],
    [14, () => ({ specialization: pick(SPECIALIZATIONS) })],
    [12, () => ({ state: pick(US_STATE_CODES) })],
    [16, () => ({ specialization: pick(SPECIALIZATIONS), state: pick(US_STATE_CODES) })],
    [8, () => ({ condition: pick(CONDITIONS) })],
    [6, () => ({ condition: pick(CONDITIONS), state: pick(US_STATE_CODES) })],
    [8, () => ({ q: pick(NAME_PREFIXES) })],
    [6, () => ({ type: pick(["chat", "video"]), available_today: "true" })],
    [
      6,
      () => ({
        specialization: pick(SPECIALIZATIONS),
        state: pick(US_STATE_CODES),
        type: pick(["chat", "video"]),
        available_today: "true",
      }),
    ],
    [4, () => ({ sort: "name", state: pick(US_STATE_CODES) })],
    [2, () => ({ sort: "name", page: 20 + Math.floor(random() * 80) })],
  ];
  const total = kinds.reduce((sum, [weight]) => sum + weight, 0);
  const list = [];
  for (let i = 0; i < count; i++) {
    let roll = random() * total;
    let at = 0;
    while (roll >= kinds[at][0]) roll -= kinds[at++][0];
    const lang = random() < 0.2 ? "bg" : "en";
    list.push({ ...kinds[at][1](), lang });
  }
  return list;
}

// ---------------------------------------------------------------------------------------------

function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summarize(durations, wallMs) {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1),
    throughput: (durations.length / wallMs) * 1000,
    wallMs,
  };
}

/** Runs `task(item)` over the items one at a time; each duration and the wall time. */
async function timeEach(items, task) {
  const durations = [];
  const started = performance.now();
  for (const item of items) {
    const t0 = performance.now();
    await task(item);
    durations.push(performance.now() - t0);
  }
  return { durations, wallMs: performance.now() - started };
}

/**
 * With --profile DIR: a CPU profile of the API's thread while it serves the searches, written to
 * DIR/search-<database>.cpuprofile (open it in Chrome's DevTools, Performance tab).
 */
async function startProfile() {
  const session = new Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post("Profiler.enable");
  await post("Profiler.start");
  return async (name) => {
    const { profile } = await post("Profiler.stop");
    session.disconnect();
    mkdirSync(PROFILE, { recursive: true });
    const file = join(PROFILE, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`  CPU profile: ${file}`);
  };
}

/**
 * Sends the warm-up, then `paths`, at CONCURRENCY connections from a worker thread; each duration
 * of `paths` and their wall time.
 */
function loadFromWorker(port, warmUp, paths) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./search-load.mjs", import.meta.url), {
      workerData: { port, warmUp, paths, concurrency: CONCURRENCY, visitorHeaders: VISITOR_HEADERS },
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

async function seed(handle, label) {
  const started = performance.now();
  await runMigrations(handle);
  await seedDemoData(handle);
  await seedProviders(handle, {
    count: PROVIDERS,
    onProgress: (done) => {
      if (done % 25_000 === 0 || done === PROVIDERS) process.stdout.write(`  ${label}: ${done} providers\n`);
    },
  });
  // Statistics and the visibility map as autovacuum keeps them on a live database (index-only scans
  // depend on the latter).
  await handle.db.execute(sql`vacuum analyze`);
  return performance.now() - started;
}

async function measure(handle, label) {
  const seedMs = await seed(handle, label);
  const mix = searchMix(SEARCHES);
  const warmUp = searchMix(WARM_UP, MIX_SEED + 1);

  // Direct: the same searches through the provider service, one at a time: on the database (all its
  // SQL: the page, the count, and the specializations/conditions/licences of the page), then on the
  // in-memory copy of the directory the API answers from (ADR 019).
  const repository = createProviderRepository(handle.db);
  const parse = (query) =>
    providerListQuery.parse(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])));
  const parsed = mix.map(parse);
  const onDatabase = createProviderService(repository);
  for (const query of warmUp) await onDatabase.searchAnswer(parse(query));
  const direct = await timeEach(parsed, (query) => onDatabase.searchAnswer(query));

  const directory = createProviderDirectory(repository, { clock: systemClock });
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStarted = performance.now();
  await directory.load();
  const loadMs = performance.now() - loadStarted;
  globalThis.gc?.();
  const directoryBytes = process.memoryUsage().heapUsed - heapBefore;
  await directory.close();
  const inMemory = createProviderService(repository, directory);
  for (const query of warmUp) await inMemory.searchAnswer(parse(query));
  const memory = await timeEach(parsed, (query) => inMemory.searchAnswer(query));
  sampleAnswer ??= await inMemory.searchAnswer(parse({}));

  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-bench-api-"));
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    DATA_DIR: dataDir,
    // Production asks for SMTP or this: the searches send no mail, but the API checks its config.
    MAIL_TO_FILES: "true",
    PUBLIC_API_TOKEN: BENCH_PUBLIC_TOKEN,
    SERVICE_ACCOUNT_EMAIL: "service@ambercare.bench",
    SERVICE_ACCOUNT_PASSWORD: "bench-service-password",
  });
  const app = await buildApp(config, { db: handle });
  await app.listen({ host: "127.0.0.1", port: 0 });
  // As on a running server: the directory is in memory before the searches start.
  await app.providerDirectory.load();
  const { port } = app.server.address();
  const pathOf = (query) => `/api/v1/api/provider?${new URLSearchParams(query)}`;
  try {
    const stopProfile = PROFILE ? await startProfile() : null;
    const http = await loadFromWorker(port, warmUp.map(pathOf), mix.map(pathOf));
    await stopProfile?.(`search-${label}`);
    return {
      label,
      seedMs,
      loadMs,
      directoryBytes,
      http: summarize(http.durations, http.wallMs),
      direct: summarize(direct.durations, direct.wallMs),
      memory: summarize(memory.durations, memory.wallMs),
    };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The ceiling of this machine for the same load: a bare Fastify answering the mix's paths with one
 * stored search answer (its JSON text, as the service writes it: no database, no rate limiter, no
 * search), from the same worker client. Whatever the search costs, the API's figures cannot beat these.
 */
async function measureCeiling(body) {
  const app = Fastify({ logger: false });
  app.get("/api/v1/api/provider", async (_request, reply) => reply.type("application/json").send(body));
  await app.listen({ host: "127.0.0.1", port: 0 });
  const pathOf = (query) => `/api/v1/api/provider?${new URLSearchParams(query)}`;
  try {
    const http = await loadFromWorker(
      app.server.address().port,
      searchMix(WARM_UP, MIX_SEED + 1).map(pathOf),
      searchMix(SEARCHES).map(pathOf),
    );
    return {
      label: `Bare Fastify, stored ${Buffer.byteLength(body)}-byte answer`,
      http: summarize(http.durations, http.wallMs),
    };
  } finally {
    await app.close();
  }
}

async function postgresTarget() {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `ambercare_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      async stop() {
        const again = new pg.Client({ connectionString: serverUrl });
        await again.connect();
        await again.query(`drop database if exists ${name} with (force)`);
        await again.end();
      },
    };
  }
  const cluster = await startThrowawayPostgres();
  if (!cluster) return null;
  return { url: cluster.url, stop: async () => cluster.stop() };
}

let sampleAnswer = null;
const ms = (value) => `${value.toFixed(1)} ms`;
const ms2 = (value) => `${value.toFixed(2)} ms`;
const results = [];

if (ONLY !== "pglite") {
  const target = await postgresTarget();
  if (!target) {
    console.log("PostgreSQL: no server binaries and no TEST_DATABASE_URL/DATABASE_URL; skipped.");
  } else {
    const handle = await createDb({ databaseUrl: target.url });
    try {
      results.push(await measure(handle, "PostgreSQL"));
    } finally {
      await handle.close();
      await target.stop();
    }
  }
}
if (ONLY !== "pg") {
  const dir = mkdtempSync(join(tmpdir(), "ambercare-bench-pglite-"));
  const handle = await createDb({ dataDir: dir });
  try {
    results.push(await measure(handle, "PGlite"));
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ceiling = sampleAnswer ? await measureCeiling(sampleAnswer) : null;

const [load1] = loadavg();
console.log(
  `\nProvider search: ${PROVIDERS} providers, ${SEARCHES} searches (fixed mix, seed ${MIX_SEED}), HTTP at ${CONCURRENCY} concurrent connections from a worker thread; direct = the same searches through the provider service one at a time, on the database (SQL) and on the in-memory directory. ${availableParallelism()} CPUs, load average ${load1.toFixed(1)} at the end (other processes share the machine).\n`,
);
console.log(
  "| Database | Seed | Directory load | Directory heap | HTTP p50 | HTTP p95 | HTTP p99 | HTTP throughput | SQL p50 | SQL p95 | SQL p99 | Memory p50 | Memory p99 |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  console.log(
    `| ${r.label} | ${(r.seedMs / 1000).toFixed(0)} s | ${(r.loadMs / 1000).toFixed(1)} s | ${(r.directoryBytes / 2 ** 20).toFixed(0)} MiB | ${ms(r.http.p50)} | ${ms(r.http.p95)} | ${ms(r.http.p99)} | ${r.http.throughput.toFixed(0)} req/s | ${ms(r.direct.p50)} | ${ms(r.direct.p95)} | ${ms(r.direct.p99)} | ${ms2(r.memory.p50)} | ${ms2(r.memory.p99)} |`,
  );
}
if (ceiling) {
  const c = ceiling.http;
  console.log(
    `\nCeiling of this machine (${ceiling.label}, same client): p50 ${ms(c.p50)}, p95 ${ms(c.p95)}, p99 ${ms(c.p99)}, ${c.throughput.toFixed(0)} req/s.`,
  );
}
