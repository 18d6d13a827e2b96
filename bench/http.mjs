#!/usr/bin/env node
// `npm run http -w @ambercare/bench -- [--seconds 10] [--connections 32] [--db pglite|pg|both]`
// Starts the product as `npm start` does (scripts/lib/stack.mjs) and measures, one after the other
// with autocannon: the provider search and a provider's profile on the API; `/`,
// `/find-a-doctor?specialization=…&state=…` and a logged-in `/my-profile` on the web server; a
// static asset. Each row is shown beside its ceiling, measured in the same run with the same client:
//   - an API answer: a bare Fastify process sending the very bytes the API sent (headers included
//     in the comparison: same Content-Type and Content-Encoding);
//   - a page: the same server sending the page's own HTML as a static file (so what is left is the
//     cost of rendering it);
//   - the static asset: the web server's smallest static file.
// and as a ratio to that ceiling (throughput and p99). The machine is shared and noisy: only the
// ratios of one run say something, never an absolute figure alone.
//
// Both servers' request limits are raised for the run (every request comes from one address); the
// limiters still run and count. `--db both` (the default when PostgreSQL's binaries are installed)
// runs the whole table on PGlite and again on a throwaway PostgreSQL cluster.
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
    verbose: { type: "boolean", default: false },
  },
});
const SECONDS = Number(options.seconds);
const CONNECTIONS = Number(options.connections);
const WARM_UP_SECONDS = 2;
/** The demo patient (seeded on a fresh database) for the logged-in page. */
const PATIENT = { email: "demo@ambercare.example", password: "sunny-meadow-visit" };
/** What a browser sends: the answers are compressed as a visitor gets them. */
const BROWSER = { "accept-encoding": "gzip, deflate, br", "accept-language": "en" };
const SEARCH = "specialization=dermatology&state=CA";

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
  const stack = await startStack({ env, quiet: !options.verbose });
  const rows = [];
  const closers = [];
  try {
    const { webUrl, apiUrl } = stack;
    const load = loadavg()[0];
    const directory = await (await fetch(`${apiUrl}/api/v1/api/provider?${SEARCH}`)).json();
    const slug = directory.data?.[0]?.slug ?? directory.data?.providers?.[0]?.slug;
    if (!slug) throw new Error("the provider search found no provider to open");
    const cookie = await logIn(webUrl);

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
        ceiling: await measure(bare.url),
      });
    };
    const pageRow = async (label, path, headers = {}) => {
      const copy = await staticCopyOf(path, headers);
      rows.push({
        label,
        measured: await measure(`${webUrl}${path}`, headers),
        ceilingLabel: `its HTML as a static file (${Math.round(copy.bytes / 1024)} KB)`,
        ceiling: await measure(copy.url),
      });
    };

    await apiRow("API provider search", `/api/v1/api/provider?${SEARCH}`);
    await apiRow("API provider profile", `/api/v1/api/provider/${slug}`);
    await pageRow("page /", "/");
    await pageRow("page /find-a-doctor?…", `/find-a-doctor?${SEARCH}`);
    await pageRow("page /my-profile (logged in)", "/my-profile", { cookie });
    const smallest = smallestStaticFile(clientDir);
    rows.push({
      label: `static ${largestScript(clientDir).replace(/-[\w-]+\.js$/, "-….js")}`,
      measured: await measure(`${webUrl}${largestScript(clientDir)}`),
      ceilingLabel: `smallest static file ${smallest}`,
      ceiling: await measure(`${webUrl}${smallest}`),
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

function print({ db, load, after, processes, rows }) {
  console.log(
    `\nhttp ${new Date().toISOString().slice(0, 10)}: ${db === "pg" ? "PostgreSQL" : "PGlite"}, ${processes.web} web + ${processes.api} API process(es), ${CONNECTIONS} connections, ${SECONDS} s per figure, load average ${fmt(load, 1)} → ${fmt(after, 1)}`,
  );
  console.log(
    "| What | req/s | p50 | p99 | bytes/answer | failed | Ceiling | ceiling req/s | ceiling p99 | throughput vs ceiling | p99 vs ceiling |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const { label, measured: m, ceilingLabel, ceiling: c } of rows) {
    if (m.total === 0) {
      console.log(
        `| ${label} | no answer within ${SECONDS} s | | | | | ${ceilingLabel} | ${fmt(c.rps)} | ${fmt(c.p99)} ms | 0 % | |`,
      );
      continue;
    }
    console.log(
      `| ${label} | ${fmt(m.rps)} | ${fmt(m.p50)} ms | ${fmt(m.p99)} ms | ${fmt(m.bytes)} | ${m.failed} of ${m.total} | ${ceilingLabel} | ${fmt(c.rps)} | ${fmt(c.p99)} ms | ${pct(m.rps, c.rps)} | ${times(m.p99, c.p99)} |`,
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
