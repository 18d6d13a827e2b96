#!/usr/bin/env node
// `npm run http -w @ambercare/bench -- [--seconds 10] [--connections 32] [--db pglite|pg|both]
//   [--encoding gzip] [--only api,anonymous,logged-in,my-profile,static] [--cpu-prof DIR]`
// Starts the product as `npm start` does (scripts/lib/stack.mjs) and measures, one after the other
// with autocannon: the provider search and a provider's profile on the API; `/`,
// `/find-a-doctor?specialization=…&state=…` and the demo patient's logged-in `/my-profile`,
// `/my-profile/consultations` and one visit's page (a membership and a chat visit are made for it
// first, as a patient would) on the web server; a static asset. Each row is shown beside its
// ceiling, measured in the same run with the same client:
//   - an API answer: a bare Fastify process sending the very bytes the API sent (headers included
//     in the comparison: same Content-Type and Content-Encoding);
//   - a page: the same server sending the page's own HTML as a static file (so what is left is the
//     cost of rendering it); a logged-in page also beside a precompressed static asset of the same
//     compressed size (the page's own compressed bytes, written as a build-time variant before the
//     server starts), which is the cost of sending those bytes and nothing else;
//   - the static asset: the web server's smallest static file.
// and as a ratio to that ceiling (throughput and p99), with `ok`/`over` against the targets where
// the README states one. The machine is shared and noisy: only the ratios of one run say something,
// never an absolute figure alone.
//
// `--encoding` is the Accept-Encoding every request sends (a browser's "gzip, deflate, br" by
// default). `--only` keeps some groups of rows (`my-profile`: the logged-in `/my-profile` row alone). `--cpu-prof DIR` writes CPU profiles of the web and
// API processes there when they stop (open them in Chrome's DevTools, Performance panel).
//
// Both servers' request limits are raised for the run (every request comes from one address); the
// limiters still run and count. `--db both` (the default when PostgreSQL's binaries are installed)
// runs the whole table on PGlite and again on a throwaway PostgreSQL cluster.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import Fastify from "fastify";
import { findPostgresBin, startThrowawayPostgres } from "../scripts/lib/postgres.mjs";
import {
  buildWeb,
  freePort,
  startStack,
  throwawaySecrets,
  webBuildDir,
  webBuildExists,
} from "../scripts/lib/stack.mjs";

const { values: options } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    db: { type: "string" },
    encoding: { type: "string", default: "gzip, deflate, br" },
    only: { type: "string", default: "api,anonymous,logged-in,static" },
    "cpu-prof": { type: "string" },
    // Measures the rows only, no ceiling: a CPU profile (`--cpu-prof`) then holds their work alone.
    "skip-ceilings": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const GROUPS = new Set(options.only.split(",").map((group) => group.trim()));
const SECONDS = Number(options.seconds);
const CONNECTIONS = Number(options.connections);
const WARM_UP_SECONDS = 2;
/** The demo patient (seeded on a fresh database) for the logged-in page. */
const PATIENT = { email: "demo@ambercare.example", password: "sunny-meadow-visit" };
/** What a browser sends: the answers are compressed as a visitor gets them. */
const BROWSER = { "accept-encoding": options.encoding, "accept-language": "en" };
const SEARCH = "specialization=dermatology&state=CA";
/** The demo clinician's provider (packages/contracts/src/demo.ts): the visit of the visit page. */
const VISIT_PROVIDER = "casey-carter-demo";
/**
 * The targets (README, Performance) of the rows that have one: throughput at least `share` of the
 * ceiling and p99 at most `p99` times the ceiling's.
 */
const TARGETS = {
  "API provider profile": { share: 0.7, p99: 2 },
  "logged-in vs precompressed": { share: 0.15, p99: 5 },
  "logged-in vs static HTML": { share: 0.5 },
};
/** Logged-in pages measured against a precompressed asset of their own size: files made before start. */
const LOGGED_IN_PAGES = 3;

const databases = options.db
  ? options.db === "both"
    ? ["pglite", "pg"]
    : [options.db]
  : findPostgresBin()
    ? ["pglite", "pg"]
    : ["pglite"];

