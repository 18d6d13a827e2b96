/**
 * The service worker served at /sw.js (scope "/"). Bundled on its own by vite-plugin-platform.ts at
 * the end of `react-router build`, which defines SW_MANIFEST: the build's version, the app-shell files
 * to precache, the offline pages and the path prefixes of the session's pages (never stored).
 *
 * - install: precache the shell (entry, root and layout chunks, CSS, icons, web manifest) and the
 *   offline page in en and bg, each checked by the cache rule; then skipWaiting.
 * - activate: delete this site's caches of other versions, enable navigation preload, claim clients.
 * - fetch: navigations network first (the offline page when the network is gone); /assets/* and the
 *   shell cache first; everything else (API, data requests, images, media, non-GET) is not touched.
 * What may be stored is decided by cache-rules.ts, the one place to audit.
 */
import type { Locale } from "@ambercare/contracts/locales";
import {
  CACHE_PREFIX,
  offlineLocale,
  shouldCache,
  staleCaches,
  strategyFor,
} from "#app/service-worker/cache-rules.ts";
import { readPushMessage, tabFor } from "#app/service-worker/push-rules.ts";

type SwManifest = {
  version: string;
  precache: string[];
  offline: Record<Locale, string>;
  sessionPages: string[];
};
declare const SW_MANIFEST: SwManifest;
/** Read once: the build defines SW_MANIFEST as a literal, inlined wherever the name appears. */
const MANIFEST: SwManifest = SW_MANIFEST;

type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  preloadResponse: Promise<Response | undefined>;
  respondWith(response: Response | Promise<Response>): void;
};
type PushEvent = ExtendableEvent & { data: { text(): string } | null };
type NotificationClickEvent = ExtendableEvent & {
  notification: { data: unknown; close(): void };
};
type WindowClient = {
  url: string;
  focused: boolean;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
};
type ServiceWorkerScope = {
  location: Location;
  navigator: Navigator;
  registration: {
    navigationPreload?: { enable(): Promise<void> };
    showNotification(title: string, options: NotificationOptions & { data?: unknown }): Promise<void>;
  };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  skipWaiting(): Promise<void>;
  cookieStore?: { get(name: string): Promise<{ value: string } | null> };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationClickEvent) => void): void;
};

const sw = globalThis as unknown as ServiceWorkerScope;
const origin = sw.location.origin;
const PRECACHE = `${CACHE_PREFIX}shell-${MANIFEST.version}`;
const RUNTIME = `${CACHE_PREFIX}runtime-${MANIFEST.version}`;
const precached = new Set(MANIFEST.precache);

async function precacheShell(): Promise<void> {
  const cache = await caches.open(PRECACHE);
  await Promise.all(
    MANIFEST.precache.map(async (path) => {
      const request = new Request(path, { cache: "reload", credentials: "same-origin" });
      const response = await fetch(request);
      // A shell file that breaks the rule fails the install: the previous worker stays in charge.
      if (!shouldCache(request, response, origin, MANIFEST.sessionPages))
        throw new Error(`Not cacheable: ${path} (${response.status})`);
      await cache.put(request, response);
    }),
  );
}

sw.addEventListener("install", (event) => {
  event.waitUntil(precacheShell().then(() => sw.skipWaiting()));
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const old = staleCaches(await caches.keys(), [PRECACHE, RUNTIME]);
      await Promise.all(old.map((name) => caches.delete(name)));
      await sw.registration.navigationPreload?.enable();
      await sw.clients.claim();
    })(),
  );
});

async function putIfAllowed(request: Request, response: Response): Promise<void> {
  if (!shouldCache(request, response, origin, MANIFEST.sessionPages)) return;
  const cache = await caches.open(RUNTIME);
  await cache.put(request, response);
}

async function offlinePage(request: Request): Promise<Response> {
  let cookieLang: string | null = null;
  try {
    cookieLang = (await sw.cookieStore?.get("lang"))?.value ?? null;
  } catch {
    // No cookie access here: the other signals decide.
  }
  const locale = offlineLocale({ url: request.url, cookieLang, languages: sw.navigator.languages });
  const page = await caches.match(MANIFEST.offline[locale], { cacheName: PRECACHE });
  return (
    page ?? new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } })
  );
}

async function networkFirst(event: FetchEvent): Promise<Response> {
  const { request } = event;
  try {
    const response = (await event.preloadResponse) ?? (await fetch(request));
    void putIfAllowed(request, response.clone()).catch(() => undefined);
    return response;
  } catch {
    const cached = await caches.match(request, { cacheName: RUNTIME });
    return cached ?? offlinePage(request);
  }
}

async function cacheFirst(request: Request): Promise<Response> {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  void putIfAllowed(request, response.clone()).catch(() => undefined);
  return response;
}

sw.addEventListener("fetch", (event) => {
  switch (strategyFor(event.request, origin, precached, MANIFEST.sessionPages)) {
    case "navigation":
      event.respondWith(networkFirst(event));
      return;
    case "cache-first":
      event.respondWith(cacheFirst(event.request));
      return;
    case "none":
      return;
  }
});

/**
 * Web push (ADR 064): every message shows a notification (the Push API's userVisibleOnly), with the
 * server's text, or the generic line when it cannot be read; the server already left out what may
 * not be on a lock screen.
 */
sw.addEventListener("push", (event) => {
  const locale = sw.navigator.language?.toLowerCase().startsWith("bg") ? "bg" : "en";
  const message = readPushMessage(event.data?.text() ?? null, "Ambercare", locale);
  event.waitUntil(
    sw.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: "/icons/icon-192.png",
      data: { url: message.url },
    }),
  );
});

/** A click opens the notification's page: the tab already on it, else another tab of the site, else a new one. */
sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const path = readPushMessage(JSON.stringify({ url: data?.url }), "", "en").url;
  event.waitUntil(
    (async () => {
      const tabs = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
      const chosen = tabFor(tabs, path, origin);
      if (!chosen) {
        await sw.clients.openWindow(path);
        return;
      }
      const tab = chosen.navigate ? ((await chosen.tab.navigate(path)) ?? chosen.tab) : chosen.tab;
      await tab.focus();
    })(),
  );
});
