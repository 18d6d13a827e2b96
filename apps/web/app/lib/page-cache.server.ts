import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { isbot } from "isbot";
import { CONSENT_COOKIE } from "#app/lib/consent.ts";
import { readCookies } from "#app/lib/cookies.server.ts";
import { visitorLocale } from "#app/lib/edge-answers.server.ts";
import { LANG_COOKIE } from "#app/lib/locale.server.ts";
import { TIME_ZONE_COOKIE } from "#app/lib/time-zone.ts";

/**
 * A short-lived cache of the pages anonymous visitors are shown (ADR 045), in this process's memory:
 * the same page for the same language, address and consent choice is rendered once every few
 * seconds instead of once per request.
 *
 * - Only a GET of a page by a visitor whose cookies are all in COOKIES_A_PAGE_MAY_VARY_BY (the
 *   language, the analytics choice, the browser's time zone) is looked up or stored: a session cookie, or any cookie the
 *   site does not know, means the page is rendered for that request alone.
 * - The key is everything the HTML depends on for such a visitor: the language (the `lang` cookie,
 *   else Accept-Language), the address with its query string (`?lang=` included), the analytics
 *   choice, the host and protocol (canonical addresses), and whether the visitor is a crawler (which
 *   gets the whole page at once). Not the `tz` cookie: only a logged-in page shows times in the
 *   visitor's zone (the root loader gives a zone to those alone), so visitors of every zone share
 *   one entry.
 * - Only a 200 HTML answer without `Set-Cookie` is stored: an answer that sets a cookie was made for
 *   its visitor. The Content-Security-Policy and every other header the server adds per request are
 *   not stored.
 * - Every answer keeps its own CSP nonce: the stored page is split where its render's nonce stood,
 *   and each answer is joined with the nonce of its own request (the one its header names).
 * - Entries live `maxAgeMs` (a few seconds: availability and ratings change) and there are at most
 *   `maxEntries` of them and `maxBytes` in all, the least recently used dropped first. A form
 *   submission answered by this process empties the cache: what it changed shows at once.
 * - Visitors asking for the same missing page at the same moment wait for one render.
 */

/** The cookies an anonymous visitor's page may depend on; any other cookie skips the cache. */
export const COOKIES_A_PAGE_MAY_VARY_BY: ReadonlySet<string> = new Set([
  LANG_COOKIE,
  CONSENT_COOKIE,
  TIME_ZONE_COOKIE,
]);

/** Response headers never stored: set per request (security headers, the nonce's CSP) or per body. */
const HEADERS_NOT_STORED = new Set([
  "content-security-policy",
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "date",
  "connection",
  "keep-alive",
]);

export type PageCacheOptions = {
  maxAgeMs?: number;
  maxEntries?: number;
  maxBytes?: number;
  now?: () => number;
};

type Entry = {
  /** The page, split where its render's nonce stood. */
  parts: string[];
  headers: OutgoingHttpHeaders;
  bytes: number;
  expiresAt: number;
};

/** The parts of Express's request and response the cache uses. */
export type CacheRequest = {
  method: string;
  originalUrl: string;
  path: string;
  protocol: string;
  headers: IncomingHttpHeaders;
};
export type CacheResponse = {
  statusCode: number;
  locals: Record<string, unknown>;
  getHeader(name: string): number | string | string[] | undefined;
  getHeaders(): OutgoingHttpHeaders;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  write(chunk: unknown, ...rest: unknown[]): boolean;
  end(...args: unknown[]): unknown;
  on(event: "finish" | "close", listener: () => void): unknown;
};

const nonceAttribute = (nonce: string) => `nonce="${nonce}"`;

