#!/usr/bin/env node
// `node --import tsx scripts/multi-host-test.mjs [--messages 40] [--keep-logs]` (root, Linux): Ambercare
// on two hosts behind a balancer on one PostgreSQL, and one host stopped in the middle of a visit.
//
// The hosts are network namespaces on a bridge of their own (amb-br0, 10.77.0.0/24):
//   amb-db    10.77.0.2   PostgreSQL (a throwaway cluster, scripts/lib/postgres.mjs)
//   amb-app1  10.77.0.11  one API process (127.0.0.1:4000) and one web server (:3000)
//   amb-app2  10.77.0.12  the same
//   nginx in the root namespace on 10.77.0.1:8080 (PUBLIC_URL), round robin over the two web
//   servers, `/live` upgraded to WebSocket (the config is README "Running on several hosts").
// A patient and their clinician are in a chat visit (written into the database with their sessions,
// as bench/live.mjs does); each has the page's own live client (apps/web/app/features/live/
// live-client.ts) on `/live` through the balancer, and writes to the thread through the web's
// `/visit-chat/:id` with the session's cookies and the site's Origin, as the page's script does,
// sending again with the same client_id when no answer came (as the page's Retry does). Both
// sockets are on one host; a third of the way through, that host's processes are killed (SIGKILL).
// Asserted: both sockets are back (reconnected and resumed after their last event) within 5 s;
// every message reaches both sides exactly once and in the thread's order; every message the site
// answered 2xx is in the thread afterwards. Prints the figures either way.
//
// Then a video visit (with --stop kill, unless --skip-video): the two sides in Chromium (fake camera
// and microphone) in a call set up through the host still running, while the stopped host comes back;
// then that host is killed in the middle of the call. Asserted: the call goes on (the media is
// peer-to-peer: both sides keep decoding the other's video, and both call screens stay), and the
// signalling has moved to the host that came back: the clinician hangs up and the patient's page
// ends the call within 10 s.
//
// Only its own: the namespaces, the bridge and every process it starts are removed on exit, also on
// failure or Ctrl-C. Traffic goes only to the namespaces' addresses.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import { createDb } from "@ambercare/db/client";
import { accessTokens, clinicians, consultations, providers, users } from "@ambercare/db/schema";
import { chromium } from "playwright-core";
import { enableKnownSecondFactor } from "../apps/api/src/modules/accounts/second-factor-service.ts";
import { generateToken, hashToken } from "../apps/api/src/modules/accounts/tokens.ts";
import { createLiveClient } from "../apps/web/app/features/live/live-client.ts";
import { waitForHydration } from "../e2e/account-steps.ts";
import {
  inboundMedia,
  keepPeerConnections,
  startAndJoin,
  VIDEO_CALL_BROWSER_FLAGS,
} from "../e2e/video-call-steps.ts";
import { CHROMIUM_FLAGS, ensureChromium } from "./lib/chromium.mjs";
import { startThrowawayPostgres } from "./lib/postgres.mjs";
import { API_DIR, throwawaySecrets, WEB_DIR, webBuildExists } from "./lib/stack.mjs";

// The web app's own ws (the repository's root holds an older one, for Lighthouse).
const { WebSocket } = createRequire(join(WEB_DIR, "package.json"))("ws");

const { values: options } = parseArgs({
  options: {
    messages: { type: "string", default: "40" },
    stop: { type: "string", default: "kill" },
    verbose: { type: "boolean", default: false },
    "skip-video": { type: "boolean", default: false },
  },
});
/** Messages each side writes; the host stops after a third of them. */
const MESSAGES = Number(options.messages);
/**
 * How the host stops: `kill` (its processes get SIGKILL: a crash, an OOM kill; the kernel closes
 * their connections) or `link` (its network link goes down: a power cut, a cable; nothing is closed,
 * peers find out by their timeouts). Only `kill` is held to the 5 s limit (README).
 */
const STOP = options.stop;
if (STOP !== "kill" && STOP !== "link") {
  console.error("--stop is kill or link");
  process.exit(2);
}
const SEND_GAP_MS = 120;
const SWITCH_LIMIT_MS = 5_000;
/** A POST without an answer by then is sent again (same client_id). */
const SEND_TIMEOUT_MS = 3_000;
const SEND_GIVE_UP_MS = 15_000;

