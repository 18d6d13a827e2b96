import { describe, expect, it } from "vitest";
import { PAGES, type PageEntry, ROUTE_PATHS, routeAccess, sessionPagePrefixes } from "#app/lib/pages.ts";
import {
  isNeverCachedPath,
  offlineLocale,
  shouldCache,
  shouldCacheRequest,
  shouldCacheResponse,
  staleCaches,
  strategyFor,
} from "#app/service-worker/cache-rules.ts";

const ORIGIN = "https://ambercare.test";
const get = (path: string, mode = "no-cors") => ({ method: "GET", url: `${ORIGIN}${path}`, mode });
function response(status: number, headers: Record<string, string> = {}, type = "basic") {
  const map = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  return { status, type, headers: { get: (name: string) => map.get(name.toLowerCase()) ?? null } };
}
const immutable = response(200, { "Cache-Control": "public, max-age=31536000, immutable" });
/** What the build hands the worker: the session's pages of the page table. */
const SESSION = sessionPagePrefixes();
/** A URL of a page: its parameters filled in. */
const concrete = (path: string) => path.replace(/:\w+/g, "some-id");

describe("the service worker's cache rule", () => {
  it.each([
    "/api/v1/api/auth/me",
    "/api",
    "/my-profile",
    "/my-profile/medical-records",
    "/my-profile.data",
    "/my-profile/messages.data",
    "/consultation/form",
    "/consultation/consult.data",
    "/cancel-subscription",
    "/login",
    "/login.data",
    "/sign-up",
    "/reset-password",
    "/forgot-password",
    "/logout",
    "/console",
    "/console/visits/9.data",
    "/checkout/abc",
    "/sw.js",
    "/build-id.json",
  ])("never stores %s", (path) => {
    expect(isNeverCachedPath(path, SESSION)).toBe(true);
    expect(shouldCache(get(path), immutable, ORIGIN, SESSION)).toBe(false);
  });

  // By construction: a page the page table puts behind a login, or keeps for logged-out visitors,
  // is never stored, neither its document nor its data, whatever its answer's headers say.
  it.each(
    ROUTE_PATHS.filter(
      (path) => routeAccess(path).requiresAuthentication || routeAccess(path).notAuthenticated,
    ),
  )("never stores the session's page %s", (path) => {
    for (const url of [concrete(path), `${concrete(path)}.data`, `${concrete(path)}/sub-page`]) {
      expect(shouldCache(get(url, "navigate"), immutable, ORIGIN, SESSION), url).toBe(false);
      expect(strategyFor(get(url), ORIGIN, new Set([url]), SESSION), url).toBe("none");
    }
  });

  it("would never store a new page behind a login, wherever it is", () => {
    const inbox: PageEntry = {
      file: "routes/inbox.tsx",
      name: "messages",
      access: { requiresAuthentication: true },
      seo: {},
    };
    const prefixes = sessionPagePrefixes({ ...PAGES, "/inbox/:threadId": inbox });
    expect(isNeverCachedPath("/inbox/7", prefixes)).toBe(true);
    expect(isNeverCachedPath("/inbox/7.data", prefixes)).toBe(true);
    expect(isNeverCachedPath("/inbox", SESSION)).toBe(false);
  });

  it.each([
    "/assets/entry.client-abc.js",
    "/offline/bg.html",
    "/icons/icon-192.png",
    "/loginhelp",
    "/apiary",
  ])("may store %s", (path) => {
    expect(isNeverCachedPath(path, SESSION)).toBe(false);
    expect(shouldCache(get(path), immutable, ORIGIN, SESSION)).toBe(true);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE", "HEAD"])("never stores a %s", (method) => {
    expect(shouldCacheRequest({ method, url: `${ORIGIN}/assets/a.js` }, ORIGIN, SESSION)).toBe(false);
  });

  it("never stores another origin's response (the API host, a CDN)", () => {
    expect(
      shouldCacheRequest({ method: "GET", url: "https://api.ambercare.test/assets/a.js" }, ORIGIN, SESSION),
    ).toBe(false);
    expect(shouldCacheRequest({ method: "GET", url: "not a url" }, ORIGIN, SESSION)).toBe(false);
  });

  it.each([
    ["Set-Cookie", { "Set-Cookie": "isLoggedIn=true" }],
    ["no-store", { "Cache-Control": "no-store" }],
    ["private", { "Cache-Control": "private, max-age=60" }],
    ["private, no-store (every page)", { "Cache-Control": "private, no-store" }],
    ["NO-STORE in capitals", { "Cache-Control": "max-age=0, NO-STORE" }],
    ["Vary: Cookie", { "Cache-Control": "public", Vary: "Accept-Encoding, Cookie" }],
    ["Vary: *", { Vary: "*" }],
  ])("never stores a response with %s", (_label, headers) => {
    expect(shouldCacheResponse(response(200, headers))).toBe(false);
  });

  it.each([
    [206, "basic"],
    [404, "basic"],
    [500, "basic"],
    [301, "basic"],
    [200, "opaque"],
    [200, "cors"],
  ])("never stores a %s %s response", (status, type) => {
    expect(shouldCacheResponse(response(status, {}, type))).toBe(false);
  });

  it("stores a plain public 200", () => {
    expect(shouldCacheResponse(response(200, { "Cache-Control": "public, max-age=3600" }))).toBe(true);
    expect(shouldCacheResponse(response(200, { "Cache-Control": "no-cache" }))).toBe(true);
    expect(shouldCacheResponse(response(200, { "Cache-Control": "max-age=60, privately-owned" }))).toBe(true);
  });
});