/** One autocannon run; answers req/s, p50/p99 (ms), wire bytes per answer and the failures. */
async function measure(url, headers = {}) {
  const run = (duration) =>
    autocannon({ url, connections: CONNECTIONS, duration, headers: { ...BROWSER, ...headers } });
  await run(WARM_UP_SECONDS);
  const result = await run(SECONDS);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : 0,
    failed: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** A ceiling's figures, or none with `--skip-ceilings`. */
function measureCeiling(url) {
  if (options["skip-ceilings"]) return { rps: 0, p50: 0, p99: 0, bytes: 0, failed: 0, total: 0 };
  return measure(url);
}

/** The bytes and headers a URL answers a browser with (body still encoded as sent). */
async function capture(url, headers = {}) {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...BROWSER, ...headers } }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** A bare Fastify process (this one) sending `answer` as it was: the API's ceiling. */
async function bareServer(answer) {
  const app = Fastify({ logger: false });
  const headers = {
    "content-type": answer.headers["content-type"],
    ...(answer.headers["content-encoding"] ? { "content-encoding": answer.headers["content-encoding"] } : {}),
    ...(answer.headers.vary ? { vary: answer.headers.vary } : {}),
  };
  app.get("/*", (_request, reply) => reply.headers(headers).send(answer.body));
  const port = await freePort();
  await app.listen({ host: "127.0.0.1", port });
  return { url: `http://127.0.0.1:${port}/`, close: () => app.close() };
}

/** The cookie header after `response`'s Set-Cookie lines replaced or added cookies of `cookie`. */
function withCookies(cookie, response) {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair]),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    jar.set(pair.slice(0, pair.indexOf("=")), pair);
  }
  return [...jar.values()].join("; ");
}

/** A form posted to the web server as the page would (same origin), redirect not followed. */
function postForm(webUrl, path, cookie, form) {
  return fetch(`${webUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: webUrl, cookie },
    body: new URLSearchParams(form).toString(),
  });
}

/**
 * A month's membership for the logged-in patient through the demo checkout (PAYMENTS=demo), then a
 * chat visit with the demo clinician's provider through the API with the session's own token, as
 * the journeys do: answers the session's cookies (the membership's flags now in them) and the visit.
 */
async function memberWithVisit(webUrl, apiUrl, cookie) {
  const started = await postForm(webUrl, "/membership-trial", cookie, {
    intent: "subscribe",
    interval: "month",
  });
  const location = started.headers.get("location");
  const checkout = location ? new URL(location, webUrl).pathname : null;
  if (!checkout?.startsWith("/checkout/"))
    throw new Error(`the membership did not start (${started.status} → ${location})`);
  const paid = await postForm(webUrl, checkout, withCookies(cookie, started), {
    card_number: "4242 4242 4242 4242",
    expiry: "12/34",
    cvc: "123",
    name: "Dana Demo",
  });
  if (paid.status !== 302 && paid.status !== 303)
    throw new Error(`the demo checkout answered ${paid.status}`);
  const session = withCookies(withCookies(cookie, started), paid);
  const token = /(?:^|; )accessToken=([^;]+)/.exec(session)?.[1];
  const created = await fetch(`${apiUrl}/ambercare/create-consultation`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${decodeURIComponent(token ?? "")}`,
    },
    body: JSON.stringify({
      idempotency_key: randomUUID(),
      type: "chat",
      provider_slug: VISIT_PROVIDER,
      intake: {
        patient: "self",
        gender: "female",
        race: "White",
        ethnicity: "Not Hispanic or Latino",
        state: "CA",
        symptoms: ["Cough"],
        symptoms_started_on: "2026-01-02",
        recent_travel: false,
        transport: [],
      },
      consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    }),
  });
  const answer = await created.json();
  const visitId = answer.data?.id;
  if (!created.ok || !visitId)
    throw new Error(`the visit was not created (${created.status}: ${JSON.stringify(answer).slice(0, 300)})`);
  return { cookie: session, visitId };
}

