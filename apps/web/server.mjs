// Production server: `NODE_ENV=production node server.mjs` after `react-router build`.
// For development `react-router dev` is enough (no CSP there: Vite injects inline scripts).
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import proxyAddr from "proxy-addr";

const BUILD_DIR = resolve(
  fileURLToPath(new URL(".//", import.meta.url)),
  process.env.WEB_BUILD_DIR ?? "build",
);

/** @type {import("react-router").ServerBuild} */
const build = await import(pathToFileURL(join(BUILD_DIR, "server/index.js")).href);
// The server bundle parsed the environment with zod when it loaded (app/lib/env.server.ts): a wrong
// variable has already stopped the boot with a message naming it.
const {
  env,
  getServiceSecrets,
  createImageService,
  loadProviderPhoto,
  contentSecurityPolicy,
  visitorHandlers,
  withOutagePages,
  configureConnections,
  createSiteLiveRelay,
  precompressedFiles,
  createPageCache,
  refuseCrossSiteWrites,
} = /** @type {any} */ (build.entry.module);
getServiceSecrets();
const production = env.NODE_ENV === "production";
// The build this server runs (open pages poll it, ADR 011): BUILD_ID names a release, else the
// build's manifest version.
const buildId = env.BUILD_ID ?? build.assets.version;

const app = express();
app.disable("x-powered-by");
// Behind a reverse proxy (TRUST_PROXY names it), req.ip is the visitor and req.protocol follows
// X-Forwarded-Proto: the request URL React Router sees is then https:, and cookies get Secure.
app.set("trust proxy", env.TRUST_PROXY);
let warnedOfProxy = false;
app.use((req, _res, next) => {
  // A proxy on this host that TRUST_PROXY does not name makes every visitor look like one: say so.
  const peer = req.socket.remoteAddress ?? "";
  const local = peer === "::1" || peer.startsWith("127.") || peer.startsWith("::ffff:127.");
  if (!warnedOfProxy && local && req.headers["x-forwarded-for"] !== undefined && req.ip === peer) {
    warnedOfProxy = true;
    console.warn(
      "X-Forwarded-For from a proxy on this host is ignored (TRUST_PROXY=false): every visitor counts as one. Set TRUST_PROXY=loopback.",
    );
  }
  next();
});
// An answer sent before the request's body was read (a refused cross-site form, the limit per
// visitor) leaves the rest of the body on the connection, where it would be read as the next
// request. It is read to its end and discarded, so the connection serves the next request; a body
// larger than anything the site accepts ends the connection instead.
const MAX_DISCARDED_BODY_BYTES = 10 * 1024 * 1024;
app.use((req, res, next) => {
  res.on("finish", () => {
    if (req.complete) return;
    // Whoever was reading the body (React Router's request stream) is done with it.
    req.removeAllListeners("data");
    let discarded = 0;
    req.on("data", (chunk) => {
      discarded += chunk.length;
      if (discarded > MAX_DISCARDED_BODY_BYTES) req.socket.destroy();
    });
    req.resume();
  });
  next();
});
app.use(compression());