const NET = "10.77.0";
const BRIDGE = "amb-br0";
const BALANCER = `${NET}.1`;
const SITE = `http://${BALANCER}:8080`;
const DB_HOST = { ns: "amb-db", address: `${NET}.2` };
const APP_HOSTS = [
  { ns: "amb-app1", address: `${NET}.11` },
  { ns: "amb-app2", address: `${NET}.12` },
];
const NAMESPACES = [DB_HOST.ns, ...APP_HOSTS.map((h) => h.ns)];
const WEB_PORT = 3000;
const API_PORT = 4000;

const secrets = throwawaySecrets("severalhosts");
const workDir = mkdtempSync(join(tmpdir(), "ambercare-multi-host-"));
const started = Date.now();
const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const log = (line) => console.log(`[multi-host ${since()}] ${line}`);

const sh = (command, args) => execFileSync(command, args, { encoding: "utf8", stdio: "pipe" });
const shQuiet = (command, args) => spawnSync(command, args, { encoding: "utf8", stdio: "pipe" });

if (process.getuid?.() !== 0 || process.platform !== "linux") {
  console.error("multi-host-test: needs root on Linux (network namespaces, a bridge, nginx)");
  process.exit(1);
}
if (!webBuildExists()) {
  console.error("multi-host-test: run `npm run build` first (the web servers run the built app)");
  process.exit(1);
}
if (shQuiet("nginx", ["-v"]).status !== 0) {
  console.error("multi-host-test: nginx is not installed (apt-get install -y nginx)");
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Clean-up: every process this run started, the namespaces and the bridge.

/** @type {import("node:child_process").ChildProcess[]} */
const children = [];
let postgres = null;
let nginx = null;
let cleanedUp = false;

function removeTopology() {
  for (const ns of NAMESPACES) {
    if (shQuiet("ip", ["netns", "pids", ns]).status !== 0) continue;
    // Whatever still runs in one of this test's namespaces was started by this test.
    for (const pid of sh("ip", ["netns", "pids", ns]).split(/\s+/).filter(Boolean)) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {}
    }
    shQuiet("ip", ["netns", "del", ns]);
    // The kernel frees a namespace (and the veth in it) a while after the last process left it:
    // the pair goes now, so a run right after this one finds the names free.
    shQuiet("ip", ["link", "del", ns]);
  }
  shQuiet("ip", ["link", "del", BRIDGE]);
}

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
/** Whether `pid` still runs: an exited child stays a zombie until the event loop reaps it. */
function running(pid) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function cleanUp() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    if (child === nginx) {
      // SIGTERM: the master stops its workers, then itself (SIGKILL would leave the workers).
      child.kill("SIGTERM");
      for (let i = 0; i < 30 && running(child.pid); i++) sleepSync(100);
    } else child.kill("SIGKILL");
  }
  try {
    postgres?.stop();
  } catch {}
  removeTopology();
  rmSync(workDir, { recursive: true, force: true });
}
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

// ---------------------------------------------------------------------------------------------
// Topology.

function buildTopology() {
  // A run that was killed may have left its namespaces: they are this test's, so they go.
  removeTopology();
  sh("ip", ["link", "add", BRIDGE, "type", "bridge"]);
  sh("ip", ["addr", "add", `${BALANCER}/24`, "dev", BRIDGE]);
  sh("ip", ["link", "set", BRIDGE, "up"]);
  for (const { ns, address } of [DB_HOST, ...APP_HOSTS]) {
    sh("ip", ["netns", "add", ns]);
    sh("ip", ["link", "add", ns, "type", "veth", "peer", "name", "eth0", "netns", ns]);
    sh("ip", ["link", "set", ns, "master", BRIDGE, "up"]);
    sh("ip", ["-n", ns, "addr", "add", `${address}/24`, "dev", "eth0"]);
    sh("ip", ["-n", ns, "link", "set", "eth0", "up"]);
    sh("ip", ["-n", ns, "link", "set", "lo", "up"]);
  }
}

/** Runs `node args…` inside `ns`; its output is kept in the work directory (and shown with --verbose). */
function startInNamespace(ns, name, args, { cwd, env }) {
  const child = spawn("ip", ["netns", "exec", ns, process.execPath, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const lines = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk) => {
      for (const line of chunk.split("\n").filter(Boolean)) {
        lines.push(line);
        if (lines.length > 200) lines.shift();
        if (options.verbose) process.stdout.write(`[${name}] ${line}\n`);
      }
    });
  }
  child.lines = lines;
  child.label = name;
  return child;
}

