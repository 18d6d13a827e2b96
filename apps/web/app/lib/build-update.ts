import type { ClientInstrumentation } from "react-router";
import { setPendingNavigationTarget } from "#app/lib/chunk-reload.ts";

/**
 * The latest-build check (ADR 011). The server reports the build it runs at `GET /build-id.json`
 * (`{ "buildId": "…" }`); the page knows the build it was rendered by (root loader `buildId`). The
 * client asks again every BUILD_ID_POLL_INTERVAL_MS and when the tab becomes visible; once the two
 * differ, the next navigation is a full page load, so the visitor gets the new build's HTML and
 * scripts instead of loading old chunks that may be gone.
 */
export const BUILD_ID_POLL_INTERVAL_MS = 5 * 60_000;
/** Tab switches closer together than this do not each cost a request. */
export const BUILD_ID_MIN_CHECK_GAP_MS = 10_000;
export const BUILD_ID_PATH = "/build-id.json";

let stale = false;

/** Whether the server now runs another build than the one this page came from. */
export function isBuildStale(): boolean {
  return stale;
}

export function markBuildStale(): void {
  stale = true;
}

/** For tests: forget a stale build. */
export function resetBuildStale(): void {
  stale = false;
}

type Timers = {
  setInterval: (callback: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
};

type VisibilitySource = {
  visibilityState: DocumentVisibilityState;
  addEventListener: (type: "visibilitychange", listener: () => void) => void;
  removeEventListener: (type: "visibilitychange", listener: () => void) => void;
};

export type BuildIdPollerOptions = {
  /** The build the page was rendered by. */
  currentBuildId: string;
  /** Asks the server; null when it could not be reached (offline…): that is not a new build. */
  fetchBuildId: () => Promise<string | null>;
  /** Called once, with the new id, when the server reports another build. */
  onNewBuild: (buildId: string) => void;
  intervalMs?: number;
  minCheckGapMs?: number;
  now?: () => number;
  timers?: Timers;
};

/** Polls the build id; pure of the DOM (timers, clock and visibility are passed in) so it is testable. */
export function createBuildIdPoller(options: BuildIdPollerOptions) {
  const intervalMs = options.intervalMs ?? BUILD_ID_POLL_INTERVAL_MS;
  const minGap = options.minCheckGapMs ?? BUILD_ID_MIN_CHECK_GAP_MS;
  const now = options.now ?? Date.now;
  const timers: Timers = options.timers ?? {
    setInterval: (callback, ms) => setInterval(callback, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
  };
  let lastCheck = Number.NEGATIVE_INFINITY;
  let interval: unknown;
  let visibility: VisibilitySource | undefined;
  let done = false;
  let inFlight: Promise<boolean> | null = null;

  const onVisibilityChange = () => {
    if (visibility?.visibilityState !== "visible") return;
    if (now() - lastCheck < minGap) return;
    void check();
  };

  function stop(): void {
    if (interval !== undefined) timers.clearInterval(interval);
    interval = undefined;
    visibility?.removeEventListener("visibilitychange", onVisibilityChange);
    visibility = undefined;
  }

  /** Asks the server once; resolves true when a new build was found (now or earlier). */
  function check(): Promise<boolean> {
    if (done) return Promise.resolve(true);
    if (inFlight !== null) return inFlight;
    lastCheck = now();
    inFlight = options
      .fetchBuildId()
      .catch(() => null)
      .then((buildId) => {
        inFlight = null;
        if (done || buildId === null || buildId === options.currentBuildId) return done;
        done = true;
        stop();
        options.onNewBuild(buildId);
        return true;
      });
    return inFlight;
  }

  function start(source?: VisibilitySource): void {
    if (done || interval !== undefined) return;
    interval = timers.setInterval(() => {
      // A hidden tab waits: it is checked when it is shown again.
      if (!visibility || visibility.visibilityState === "visible") void check();
    }, intervalMs);
    if (source) {
      visibility = source;
      source.addEventListener("visibilitychange", onVisibilityChange);
    }
  }

  return { check, start, stop };
}

/** `GET /build-id.json`, never from a cache; null when the server cannot be reached or answers oddly. */
export async function fetchBuildId(): Promise<string | null> {
  try {
    const response = await fetch(BUILD_ID_PATH, {
      cache: "no-store",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const buildId = (body as { buildId?: unknown } | null)?.buildId;
    return typeof buildId === "string" && buildId !== "" ? buildId : null;
  } catch {
    return null;
  }
}

type NavigationInfo = {
  to: string | number;
  formMethod?: string;
  formData?: FormData;
  body?: unknown;
};

/**
 * Where a React Router navigation should go as a full page load instead, or null to let the router
 * handle it: only plain link navigations (no form data, no history delta), only to another page, and
 * only when the build changed or when the browser is offline under a service worker (which then
 * answers with the offline page).
 */
export function fullLoadTarget(
  info: NavigationInfo,
  state: { currentHref: string; buildStale: boolean; offlineWithServiceWorker: boolean },
): URL | null {
  if (typeof info.to !== "string") return null;
  if (info.formData !== undefined || info.body !== undefined) return null;
  if (info.formMethod && info.formMethod.toLowerCase() !== "get") return null;
  if (!state.buildStale && !state.offlineWithServiceWorker) return null;
  const current = new URL(state.currentHref);
  const target = new URL(info.to, current);
  if (target.origin !== current.origin) return null;
  // An in-page anchor is not a page load.
  if (target.pathname === current.pathname && target.search === current.search && target.hash !== "")
    return null;
  return target;
}

/**
 * The router instrumentation of entry.client.tsx: a stale build (or an offline browser with a
 * service worker) turns the next navigation into `location.assign`; otherwise the navigation runs,
 * with its target remembered for the chunk-failure reload.
 */
export const navigationInstrumentation: ClientInstrumentation = {
  router({ instrument }) {
    instrument({
      async navigate(callNavigate, info) {
        const target = fullLoadTarget(info, {
          currentHref: window.location.href,
          buildStale: isBuildStale(),
          offlineWithServiceWorker:
            navigator.onLine === false && Boolean(navigator.serviceWorker?.controller),
        });
        if (target) {
          window.location.assign(target.href);
          // The page is going away: the router's navigation never starts.
          await new Promise<never>(() => {});
        }
        setPendingNavigationTarget(
          typeof info.to === "string" ? new URL(info.to, window.location.href) : null,
        );
        try {
          await callNavigate();
        } finally {
          setPendingNavigationTarget(null);
        }
      },
    });
  },
};