/** The cache key of an anonymous visitor's page request, or null when the cache must not be used. */
export function pageCacheKey(req: CacheRequest): string | null {
  if (req.method !== "GET") return null;
  // React Router's data requests and files are not pages.
  if (req.path.endsWith(".data") || /\.[a-z0-9]+$/i.test(req.path)) return null;
  const cookies = readCookies(req.headers.cookie);
  for (const name of Object.keys(cookies)) if (!COOKIES_A_PAGE_MAY_VARY_BY.has(name)) return null;
  const userAgent = req.headers["user-agent"];
  return [
    visitorLocale(req.headers),
    cookies[CONSENT_COOKIE] ?? "",
    req.protocol,
    req.headers.host ?? "",
    userAgent && isbot(userAgent) ? "crawler" : "browser",
    req.originalUrl,
  ].join("\n");
}

export function createPageCache(options: PageCacheOptions = {}) {
  const maxAgeMs = options.maxAgeMs ?? 3_000;
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<Entry | null>>();
  let bytes = 0;
  /** Bumped by every form submission: a render that began before one is not stored. */
  let generation = 0;

  function drop(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  }

  function clear(): void {
    entries.clear();
    bytes = 0;
    generation += 1;
  }

  function store(key: string, entry: Entry): void {
    drop(key);
    if (entry.bytes > maxBytes) return;
    entries.set(key, entry);
    bytes += entry.bytes;
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      drop(oldest);
    }
  }

  function fresh(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      drop(key);
      return undefined;
    }
    // Least recently used last.
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  function send(entry: Entry, res: CacheResponse): void {
    const nonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : "";
    res.statusCode = 200;
    for (const [name, value] of Object.entries(entry.headers)) {
      if (value !== undefined) res.setHeader(name, value);
    }
    res.end(entry.parts.join(nonceAttribute(nonce)));
  }

  /** Collects what the renderer writes, as it goes out; resolves with the entry to store, or null. */
  function capture(res: CacheResponse): Promise<Entry | null> {
    const startedIn = generation;
    const nonce = typeof res.locals.cspNonce === "string" ? res.locals.cspNonce : "";
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const collect = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === "string")
        chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = (chunk: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      return write(chunk, ...rest);
    };
    res.end = (...args: unknown[]) => {
      if (args[0] !== undefined && typeof args[0] !== "function") collect(args[0], args[1]);
      return end(...args);
    };
    return new Promise((resolve) => {
      res.on("close", () => resolve(null));
      res.on("finish", () => {
        const headers = res.getHeaders();
        const type = String(headers["content-type"] ?? "");
        if (
          res.statusCode !== 200 ||
          !type.startsWith("text/html") ||
          headers["set-cookie"] !== undefined ||
          nonce === "" ||
          startedIn !== generation
        ) {
          resolve(null);
          return;
        }
        const html = Buffer.concat(chunks).toString("utf8");
        const stored: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(headers)) {
          if (!HEADERS_NOT_STORED.has(name) && value !== undefined) stored[name] = value;
        }
        resolve({
          parts: html.split(nonceAttribute(nonce)),
          headers: stored,
          bytes: Buffer.byteLength(html),
          expiresAt: now() + maxAgeMs,
        });
      });
    });
  }

  async function handler(req: CacheRequest, res: CacheResponse, next: () => void): Promise<void> {
    if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "OPTIONS") {
      // What a form changes shows on the next page anyone is shown.
      clear();
      next();
      return;
    }
    const key = pageCacheKey(req);
    if (key === null) {
      next();
      return;
    }
    const hit = fresh(key);
    if (hit) {
      send(hit, res);
      return;
    }
    const inFlight = pending.get(key);
    if (inFlight !== undefined) {
      const rendered = await inFlight;
      if (rendered) {
        send(rendered, res);
        return;
      }
      next();
      return;
    }
    const rendering = capture(res);
    pending.set(key, rendering);
    void rendering.then((entry) => {
      pending.delete(key);
      if (entry) store(key, entry);
    });
    next();
  }

  return {
    handler,
    clear,
    /** Pages stored now, and their size in bytes. */
    size: () => ({ entries: entries.size, bytes }),
  };
}