app.use((_req, res, next) => {
  const nonce = randomBytes(16).toString("base64");
  res.locals.cspNonce = nonce;
  res.set({
    // No third-party origin unless configured: the analytics script (after consent), reCAPTCHA.
    "Content-Security-Policy": contentSecurityPolicy(nonce, {
      analyticsScriptUrl: env.ANALYTICS_SCRIPT_URL,
      recaptcha: Boolean(env.RECAPTCHA_SITE_KEY),
      publicUrl: env.PUBLIC_URL,
    }),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // Camera and microphone for the video consultations to come; nothing else.
    "Permissions-Policy":
      "camera=(self), microphone=(self), display-capture=(self), fullscreen=(self), geolocation=(), payment=(), usb=(), interest-cohort=()",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(production ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  });
  next();
});

app.get("/healthz", (_req, res) => {
  res.set("Cache-Control", "no-store").json({ status: "ok" });
});

// Web platform (ADR 011). The service worker is revalidated on every check (no-cache), so a
// new build's worker is found at once; the build id is never cached.
app.get("/sw.js", (_req, res) => {
  res.set({ "Cache-Control": "no-cache", "Content-Type": "text/javascript; charset=utf-8" });
  res.sendFile(join(BUILD_DIR, "client/sw.js"), { cacheControl: false }, (error) => {
    if (error && !res.headersSent) res.status(404).type("text/plain").send("Not found");
  });
});
app.get("/build-id.json", (_req, res) => {
  res.set("Cache-Control", "no-cache").json({ buildId });
});
// Resized images from public/images and the providers' uploaded photos, which this host's API reads
// from the database (`/_img/{modifiers}/{path}`), kept under $DATA_DIR/image-cache
// up to IMAGE_CACHE_MAX_MB (least recently used removed first).
app.use(
  "/_img",
  createImageService({
    publicDir: join(BUILD_DIR, "client"),
    cacheDir: join(env.DATA_DIR, "image-cache"),
    // The providers' photos operators upload, from the database every host shares (ADR 070).
    providerPhotos: loadProviderPhoto,
    maxCacheBytes: env.IMAGE_CACHE_MAX_MB * 1024 * 1024,
  }).handler,
);

// Fingerprinted build assets: cached for a year, never revalidated. The brotli or gzip copy the
// build made is sent when the browser takes it (ADR 038); compression() leaves it as it is.
app.use(
  "/assets",
  precompressedFiles(join(BUILD_DIR, "client/assets"), { maxAge: "1y", immutable: true }),
  express.static(join(BUILD_DIR, "client/assets"), {
    immutable: true,
    maxAge: "1y",
    index: false,
    redirect: false,
  }),
  // A missing asset is a 404, never the HTML of the catch-all redirect.
  (_req, res) => {
    res.status(404).type("text/plain").send("Not found");
  },
);
// Other public files (favicon…): short-cached.
app.use(precompressedFiles(join(BUILD_DIR, "client"), { maxAge: "1h" }));
app.use(express.static(join(BUILD_DIR, "client"), { maxAge: "1h", index: false, redirect: false }));

// Every request that changes something (a page's form, a chat message, the notes, an upload…) must
// come from the site's own pages: one check in front of all routes, so no new action can forget it.
app.use(refuseCrossSiteWrites({ siteOrigin: env.PUBLIC_URL }));
// Pages, route data and the captcha: limited per visitor here, before they reach the API (ADR 025),
// and every API call made while answering names the visitor (signed) so the API counts them too.
app.use(
  visitorHandlers({
    max: env.WEB_RATE_LIMIT_MAX,
    addressMax: env.WEB_ADDRESS_RATE_LIMIT_MAX,
    visitMax: env.WEB_VISIT_RATE_LIMIT_MAX,
    windowMs: env.WEB_RATE_LIMIT_WINDOW_SECONDS * 1000,
  }),
);
// An anonymous visitor's page, rendered once every few seconds per language and address and sent
// with each request's own nonce; never a page of a visitor with a session (ADR 045).
if (env.PAGE_CACHE_SECONDS > 0) {
  app.use(createPageCache({ maxAgeMs: env.PAGE_CACHE_SECONDS * 1000 }).handler);
}
app.use(
  createRequestHandler({
    build: withOutagePages(build),
    mode: production ? "production" : "development",
    // req.ip honours TRUST_PROXY: the visitor's address, which API calls name (visitor.server.ts).
    getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce, buildId, clientIp: req.ip }),
  }),
);

const server = app.listen(env.PORT, () => {
  console.log(`web listening on http://localhost:${env.PORT} (${env.NODE_ENV})`);
});
configureConnections(server);
// The pages' live events socket (wss://<site>/live, ADR 033), relayed to the API with the session's
// token; the visitor is made out as for every request (TRUST_PROXY).
const liveRelay = createSiteLiveRelay((/** @type {import("node:http").IncomingMessage} */ req) =>
  proxyAddr(req, app.get("trust proxy fn")),
);
server.on("upgrade", liveRelay.handleUpgrade);

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    liveRelay.close();
    server.close(() => process.exit(0));
    // Keep-alive sockets may hold close() open: give them a moment, then go.
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
