import {
  type EdgeRequest,
  type EdgeResponse,
  sendEdgeAnswer,
  visitorLocale,
} from "#app/lib/edge-answers.server.ts";
import { interpolate } from "#app/lib/i18n.tsx";
import { getTranslations } from "#app/lib/locale.server.ts";
import { runForVisitor } from "#app/lib/visitor.server.ts";

export type EdgeLimiterOptions = {
  /** Requests per window per visitor (WEB_RATE_LIMIT_MAX). */
  max: number;
  windowMs?: number;
  /** Visitors remembered at once; the oldest window is dropped first (it can only let one in early). */
  trackedVisitors?: number;
  now?: () => number;
};

/**
 * The web server's own limit, per visitor (`req.ip`, which honours TRUST_PROXY), in this process's
 * memory (ADR 025). Mounted after the static files, so it counts pages, route data and the captcha,
 * which are what reach the API. Past the limit: 429 with Retry-After and the page in the visitor's
 * language (the `lang` cookie, else Accept-Language), or `{ error }` for a data or fetch request.
 */
export function createEdgeLimiter(options: EdgeLimiterOptions) {
  const windowMs = options.windowMs ?? 60_000;
  const tracked = options.trackedVisitors ?? 50_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { hits: number; resetAt: number }>();

  /** Counts one request of `visitor`; the seconds to wait when it is over the limit, else 0. */
  function hit(visitor: string): number {
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
    return window.hits > options.max ? Math.max(1, Math.ceil((window.resetAt - at) / 1_000)) : 0;
  }

  function handler(req: EdgeRequest, res: EdgeResponse, next: () => void): void {
    const waitS = hit(req.ip ?? "unknown");
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
      headers: { "Retry-After": String(waitS) },
    });
  }

  return { handler, hit };
}

/**
 * What server.mjs mounts in front of React Router: the limit per visitor, then the visitor every API
 * call made while answering names (visitor.server.ts).
 */
export function visitorHandlers(options: EdgeLimiterOptions) {
  const limiter = createEdgeLimiter(options);
  return [
    limiter.handler,
    (req: EdgeRequest, _res: unknown, next: () => void) => runForVisitor(req.ip, next),
  ];
}