/** Polls `check` until it is true; fails with the child's last lines when it exits first. */
async function waitUntil(what, check, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(
        `${what}: the process exited (${child.exitCode ?? child.signalCode}):\n${child.lines.join("\n")}`,
      );
    }
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(
    `${what}: not ready within ${timeoutMs / 1000} s${child ? `:\n${child.lines.join("\n")}` : ""}`,
  );
}

/** GET /healthz inside the namespace (the API listens on its loopback only). */
function apiAnswers(ns) {
  const probe = `exec 3<>/dev/tcp/127.0.0.1/${API_PORT} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -c 12 <&3`;
  const result = shQuiet("ip", ["netns", "exec", ns, "bash", "-c", probe]);
  return result.status === 0 && result.stdout.includes("200");
}

async function webAnswers(address) {
  try {
    const response = await fetch(`http://${address}:${WEB_PORT}/healthz`, {
      signal: AbortSignal.timeout(2_000),
    });
    return response.ok;
  } catch {
    return false;
  }
}

function hostEnv(host) {
  const dataDir = join(workDir, host.ns);
  return {
    ...secrets,
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: postgres.url,
    API_PORT: String(API_PORT),
    API_URL: `http://127.0.0.1:${API_PORT}`,
    PORT: String(WEB_PORT),
    PUBLIC_URL: SITE,
    LOG_LEVEL: "warn",
    MAIL_TO_FILES: "true",
    // The one visitor of this test, on one address, makes far more calls than a person.
    RATE_LIMIT_MAX: "100000",
    RATE_LIMIT_ADDRESS_MAX: "100000",
    WEB_RATE_LIMIT_MAX: "100000",
    WEB_ADDRESS_RATE_LIMIT_MAX: "100000",
  };
}

/** The host's API, answering on its loopback: the web server of its own host is its only client. */
async function startApi(host) {
  const api = startInNamespace(host.ns, `${host.ns} api`, ["--import", "tsx", "src/server.ts"], {
    cwd: API_DIR,
    env: { ...hostEnv(host), TRUST_PROXY: "false" },
  });
  host.processes = [api];
  await waitUntil(`${host.ns} API`, () => apiAnswers(host.ns), api, 120_000);
}

/** The host's web server, which the balancer reaches, so it believes the balancer's X-Forwarded-For. */
function startWeb(host) {
  const web = startInNamespace(host.ns, `${host.ns} web`, ["server.mjs"], {
    cwd: WEB_DIR,
    env: { ...hostEnv(host), TRUST_PROXY: BALANCER },
  });
  host.processes.push(web);
  return web;
}

async function startHost(host) {
  await startApi(host);
  return startWeb(host);
}