async function logIn(webUrl) {
  const form = new URLSearchParams({ ...PATIENT, redirectTo: "/my-profile" }).toString();
  const response = await fetch(`${webUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: webUrl },
    body: form,
  });
  if (response.status !== 302 && response.status !== 303) {
    throw new Error(`the demo patient's login answered ${response.status}`);
  }
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/** The smallest file of the client build that the web server sends as it is (no variant). */
function smallestStaticFile(clientDir) {
  let smallest;
  for (const name of readdirSync(clientDir)) {
    const path = join(clientDir, name);
    if (!statSync(path).isFile() || /\.(br|gz)$/.test(name) || name === "sw.js") continue;
    const size = statSync(path).size;
    if (size > 0 && (!smallest || size < smallest.size)) smallest = { name, size };
  }
  if (!smallest) throw new Error(`no static file in ${clientDir}`);
  return `/${smallest.name}`;
}

/** The largest script of the build: the static asset row (sent as its brotli variant). */
function largestScript(clientDir) {
  const assets = join(clientDir, "assets");
  const scripts = readdirSync(assets)
    .filter((name) => name.endsWith(".js"))
    .map((name) => ({ name, size: statSync(join(assets, name)).size }))
    .sort((a, b) => b.size - a.size);
  if (scripts.length === 0) throw new Error("no script in the build");
  return `/assets/${scripts[0].name}`;
}

async function runTable(db) {
  const postgres = db === "pg" ? await startThrowawayPostgres() : null;
  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-bench-http-"));
  const [port, apiPort] = [await freePort(), await freePort()];
  const env = {
    PORT: String(port),
    API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    RATE_LIMIT_MAX: "100000000",
    RATE_LIMIT_ADDRESS_MAX: "100000000",
    WEB_RATE_LIMIT_MAX: "100000000",
    WEB_ADDRESS_RATE_LIMIT_MAX: "100000000",
    SEED_DEMO_PATIENT: "true",
    MAIL_TO_FILES: "true",
    ...throwawaySecrets("bench"),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  const clientDir = join(webBuildDir(), "client");
  const pageCopies = [];
  // The logged-in pages' precompressed twins: a file and its gzip variant must exist when the web
  // server starts (it lists the variants once); their bytes are written once the pages are known.
  const twins = Array.from({ length: LOGGED_IN_PAGES }, (_, i) => {
    const name = `bench-twin-${i}-${process.pid}.html`;
    for (const file of [name, `${name}.gz`]) {
      writeFileSync(join(clientDir, file), "");
      pageCopies.push(join(clientDir, file));
    }
    return name;
  });
  const cpuProf = options["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${options["cpu-prof"]}`] : [];
  const stack = await startStack({
    env,
    quiet: !options.verbose,
    apiNodeFlags: cpuProf,
    webNodeFlags: cpuProf,
  });
  const rows = [];
  const closers = [];
  try {
    const { webUrl, apiUrl } = stack;
    const load = loadavg()[0];
    const directory = await (await fetch(`${apiUrl}/api/v1/api/provider?${SEARCH}`)).json();
    const slug = directory.data?.[0]?.slug ?? directory.data?.providers?.[0]?.slug;
    if (!slug) throw new Error("the provider search found no provider to open");
    const loggedIn = GROUPS.has("logged-in")
      ? await memberWithVisit(webUrl, apiUrl, await logIn(webUrl))
      : { cookie: await logIn(webUrl), visitId: null };
    const { cookie } = loggedIn;

    /** A page's ceiling: its own HTML, written as a static file the same server sends. */
    const staticCopyOf = async (path, headers) => {
      const page = await capture(`${webUrl}${path}`, { ...headers, "accept-encoding": "identity" });
      if (page.status !== 200) throw new Error(`${path} answered ${page.status}`);
      const name = `bench-copy-${pageCopies.length}-${process.pid}.html`;
      writeFileSync(join(clientDir, name), page.body);
      pageCopies.push(join(clientDir, name));
      return { url: `${webUrl}/${name}`, bytes: page.body.length };
    };
    const apiRow = async (label, path) => {
      const answer = await capture(`${apiUrl}${path}`);
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
      const bare = await bareServer(answer);
      closers.push(bare.close);
      rows.push({
        label,
        measured: await measure(`${apiUrl}${path}`),
        ceilingLabel: "bare Fastify, same answer",
        ceiling: await measureCeiling(bare.url),
        target: label,
      });
    };
    const pageRow = async (label, path, headers = {}) => {
      const copy = await staticCopyOf(path, headers);
      rows.push({
        label,
        measured: await measure(`${webUrl}${path}`, headers),
        ceilingLabel: `its HTML as a static file (${Math.round(copy.bytes / 1024)} KB)`,
        ceiling: await measureCeiling(copy.url),
      });
    };

    /**
     * A logged-in page measured once, beside two ceilings: its HTML as a static file, and a
     * precompressed file of its own compressed bytes (the twin), both sent by the same server.
     */
    const loggedInRow = async (label, path) => {
      const copy = await staticCopyOf(path, { cookie });
      const sent = await capture(`${webUrl}${path}`, { cookie });
      if (sent.status !== 200) throw new Error(`${path} answered ${sent.status}`);
      const encoding = sent.headers["content-encoding"] ?? "identity";
      const twin = twins.shift();
      writeFileSync(
        join(clientDir, twin),
        (await capture(`${webUrl}${path}`, { cookie, "accept-encoding": "identity" })).body,
      );
      writeFileSync(join(clientDir, `${twin}.gz`), sent.body);
      const measured = await measure(`${webUrl}${path}`, { cookie });
      const twinBytes = Math.round(sent.body.length / 1024);
      rows.push({
        label,
        measured,
        ceilingLabel: `its HTML as a static file (${Math.round(copy.bytes / 1024)} KB)`,
        ceiling: await measureCeiling(copy.url),
        target: "logged-in vs static HTML",
      });
      rows.push({
        label,
        measured,
        ceilingLabel: `precompressed static asset of its size (${twinBytes} KB ${encoding})`,
        ceiling: await measureCeiling(`${webUrl}/${twin}`),
        target: encoding === "gzip" ? "logged-in vs precompressed" : undefined,
      });
    };

    if (GROUPS.has("api")) {
      await apiRow("API provider search", `/api/v1/api/provider?${SEARCH}`);
      await apiRow("API provider profile", `/api/v1/api/provider/${slug}`);
    }
    if (GROUPS.has("anonymous")) {
      await pageRow("page /", "/");
      await pageRow("page /find-a-doctor?…", `/find-a-doctor?${SEARCH}`);
    }
    if (GROUPS.has("logged-in") || GROUPS.has("my-profile")) {
      await loggedInRow("page /my-profile (logged in)", "/my-profile");
    }
    if (GROUPS.has("logged-in")) {
      await loggedInRow("page /my-profile/consultations (logged in)", "/my-profile/consultations");
      await loggedInRow("page of a visit (logged in)", `/my-profile/consultations/${loggedIn.visitId}`);
    }
    if (!GROUPS.has("static")) return { db, load, after: loadavg()[0], processes: stack.processes, rows };
    const smallest = smallestStaticFile(clientDir);
    rows.push({
      label: `static ${largestScript(clientDir).replace(/-[\w-]+\.js$/, "-….js")}`,
      measured: await measure(`${webUrl}${largestScript(clientDir)}`),
      ceilingLabel: `smallest static file ${smallest}`,
      ceiling: await measureCeiling(`${webUrl}${smallest}`),
    });
    return { db, load, after: loadavg()[0], processes: stack.processes, rows };
  } finally {
    for (const close of closers) await close();
    for (const path of pageCopies) rmSync(path, { force: true });
    await stack.stop();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (a, b) => (b > 0 ? `${fmt((100 * a) / b)} %` : "–");
const times = (a, b) => (b > 0 ? `${fmt(a / b, 1)}×` : "–");

/** Whether a row meets its target (TARGETS): "ok", or what is over; empty without a target. */
function verdict(target, m, c) {
  if (!target || c.total === 0) return "";
  const over = [];
  if (target.share !== undefined && !(m.rps >= target.share * c.rps))
    over.push(`< ${fmt(100 * target.share)} %`);
  if (target.p99 !== undefined && !(m.p99 <= target.p99 * c.p99)) over.push(`p99 > ${target.p99}×`);
  return over.length === 0 ? "ok" : `over: ${over.join(", ")}`;
}

function print({ db, load, after, processes, rows }) {
  console.log(
    `\nhttp ${new Date().toISOString().slice(0, 10)}: ${db === "pg" ? "PostgreSQL" : "PGlite"}, ${processes.web} web + ${processes.api} API process(es), ${CONNECTIONS} connections, ${SECONDS} s per figure, load average ${fmt(load, 1)} → ${fmt(after, 1)}`,
  );
  console.log(
    "| What | req/s | p50 | p99 | bytes/answer | failed | Ceiling | ceiling req/s | ceiling p99 | throughput vs ceiling | p99 vs ceiling | target |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const { label, measured: m, ceilingLabel, ceiling: c, target } of rows) {
    if (m.total === 0) {
      console.log(
        `| ${label} | no answer within ${SECONDS} s | | | | | ${ceilingLabel} | ${fmt(c.rps)} | ${fmt(c.p99)} ms | 0 % | | ${target ? "over" : ""} |`,
      );
      continue;
    }
    console.log(
      `| ${label} | ${fmt(m.rps)} | ${fmt(m.p50)} ms | ${fmt(m.p99)} ms | ${fmt(m.bytes)} | ${m.failed} of ${m.total} | ${ceilingLabel} | ${fmt(c.rps)} | ${fmt(c.p99)} ms | ${pct(m.rps, c.rps)} | ${times(m.p99, c.p99)} | ${verdict(TARGETS[target], m, c)} |`,
    );
  }
}

if (!webBuildExists()) await buildWeb();
if (!existsSync(join(webBuildDir(), "client"))) throw new Error("the web build has no client directory");
let failed = false;
for (const db of databases) {
  try {
    print(await runTable(db));
  } catch (error) {
    failed = true;
    console.error(`http bench on ${db}: ${error instanceof Error ? error.message : error}`);
  }
}
process.exit(failed ? 1 : 0);
