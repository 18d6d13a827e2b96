import { CHUNK_RELOAD_MIN_INTERVAL_MS } from "@ambercare/contracts/timing";
import type { ComponentType } from "react";

/**
 * Chunk-load failure: when a route module or a lazily loaded chunk cannot be fetched —
 * typically because a new build replaced the files the page was built against — the page is loaded
 * again from the server, at most once per CHUNK_RELOAD_MIN_INTERVAL_MS (10 s) for the same path. A
 * second failure within that time is not a stale page but a broken one: it is left to the error
 * boundary instead of looping. The last reload per path lives in sessionStorage, so it survives the
 * reload it triggers.
 */
export const CHUNK_RELOAD_STORAGE_KEY = "ambercare:chunk-reloads";

/** Path → time (ms since the epoch) of the last reload made for a chunk failure there. */
export type ChunkReloadRecords = Record<string, number>;

export class ChunkLoadError extends Error {
  override readonly name = "ChunkLoadError";
}

/**
 * Whether a chunk failure on `path` at `now` reloads the page, and the records to keep: entries
 * older than the interval are dropped, so the stored map stays small.
 */
export function decideChunkReload(
  records: ChunkReloadRecords,
  path: string,
  now: number,
  minIntervalMs: number = CHUNK_RELOAD_MIN_INTERVAL_MS,
): { reload: boolean; records: ChunkReloadRecords } {
  const kept: ChunkReloadRecords = {};
  for (const [key, time] of Object.entries(records)) {
    if (typeof time === "number" && now - time < minIntervalMs && time <= now) kept[key] = time;
  }
  if (kept[path] !== undefined) return { reload: false, records: kept };
  kept[path] = now;
  return { reload: true, records: kept };
}

export function parseChunkReloadRecords(raw: string | null): ChunkReloadRecords {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === "number"),
    );
  } catch {
    return {};
  }
}

type StorageLike = Pick<Storage, "getItem" | "setItem">;

/**
 * Records a reload for `path` and answers whether to make it. Without a working sessionStorage the
 * answer is no: a reload that cannot be remembered could repeat forever.
 */
export function claimChunkReload(storage: StorageLike | undefined, path: string, now = Date.now()): boolean {
  if (!storage) return false;
  try {
    const decision = decideChunkReload(
      parseChunkReloadRecords(storage.getItem(CHUNK_RELOAD_STORAGE_KEY)),
      path,
      now,
    );
    storage.setItem(CHUNK_RELOAD_STORAGE_KEY, JSON.stringify(decision.records));
    return decision.reload;
  } catch {
    return false;
  }
}

function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The URL a navigation under way is heading for (set by the navigation instrumentation). */
let pendingTarget: URL | null = null;
export function setPendingNavigationTarget(target: URL | null): void {
  pendingTarget = target;
}

/**
 * After a chunk failed to load: loads the page again from the server (the navigation's target when
 * one is under way, else the current page) unless that path was already reloaded in the last 10 s.
 * Returns whether the page is going away.
 */
export function reloadAfterChunkError(): boolean {
  const target = pendingTarget ?? new URL(window.location.href);
  if (!claimChunkReload(sessionStorageOrUndefined(), target.pathname)) return false;
  if (target.href === window.location.href) window.location.reload();
  else window.location.assign(target.href);
  return true;
}

type RouteModules = Record<string, unknown>;
type RouteManifest = { routes: Record<string, { module: string } | undefined> };
type ReactRouterWindow = Window & {
  __reactRouterRouteModules?: RouteModules;
  __reactRouterManifest?: RouteManifest;
};

/**
 * React Router loads a route module on first use with `import(route.module)` and, when that fails,
 * reloads the page every time, with no limit (its own `loadRouteModule`). Its module cache
 * (`window.__reactRouterRouteModules`) is consulted first with `id in cache`: this proxy answers
 * "yes" for a route not loaded yet and hands React Router a promise of the module that this module
 * loads itself. On success the module lands in the cache as before; on failure the page reloads
 * (throttled as above) or the route gets a component that throws a ChunkLoadError and the site's
 * error boundary, which shows it inside the layout.
 * Call once, before hydration.
 */
export function guardRouteModules(
  win: ReactRouterWindow,
  options: {
    /** Called on a failure; true when the page is reloading. */
    onError?: () => boolean;
    /** The error boundary given to a route whose module could not load (the site's own). */
    ErrorBoundary?: ComponentType;
  } = {},
): void {
  const onError = options.onError ?? reloadAfterChunkError;
  const modules = win.__reactRouterRouteModules;
  const manifest = win.__reactRouterManifest;
  if (!modules || !manifest) return;
  const pending = new Map<string, Promise<unknown>>();
  const load = (id: string, url: string) =>
    import(/* @vite-ignore */ url).then(
      (module: unknown) => {
        modules[id] = module;
        pending.delete(id);
        return module;
      },
      (error: unknown) => {
        pending.delete(id);
        console.error(`Could not load the route module ${url}`, error);
        if (onError()) return new Promise<never>(() => {});
        // React Router's data strategies do not expect a route module to fail (its own loader
        // reloads instead): a rejection here would leave a route with no component and a blank
        // page. So it gets a module whose component throws, and its error boundary shows that.
        const failure = new ChunkLoadError(`Could not load ${url}`);
        return {
          default: function ChunkLoadFailed(): never {
            throw failure;
          },
          ErrorBoundary: options.ErrorBoundary,
        };
      },
    );
  win.__reactRouterRouteModules = new Proxy(modules, {
    has(target, id) {
      if (Reflect.has(target, id) || typeof id !== "string") return Reflect.has(target, id);
      const route = manifest.routes[id];
      if (!route?.module) return false;
      if (!pending.has(id)) pending.set(id, load(id, route.module));
      return true;
    },
    get(target, id, receiver) {
      if (typeof id === "string" && !Reflect.has(target, id) && pending.has(id)) return pending.get(id);
      return Reflect.get(target, id, receiver);
    },
  });
}