/** The balancer's configuration: README "Running on several hosts" shows the same. */
function nginxConfig(dir) {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  # Every proxy_set_header is at the server level: a location with one of its own inherits none
  # of the server's (Host, X-Forwarded-For…). A WebSocket upgrade is asked for where the browser asks.
  map $http_upgrade $connection_upgrade {
    default upgrade;
    ""      "";
  }

  upstream ambercare_web {
${APP_HOSTS.map((h) => `    server ${h.address}:${WEB_PORT} max_fails=1 fail_timeout=10s;`).join("\n")}
    keepalive 16;
  }

  server {
    listen ${BALANCER}:8080;
    client_max_body_size 20m;

    proxy_http_version 1.1;
    # The Host the browser sent, port included: a form post whose Origin names another host:port is
    # refused as cross-site (400), and $host drops the port.
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header Upgrade $http_upgrade;
    # "" for a request that is no upgrade: the connections to the web servers are kept alive.
    proxy_set_header Connection $connection_upgrade;
    proxy_connect_timeout 2s;
    # A host that refuses or fails to connect is skipped; a request already sent is not sent again
    # (a POST may have been done): the page sends it again with the same client_id.
    proxy_next_upstream error timeout http_502 http_503 http_504;
    proxy_next_upstream_tries 2;

    location / {
      proxy_pass http://ambercare_web;
      # This test's own: which host answered (the video part waits until the balancer uses the host
      # that came back). Not in README's configuration.
      add_header X-Test-Upstream $upstream_addr always;
    }

    # The pages' live events: a WebSocket held for the page's life. The web server pings every 20 s,
    # so a 60 s read timeout never cuts a live socket.
    location = /live {
      proxy_read_timeout 60s;
      proxy_send_timeout 60s;
      proxy_buffering off;
      proxy_pass http://ambercare_web;
    }
  }
}
`;
}

function startNginx() {
  const dir = join(workDir, "nginx");
  sh("mkdir", ["-p", dir]);
  const config = join(dir, "nginx.conf");
  writeFileSync(config, nginxConfig(dir));
  sh("nginx", ["-t", "-q", "-c", config, "-p", dir]);
  nginx = spawn("nginx", ["-c", config, "-p", dir, "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(nginx);
  nginx.lines = [];
  nginx.stderr.setEncoding("utf8").on("data", (chunk) => nginx.lines.push(chunk));
  return nginx;
}

// ---------------------------------------------------------------------------------------------
// The visit: a patient and a clinician with their sessions, written into the database.

async function seedVisit() {
  const handle = await createDb({ databaseUrl: postgres.url });
  const { db } = handle;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_S * 1000);
  try {
    const [patient] = await db
      .insert(users)
      .values({
        email: "multi-host-patient@ambercare.example",
        passwordHash: "unusable",
        firstName: "Pat",
        lastName: "Several",
        emailConfirmedAt: now,
      })
      .returning({ id: users.id });
    const [clinicianUser] = await db
      .insert(users)
      .values({
        email: "multi-host-clinician@ambercare.example",
        passwordHash: "unusable",
        firstName: "Cleo",
        lastName: "Several",
        emailConfirmedAt: now,
        role: "clinician",
      })
      .returning({ id: users.id });
    const [provider] = await db
      .insert(providers)
      .values({
        slug: "multi-host-provider",
        firstName: "Cleo",
        lastName: "Several",
        credentials: "MD",
        bioEn: "The provider of the several-hosts test.",
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
    const [visit, videoVisit] = await db
      .insert(consultations)
      .values(
        [
          { type: "chat", status: "in_progress", startedAt: now },
          // Accepted: the clinician starts its call from the workspace.
          { type: "video", status: "accepted" },
        ].map((fields) => ({
          userId: patient.id,
          providerId: provider.id,
          state: "CA",
          acceptedAt: now,
          ...fields,
        })),
      )
      .returning({ id: consultations.id });
    /** The web session's cookies of an account: a main and a care token, as a login sets them. */
    const session = async (userId) => {
      const main = generateToken();
      const care = generateToken();
      await db.insert(accessTokens).values(
        [
          ["main", main],
          ["care", care],
        ].map(([surface, token]) => ({
          tokenHash: hashToken(token),
          userId,
          surface,
          createdAt: now,
          expiresAt,
          lastUsedAt: now,
        })),
      );
      return `isLoggedIn=true; accessToken=${main}; userID=${userId}; fltAccessToken=${care}; fltUserId=${userId}`;
    };
    return {
      visitId: visit.id,
      videoVisitId: videoVisit.id,
      patient: { side: "patient", cookie: await session(patient.id) },
      clinician: { side: "clinician", cookie: await session(clinicianUser.id) },
    };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// One side of the visit: its live client and its writes.

/** The page's live client on `/live` through the balancer, with the side's cookies. */
function openLive(side, visitId) {
  const view = { side: side.side, received: [], states: [], closedAt: null, connectedAt: null };
  const client = createLiveClient({
    url: `${SITE.replace(/^http/, "ws")}/live`,
    openSocket: (url) => new WebSocket(url, { headers: { cookie: side.cookie, origin: SITE } }),
  });
  client.onState((state) => {
    view.states.push({ state, at: performance.now() });
    if (state === "connected") view.connectedAt = performance.now();
  });
  client.subscribe(["visit.message"], (event) => {
    if (event.payload.consultation_id !== visitId || event.payload.change !== "created") return;
    view.received.push({ id: event.id, messageId: event.payload.message_id, seq: event.payload.seq });
  });
  view.client = client;
  return view;
}

/**
 * Writes `count` messages as the page does (POST /visit-chat/:id, intent send), one after another;
 * one without a 2xx answer is sent again with the same client_id until it gets one.
 */
async function writeMessages(side, visitId, count, onSent) {
  const sent = [];
  for (let i = 0; i < count; i++) {
    const message = {
      clientId: randomUUID(),
      body: `${side.side} ${i + 1}`,
      attempts: 0,
      acknowledged: null,
    };
    sent.push(message);
    const giveUpAt = Date.now() + SEND_GIVE_UP_MS;
    while (message.acknowledged === null && Date.now() < giveUpAt) {
      message.attempts += 1;
      message.lastAttemptAt = Date.now();
      try {
        const response = await fetch(`${SITE}/visit-chat/${visitId}`, {
          method: "POST",
          headers: { cookie: side.cookie, origin: SITE, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            intent: "send",
            side: side.side,
            body: message.body,
            client_id: message.clientId,
          }),
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        const text = await response.text();
        if (response.ok) message.acknowledged = JSON.parse(text).message;
        else {
          message.lastError = `HTTP ${response.status}`;
          if (options.verbose) log(`${side.side} ${i + 1}: ${response.status} ${text.slice(0, 200)}`);
        }
      } catch (error) {
        message.lastError = error instanceof Error ? error.message : String(error);
      }
      if (message.acknowledged === null) await new Promise((r) => setTimeout(r, 200));
    }
    onSent(i + 1);
    await new Promise((r) => setTimeout(r, SEND_GAP_MS));
  }
  return sent;
}

/** The thread as the patient's page reads it after the run (GET /visit-chat/:id). */
async function readThread(side, visitId) {
  const response = await fetch(`${SITE}/visit-chat/${visitId}?side=${side.side}`, {
    headers: { cookie: side.cookie },
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`reading the thread answered ${response.status}`);
  return (await response.json()).messages;
}

/** Established connections from the balancer to each host's web server (`ss` in its namespace). */
function balancerConnections() {
  return APP_HOSTS.map((host) => {
    const out = shQuiet("ip", [
      "netns",
      "exec",
      host.ns,
      "ss",
      "-Htn",
      "state",
      "established",
      `( sport = :${WEB_PORT} )`,
    ]).stdout;
    return out.split("\n").filter((line) => line.includes(BALANCER)).length;
  });
}

async function waitConnected(view, timeoutMs) {
  await waitUntil(`the ${view.side}'s live socket`, () => view.client.state === "connected", null, timeoutMs);
}