describe("strategyFor", () => {
  const precached = new Set(["/offline/en.html", "/manifest.webmanifest"]);

  it("answers navigations network first, patient pages included (they are simply never stored)", () => {
    expect(strategyFor(get("/", "navigate"), ORIGIN, precached, SESSION)).toBe("navigation");
    expect(strategyFor(get("/my-profile", "navigate"), ORIGIN, precached, SESSION)).toBe("navigation");
  });

  it("answers fingerprinted assets and the shell cache first", () => {
    expect(strategyFor(get("/assets/root-abc.js"), ORIGIN, precached, SESSION)).toBe("cache-first");
    expect(strategyFor(get("/manifest.webmanifest"), ORIGIN, precached, SESSION)).toBe("cache-first");
  });

  it.each([
    "/build-id.json",
    "/about.data",
    "/my-profile.data",
    "/_img/w_320/images/hero.jpg",
    "/media/hero.webm",
    "/manifest.webmanifest?v=2",
  ])("leaves %s to the browser", (path) => {
    expect(strategyFor(get(path), ORIGIN, precached, SESSION)).toBe("none");
  });

  it("leaves non-GET and other origins to the browser", () => {
    expect(
      strategyFor({ method: "POST", url: `${ORIGIN}/login`, mode: "navigate" }, ORIGIN, precached, SESSION),
    ).toBe("none");
    expect(
      strategyFor({ method: "GET", url: "https://cdn.test/assets/a.js" }, ORIGIN, precached, SESSION),
    ).toBe("none");
  });
});

describe("offlineLocale", () => {
  it("follows ?lang=, then the lang cookie, then the browser's languages, then English", () => {
    expect(offlineLocale({ url: `${ORIGIN}/about?lang=bg`, cookieLang: "en", languages: ["en-US"] })).toBe(
      "bg",
    );
    expect(offlineLocale({ url: `${ORIGIN}/about?lang=de`, cookieLang: "bg" })).toBe("bg");
    expect(offlineLocale({ url: `${ORIGIN}/about`, cookieLang: null, languages: ["de-DE", "bg-BG"] })).toBe(
      "bg",
    );
    expect(offlineLocale({ url: `${ORIGIN}/about`, languages: ["de-DE"] })).toBe("en");
    expect(offlineLocale({ url: "nonsense" })).toBe("en");
  });
});

describe("staleCaches", () => {
  it("deletes this site's caches of other versions only", () => {
    expect(
      staleCaches(
        ["ambercare-shell-old", "ambercare-shell-new", "ambercare-runtime-old", "someone-else"],
        ["ambercare-shell-new", "ambercare-runtime-new"],
      ),
    ).toEqual(["ambercare-shell-old", "ambercare-runtime-old"]);
  });
});
