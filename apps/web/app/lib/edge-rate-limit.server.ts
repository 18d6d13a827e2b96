import {
  type EdgeRequest,
  type EdgeResponse,
  sendEdgeAnswer,
  visitorLocale,
} from "#app/lib/edge-answers.server.ts";
import { interpolate } from "#app/lib/i18n.tsx";
import { knownSessionKey } from "#app/lib/known-sessions.server.ts";
import { getTranslations } from "#app/lib/locale.server.ts";
import { readSessionCookies, sessionUserOf } from "#app/lib/session.server.ts";
import { runForVisitor } from "#app/lib/visitor.server.ts";

export type EdgeLimiterOptions = {
  /** Requests per window of one logged-in person (WEB_RATE_LIMIT_MAX). */
  max: number;
  /**
   * Requests per window of one address, for whatever is not a known person (anonymous visitors,
   * whom a shared address puts together; WEB_ADDRESS_RATE_LIMIT_MAX). Default: `max`.
   */
  addressMax?: number;
  /**
   * Requests per window of one person's (or address's) visit in progress: its live re-reads, chat
   * messages, notes, documents and call events (`isLiveVisitRequest`), counted apart from page views
   * so browsing never starves a visit (WEB_VISIT_RATE_LIMIT_MAX). Default: `max`.
   */
  visitMax?: number;
  /** The key of the request's person when it has a session the API accepted lately. */
  personOf?: (req: EdgeRequest) => string | undefined;
  windowMs?: number;
  /** Visitors remembered at once; the oldest window is dropped first (it can only let one in early). */
  trackedVisitors?: number;
  now?: () => number;
};

/**
 * The web server's own limit, per visitor, in this process's memory (ADR 025): a logged-in person
 * by their session (`personOf`), anyone else by address (`req.ip`, which honours TRUST_PROXY). Mounted after the static files, so it counts pages, route data and the captcha,
 * which are what reach the API. Past the limit: 429 with Retry-After and the page in the visitor's
 * language (the `lang` cookie, else Accept-Language), or `{ error }` for a data or fetch request.
 */
export function createEdgeLimiter(options: EdgeLimiterOptions) {
  const windowMs = options.windowMs ?? 60_000;
  const tracked = options.trackedVisitors ?? 50_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { hits: number; resetAt: number }>();

  /** Counts one request of `visitor`; the seconds to wait when it is over the limit, else 0. */
  function hit(visitor: string, max = options.max): number {
    const at = now();
    let window = windows.get(visitor);
    if (!window || window.resetAt <= at) {
      windows.delete(visitor);
      window = { hits: 0, resetAt: at + windowMs };
      windows.set(visitor, window);
      if (windows.size > tracked) {
        const oldest = windows.keys().next().value;
        if (oldest !== undefined) windows.delete(oldest);
      }
    }
    window.hits += 1;
    return window.hits > max ? Math.max(1, Math.ceil((window.resetAt - at) / 1_000)) : 0;
  }

  function handler(req: EdgeRequest, res: EdgeResponse, next: () => void): void {
    if (isRouteManifestRequest(req.path)) {
      next();
      return;
    }
    const person = options.personOf?.(req);
    const visitor = person === undefined ? (req.ip ?? "unknown") : `person:${person}`;
    const waitS = isLiveVisitRequest(req.path)
      ? hit(`visit:${visitor}`, options.visitMax ?? options.max)
      : hit(visitor, person === undefined ? (options.addressMax ?? options.max) : options.max);
    if (waitS === 0) {
      next();
      return;
    }
    const locale = visitorLocale(req.headers);
    const t = getTranslations(locale).errors.tooManyRequests;
    sendEdgeAnswer(req, res, {
      status: 429,
      locale,
      title: t.title,
      message: interpolate(t.message, { seconds: waitS }),
      code: "TOO_MANY_REQUESTS",
      retryAfterSeconds: waitS,
      note: t.retrying,
      headers: { "Retry-After": String(waitS) },
    });
  }

  return { handler, hit };
}

/**
 * What a visit in progress asks of the web server on its own, apart from page views: its page's
 * live re-reads (routes.ts, ADR 047), chat messages and files, call events, the notes saved as typed
 * and the patient's documents, and the route data of the visit's own pages (`.data`). A patient and a
 * clinician on one address (a family home, a clinic's NAT) or a person browsing in another tab must
 * never leave the visit without its reads; these have a budget of their own.
 */
export function isLiveVisitRequest(path: string): boolean {
  return LIVE_VISIT_PATHS.some((pattern) => pattern.test(path));
}

/**
 * React Router's route discovery (`/__manifest?paths=…`): the routes of the links a page shows,
 * answered from the build in this process's memory like a static file, never reaching the API. Not
 * counted: refused, the browser logs an error and the next link falls back to a full page load, and
 * a visitor waiting out a 429 would come back to pages whose links no longer navigate in place.
 */
export function isRouteManifestRequest(path: string): boolean {
  return path === "/__manifest";
}

const LIVE_VISIT_PATHS = [
  /^\/visit-(chat|call)\/[^/]+(\/events)?(\.data)?$/,
  /^\/console\/visits\/[^/]+(\/(notes|data|documents\/[^/]+))?(\.data)?$/,
  /^\/my-profile\/consultations\/[^/]+\/data(\.data)?$/,
];

/**
 * What server.mjs mounts in front of React Router: the limit per visitor, then the visitor every API
 * call made while answering names (visitor.server.ts).
 */
export function visitorHandlers(options: EdgeLimiterOptions) {
  const limiter = createEdgeLimiter({ personOf: (req) => knownPersonOf(req.headers.cookie), ...options });
  return [
    limiter.handler,
    (req: EdgeRequest, _res: unknown, next: () => void) => runForVisitor(req.ip, next),
  ];
}

/** The session of these cookies when the API accepted it lately (verifySession), else undefined. */
function knownPersonOf(cookieHeader: string | undefined): string | undefined {
  const user = sessionUserOf(readSessionCookies(cookieHeader));
  const token = user ? (user.accessToken ?? user.careAccessToken) : undefined;
  return token ? knownSessionKey(token) : undefined;
}