// ---------------------------------------------------------------------------------------------
// The video visit across a host's stop.

/** A browser context with the side's session cookies on the site, its peer connections kept. */
async function videoSide(browser, side) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  await context.addCookies(
    side.cookie.split("; ").map((pair) => {
      const [name, ...value] = pair.split("=");
      return { name, value: value.join("="), url: SITE };
    }),
  );
  await keepPeerConnections(context);
  return context.newPage();
}

/**
 * The call set up through `survivor` (the only host up) while `stopped` starts again; then
 * `survivor` is killed mid-call. Fills figures.video; pushes what failed.
 */
async function videoAcrossAHostStop(visit, survivor, stopped) {
  const video = { patient: {}, clinician: {} };
  figures.video = video;
  // The API of the stopped host starts while the call is set up: it answers nobody until its web
  // server runs, so every page and socket of the call goes to `survivor`.
  const apiBack = startApi(stopped);
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    // The balancer's plain-HTTP address stands for the clinic's https:// one: the camera is only
    // for a secure page.
    args: [
      ...CHROMIUM_FLAGS,
      ...VIDEO_CALL_BROWSER_FLAGS,
      `--unsafely-treat-insecure-origin-as-secure=${SITE}`,
    ],
  });
  try {
    const patient = await videoSide(browser, visit.patient);
    const doctor = await videoSide(browser, visit.clinician);
    const pages = { patient, clinician: doctor };
    await doctor.goto(`${SITE}/console/visits/${visit.videoVisitId}`);
    await patient.goto(`${SITE}/my-profile/consultations/${visit.videoVisitId}`);
    await Promise.all([waitForHydration(doctor), waitForHydration(patient)]);
    const callAt = performance.now();
    await startAndJoin(patient, doctor);
    const frames = async () => {
      const [p, c] = await Promise.all([inboundMedia(patient), inboundMedia(doctor)]);
      return { patient: p?.frames ?? 0, clinician: c?.frames ?? 0 };
    };
    /** How many peer connections the page has made (the journeys' init script keeps them). */
    const peersMade = (page) => page.evaluate(() => window.__journeyPeers?.length ?? 0);
    await waitUntil(
      "video frames on both sides",
      async () => {
        const now = await frames();
        return now.patient > 0 && now.clinician > 0;
      },
      null,
      30_000,
    );
    video.firstFramesAfterMs = Math.round(performance.now() - callAt);
    log(`video call up through ${survivor.ns} (frames on both sides after ${video.firstFramesAfterMs} ms)`);

    // The stopped host comes back: its web server answers, and the balancer sends it requests again
    // (it skips a failed server for fail_timeout, 10 s).
    await apiBack;
    const web = startWeb(stopped);
    await waitUntil(`${stopped.ns} web`, () => webAnswers(stopped.address), web, 60_000);
    // Until then the balancer keeps skipping it (fail_timeout 10 s after the last failed try, made
    // by the pages' requests while it was down): a host killed before that leaves no live upstream.
    await waitUntil(
      `the balancer using ${stopped.ns} again`,
      async () => {
        const answer = await fetch(`${SITE}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(
          () => null,
        );
        return answer?.headers.get("x-test-upstream")?.startsWith(`${stopped.address}:`) === true;
      },
      null,
      20_000,
    );
    log(`${stopped.ns} is back; killing ${survivor.ns} in the middle of the call`);

    const atKill = await frames();
    const peersAtKill = { patient: await peersMade(patient), clinician: await peersMade(doctor) };
    for (const child of survivor.processes) child.kill("SIGKILL");
    await new Promise((r) => setTimeout(r, 6_000));
    const after = await frames();
    for (const side of ["patient", "clinician"]) {
      video[side].framesAtKill = atKill[side];
      video[side].framesIn6sAfter = after[side] - atKill[side];
      video[side].callScreen = await pages[side].getByTestId("call-screen").isVisible();
      video[side].newConnections = (await peersMade(pages[side])) - peersAtKill[side];
      if (video[side].newConnections > 0)
        failures.push(
          `the ${side} set the call up again (a new peer connection) when ${survivor.ns} was killed`,
        );
      if (video[side].framesIn6sAfter < 30)
        failures.push(
          `the ${side} decoded ${video[side].framesIn6sAfter} video frames in the 6 s after ${survivor.ns} was killed`,
        );
      if (!video[side].callScreen)
        failures.push(`the ${side}'s call screen closed when ${survivor.ns} was killed`);
    }

    // The signalling goes through the host that came back: the clinician hangs up, the patient's page
    // is told through its live socket, now on that host, and ends the call.
    const hungUpAt = performance.now();
    await doctor.getByRole("button", { name: "Leave the call" }).click();
    try {
      await patient.waitForURL(/\/call-ended/, { timeout: 10_000 });
      video.hangUpReachedPatientMs = Math.round(performance.now() - hungUpAt);
    } catch {
      failures.push("the patient's page was not told that the clinician hung up after the host stop");
      // Whether the balancer found a host to send the pages to is in its log (removed on exit).
      console.log(
        "The balancer's last log lines:\n" +
          readFileSync(join(workDir, "nginx", "error.log"), "utf8")
            .split("\n")
            .slice(-30)
            .join("\n"),
      );
    }
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------

const failures = [];
const figures = {};
try {
  buildTopology();
  log("namespaces amb-db, amb-app1, amb-app2 on bridge amb-br0 (10.77.0.0/24)");
  postgres = await startThrowawayPostgres({
    netns: DB_HOST.ns,
    host: DB_HOST.address,
    allowFrom: `${NET}.0/24`,
  });
  if (!postgres)
    throw new Error("PostgreSQL's server binaries are not installed (apt-get install postgresql)");
  log(`PostgreSQL at ${postgres.url}`);
  // The first API migrates the empty database; the second starts on it once it is done.
  const webs = [];
  for (const host of APP_HOSTS) webs.push(await startHost(host));
  for (const [i, host] of APP_HOSTS.entries()) {
    await waitUntil(`${host.ns} web`, () => webAnswers(host.address), webs[i], 60_000);
  }
  log("both hosts answer (API on each host's loopback, web on :3000)");
  startNginx();
  await waitUntil(
    "nginx",
    async () => {
      try {
        return (await fetch(`${SITE}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
      } catch {
        return false;
      }
    },
    nginx,
    10_000,
  );
  log(`nginx at ${SITE}`);
  const visit = await seedVisit();

  // Both sockets on one host: the patient's first, then the clinician's after one request in between
  // (round robin), again until it lands on the same host. Where a socket went is the host that has
  // one more connection from the balancer once it is open (kept-alive HTTP connections stay put).
  const openOn = async (side) => {
    const before = balancerConnections();
    const view = openLive(side, visit.visitId);
    await waitConnected(view, 10_000);
    const after = balancerConnections();
    return { view, host: after.findIndex((n, i) => n > before[i]) };
  };
  const { view: patient, host: target } = await openOn(visit.patient);
  if (target < 0) throw new Error("the patient's socket is on no host");
  let clinician;
  await fetch(`${SITE}/healthz`);
  for (let attempt = 0; attempt < 4 && !clinician; attempt++) {
    const opened = await openOn(visit.clinician);
    if (opened.host === target) clinician = opened.view;
    else {
      opened.view.client.close();
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  if (!clinician) throw new Error("the clinician's socket never landed on the patient's host");
  const stopped = APP_HOSTS[target];
  log(`both live sockets on ${stopped.ns}; writing ${MESSAGES} messages a side`);

  let killedAt = null;
  let killedAtWall = null;
  const stopAt = Math.max(2, Math.round(MESSAGES / 3));
  let stopping = null;
  const onSent = (n) => {
    if (n !== stopAt || stopping !== null) return;
    stopping = (async () => {
      // Let the last writes' events arrive first, so each socket has an event to resume after.
      await new Promise((r) => setTimeout(r, 300));
      for (const side of [patient, clinician]) side.beforeKill = side.client.lastEventId;
      killedAt = performance.now();
      killedAtWall = Date.now();
      if (STOP === "kill") {
        for (const child of stopped.processes) child.kill("SIGKILL");
        log(`${stopped.ns} stopped (SIGKILL to its API and web server)`);
      } else {
        sh("ip", ["link", "set", stopped.ns, "down"]);
        log(`${stopped.ns} cut off (its link is down)`);
      }
    })();
  };
  const [patientSent, clinicianSent] = await Promise.all([
    writeMessages(visit.patient, visit.visitId, MESSAGES, onSent),
    writeMessages(visit.clinician, visit.visitId, MESSAGES, () => {}),
  ]);
  await stopping;

  // Deliveries: every message on both sides, or 5 s more (35 s with the link down: the pages' own
  // heartbeat, a ping every 15 s answered within 10 s, is what finds such a socket dead).
  const thread = await readThread(visit.patient, visit.visitId);
  const threadIds = thread.map((m) => m.id);
  const deadline = Date.now() + (STOP === "kill" ? 5_000 : 35_000);
  while (
    Date.now() < deadline &&
    [patient, clinician].some(
      (side) => new Set(side.received.map((r) => r.messageId)).size < threadIds.length,
    )
  ) {
    await new Promise((r) => setTimeout(r, 100));
  }

  // Figures.
  const allSent = [...patientSent, ...clinicianSent];
  const acknowledged = allSent.filter((m) => m.acknowledged);
  const inThread = new Set(threadIds);
  const threadClientIds = thread.map((m) => m.client_id);
  figures.sent = allSent.length;
  figures.acknowledged = acknowledged.length;
  figures.resent = allSent.reduce((n, m) => n + m.attempts - 1, 0);
  // A message sent again whose stored copy is older than the last attempt: the first attempt had
  // been stored, and the answer to the one sent again was that copy (same client_id).
  figures.resentAlreadyStored = acknowledged.filter(
    (m) => m.attempts > 1 && Date.parse(m.acknowledged.created_at) < m.lastAttemptAt,
  ).length;
  figures.resendReasons = [...new Set(allSent.filter((m) => m.attempts > 1).map((m) => m.lastError))];
  const backAt = Math.max(...[patient, clinician].map((s) => s.states.at(-1)?.at ?? 0));
  const backAtWall = killedAtWall + (backAt - killedAt);
  figures.acrossSwitch = acknowledged.filter((m) => {
    const at = Date.parse(m.acknowledged.created_at);
    return at >= killedAtWall && at <= backAtWall;
  }).length;
  figures.unacknowledged = allSent.length - acknowledged.length;
  figures.thread = thread.length;
  figures.ackLost = acknowledged.filter((m) => !inThread.has(m.acknowledged.id)).length;
  figures.storedTwice = threadClientIds.length - new Set(threadClientIds).size;
  for (const side of [patient, clinician]) {
    const ids = side.received.map((r) => r.messageId);
    const unique = new Set(ids);
    const seqs = side.received.map((r) => r.seq);
    const closed = side.states.find((s) => s.state === "reconnecting" && s.at >= killedAt);
    const back = side.states.find((s) => s.state === "connected" && s.at >= killedAt);
    figures[side.side] = {
      delivered: [...unique].filter((id) => inThread.has(id)).length,
      duplicated: ids.length - unique.size,
      missing: threadIds.filter((id) => !unique.has(id)).length,
      outOfOrder: seqs.filter((seq, i) => i > 0 && seq <= seqs[i - 1]).length,
      droppedAfterMs: closed ? Math.round(closed.at - killedAt) : null,
      backAfterMs: back ? Math.round(back.at - killedAt) : null,
      resumedAfterEvent: side.beforeKill,
    };
  }
  // The thread holds each side's messages in the order they were written.
  for (const sent of [patientSent, clinicianSent]) {
    const order = sent.filter((m) => m.acknowledged).map((m) => threadIds.indexOf(m.acknowledged.id));
    if (order.some((at, i) => i > 0 && at <= order[i - 1]))
      failures.push("the thread's order is not the writing order");
  }
  for (const side of ["patient", "clinician"]) {
    const f = figures[side];
    if (f.backAfterMs === null) failures.push(`the ${side}'s live socket did not come back`);
    else if (STOP === "kill" && f.backAfterMs > SWITCH_LIMIT_MS)
      failures.push(
        `the ${side}'s live socket came back after ${f.backAfterMs} ms (limit ${SWITCH_LIMIT_MS})`,
      );
    if (f.droppedAfterMs === null) failures.push(`the ${side}'s live socket was not on the stopped host`);
    if (f.duplicated > 0) failures.push(`${f.duplicated} message events reached the ${side} twice`);
    if (f.missing > 0) failures.push(`${f.missing} messages never reached the ${side}'s live socket`);
    if (f.outOfOrder > 0) failures.push(`${f.outOfOrder} message events reached the ${side} out of order`);
  }
  if (figures.ackLost > 0) failures.push(`${figures.ackLost} acknowledged messages are not in the thread`);
  if (figures.storedTwice > 0) failures.push(`${figures.storedTwice} messages were stored twice`);
  if (figures.unacknowledged > 0) failures.push(`${figures.unacknowledged} messages never got a 2xx answer`);
  patient.client.close();
  clinician.client.close();

  if (STOP === "kill" && !options["skip-video"]) {
    await videoAcrossAHostStop(visit, APP_HOSTS[1 - target], stopped);
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
}

const f = figures;
if (f.patient) {
  const side = (name) => {
    const s = f[name];
    return `  ${name.padEnd(9)} socket dropped +${s.droppedAfterMs ?? "—"} ms, back (resumed after event ${s.resumedAfterEvent}) +${s.backAfterMs ?? "—"} ms; delivered ${s.delivered}/${f.thread}, duplicated ${s.duplicated}, missing ${s.missing}, out of order ${s.outOfOrder}`;
  };
  console.log(
    [
      "",
      `Several hosts: 2 × (API + web) behind nginx, one PostgreSQL; one host ${STOP === "kill" ? "killed" : "cut off"} mid-visit`,
      `  messages  sent ${f.sent}, answered 2xx ${f.acknowledged}, never answered ${f.unacknowledged}; in the thread ${f.thread}, stored twice ${f.storedTwice}`,
      `  sent again after no answer ${f.resent} (${f.resentAlreadyStored} of them already stored by the first try)${f.resendReasons.length ? `: ${f.resendReasons.join("; ")}` : ""}`,
      `  stored between the stop and both sockets back: ${f.acrossSwitch}`,
      side("patient"),
      side("clinician"),
      `  acknowledged writes lost: ${f.ackLost}`,
    ].join("\n"),
  );
}
if (f.video?.patient.framesAtKill !== undefined) {
  const v = f.video;
  const side = (name) =>
    `  ${name.padEnd(9)} ${v[name].framesAtKill} frames decoded before the kill, ${v[name].framesIn6sAfter} in the 6 s after, ${v[name].newConnections} new peer connections; call screen ${v[name].callScreen ? "still shown" : "closed"}`;
  console.log(
    [
      "Video visit: set up through one host, that host killed mid-call",
      `  first frames on both sides ${v.firstFramesAfterMs} ms after "Start video call"`,
      side("patient"),
      side("clinician"),
      `  the clinician's hang-up reached the patient through the other host in ${v.hangUpReachedPatientMs ?? "—"} ms`,
    ].join("\n"),
  );
}
if (f.patient) console.log(`  took ${since()}`);
cleanUp();
if (failures.length > 0) {
  console.error(`\nmulti-host-test FAILED:\n  ${failures.join("\n  ")}`);
  process.exitCode = 1;
} else {
  console.log("multi-host-test passed");
}
// Idle keep-alive connections to the balancer would hold the process a while longer.
process.exit();
