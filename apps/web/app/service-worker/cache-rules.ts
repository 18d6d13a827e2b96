import { DEFAULT_LOCALE, isLocale, type Locale } from "@ambercare/contracts/locales";

/**
 * What the service worker (sw.ts) may keep, as pure functions: the SW imports them and
 * cache-rules.test.ts pins them down. The rule of thumb: only the public, fingerprinted app shell
 * and the offline pages are stored; nothing a patient's session produced ever is.
 */

/** Every cache this site's service worker owns starts with this; others on the origin are left alone. */
export const CACHE_PREFIX = "ambercare-";

/**
 * Paths whose responses are never stored, whatever their headers say: the API, every page whose rule
 * depends on the session, and the pages below, open to everyone, whose answer still depends on it.
 * The session's pages come from the page table (`sessionPagePrefixes()` in lib/pages.ts: every page
 * behind a login, every page for logged-out visitors only): the build hands them to the service
 * worker in its manifest, so a new logged-in page is never stored without anyone listing it here,
 * and the worker does not carry the page table. A prefix matches itself, its sub-paths, and React
 * Router's data URLs for it (`/my-profile.data`).
 */
const ALWAYS_NEVER_CACHED = Object.freeze([
  "/api",
  // The booking flow: its steps show a logged-in patient's visit credits and the visit just booked.
  "/consultation",
  // An action: it ends the session.
  "/logout",
]);

/** Never stored either: they must always come from the server. */
const NEVER_CACHED_PATHS = new Set(["/sw.js", "/build-id.json", "/healthz"]);

/** `sessionPages`: the path prefixes of the session's pages (sessionPagePrefixes()). */
export function isNeverCachedPath(pathname: string, sessionPages: readonly string[]): boolean {
  if (NEVER_CACHED_PATHS.has(pathname)) return true;
  return [...ALWAYS_NEVER_CACHED, ...sessionPages].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`) || pathname.startsWith(`${prefix}.`),
  );
}

export type RequestLike = { method: string; url: string; mode?: string };
export type ResponseLike = {
  status: number;
  type?: string;
  headers: { get(name: string): string | null };
};

/** A request whose response may be stored at all: same-origin GET, not on a never-cached path. */
export function shouldCacheRequest(
  request: RequestLike,
  origin: string,
  sessionPages: readonly string[],
): boolean {
  if (request.method.toUpperCase() !== "GET") return false;
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  return !isNeverCachedPath(url.pathname, sessionPages);
}

/**
 * A response that may be stored: a complete 200 from this origin that sets no cookie, is not marked
 * no-store or private, and does not vary by cookie or by everything.
 * (Browsers hide Set-Cookie from service workers; the check stays in case one ever shows it.)
 */
export function shouldCacheResponse(response: ResponseLike): boolean {
  if (response.status !== 200) return false;
  if (response.type !== undefined && response.type !== "basic" && response.type !== "default") return false;
  if (response.headers.get("Set-Cookie") !== null) return false;
  const cacheControl = (response.headers.get("Cache-Control") ?? "").toLowerCase();
  if (/(?:^|[\s,])(?:no-store|private)(?:$|[\s,=])/.test(cacheControl)) return false;
  const vary = (response.headers.get("Vary") ?? "").toLowerCase();
  if (vary.split(",").some((name) => ["*", "cookie", "authorization"].includes(name.trim()))) return false;
  return true;
}

/** The one rule in full: may this request's response be put in a cache? */
export function shouldCache(
  request: RequestLike,
  response: ResponseLike,
  origin: string,
  sessionPages: readonly string[],
): boolean {
  return shouldCacheRequest(request, origin, sessionPages) && shouldCacheResponse(response);
}

export type Strategy =
  /** Network first; the same URL from the cache, else the offline page, when the network is gone. */
  | "navigation"
  /** Cache first: fingerprinted build files and the precached shell never change under their URL. */
  | "cache-first"
  /** Not handled by the service worker at all: the browser fetches as if it were not there. */
  | "none";

/** How the service worker answers a request. `precached` lists the shell's paths. */
export function strategyFor(
  request: RequestLike,
  origin: string,
  precached: ReadonlySet<string>,
  sessionPages: readonly string[],
): Strategy {
  if (request.method.toUpperCase() !== "GET") return "none";
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return "none";
  }
  if (url.origin !== origin) return "none";
  if (request.mode === "navigate") return "navigation";
  if (isNeverCachedPath(url.pathname, sessionPages)) return "none";
  if (url.pathname.startsWith("/assets/") || (precached.has(url.pathname) && url.search === "")) {
    return "cache-first";
  }
  return "none";
}

function asOfflineLocale(value: string | null | undefined): Locale | null {
  const primary = value?.trim().toLowerCase().split("-")[0];
  return isLocale(primary) ? primary : null;
}

/**
 * The language of the offline page, as the server would choose it (architecture "language"):
 * `?lang=` of the page asked for, then the remembered `lang` cookie, then the browser's languages,
 * then English.
 */
export function offlineLocale(options: {
  url: string;
  cookieLang?: string | null;
  languages?: readonly string[];
}): Locale {
  let queryLang: string | null = null;
  try {
    queryLang = new URL(options.url).searchParams.get("lang");
  } catch {
    // Not a URL: ignore it.
  }
  const query = asOfflineLocale(queryLang);
  if (query) return query;
  const cookie = asOfflineLocale(options.cookieLang);
  if (cookie) return cookie;
  for (const language of options.languages ?? []) {
    const match = asOfflineLocale(language);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

/** Caches of this site that another service worker version left behind. */
export function staleCaches(names: readonly string[], current: readonly string[]): string[] {
  return names.filter((name) => name.startsWith(CACHE_PREFIX) && !current.includes(name));
}
