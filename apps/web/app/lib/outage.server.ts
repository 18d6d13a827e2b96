import { data, type ServerBuild } from "react-router";
import { isApiError } from "#app/lib/api-client.server.ts";

/** How long a visitor's browser (or a crawler) should wait before asking again during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 10;

/**
 * Whether a failed call means "the service is down for a while", not "this page is broken": the
 * API did not answer at all (ApiError status 0: refused, reset, timed out) or said its database is
 * unreachable (503 DATABASE_UNAVAILABLE).
 */
export function isApiOutage(error: unknown): boolean {
  return (
    isApiError(error) &&
    (error.status === 0 || (error.status === 503 && error.code === "DATABASE_UNAVAILABLE"))
  );
}

/**
 * Rethrows `error`; an outage of the API becomes the site's translated 503 page with Retry-After, and
 * the API's limit on this person (429) the "too many requests" page that waits its Retry-After and
 * tries again by itself, never a 500.
 */
export function rethrowAsPage(error: unknown): never {
  if (isApiError(error) && error.status === 429) {
    const retryAfter = Math.max(1, Math.ceil(Number(error.headers.get("retry-after")) || 10));
    throw data(
      { reason: "tooManyRequests", retry_after: retryAfter },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  if (isApiOutage(error)) {
    throw data(
      { reason: "unavailable" },
      { status: 503, headers: { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) } },
    );
  }
  throw error;
}

type Handler = (args: never) => unknown;

function guarded<H extends Handler>(handler: H): H {
  return (async (args: never) => {
    try {
      return await handler(args);
    } catch (error) {
      rethrowAsPage(error);
    }
  }) as H;
}

/**
 * The build with every route's loader and action guarded by `rethrowAsPage`, so an outage that no
 * page handles itself (a form keeps its own "service unavailable" message and what was typed) shows
 * the 503 page instead of a 500. server.mjs serves this build.
 */
export function withOutagePages(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { loader, action } = route.module;
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        ...(loader ? { loader: guarded(loader) } : {}),
        ...(action ? { action: guarded(action) } : {}),
      },
    };
  }
  return { ...build, routes };
}
