import type { IncomingHttpHeaders } from "node:http";
import { readCookie } from "#app/lib/cookies.server.ts";
import { escapeHtml } from "#app/lib/html.ts";
import { DEFAULT_LOCALE, interpolate, isLocale, type Locale } from "#app/lib/i18n.tsx";
import { getTranslations, LANG_COOKIE, parseAcceptLanguage } from "#app/lib/locale.server.ts";
import { runForVisitor } from "#app/lib/visitor.server.ts";

/** The parts of an Express request and response the limiter uses (so tests need no server). */
export type EdgeRequest = { ip?: string | undefined; headers: IncomingHttpHeaders; path: string };
export type EdgeResponse = {
  status(code: number): EdgeResponse;
  set(headers: Record<string, string>): EdgeResponse;
  type(type: string): EdgeResponse;
  send(body: string): unknown;
};

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
    const message = interpolate(t.message, { seconds: waitS });
    res
      .status(429)
      .set({ "Retry-After": String(waitS), "Cache-Control": "no-store", "Content-Language": locale });
    if (wantsPage(req)) {
      res.type("html").send(tooManyRequestsPage(locale, t.title, message));
    } else {
      res.type("json").send(JSON.stringify({ error: message }));
    }
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

/** The language a visitor's pages are shown in, `?lang=` aside: the `lang` cookie, else Accept-Language. */
export function visitorLocale(headers: IncomingHttpHeaders): Locale {
  const remembered = readCookie(headers.cookie, LANG_COOKIE);
  if (isLocale(remembered)) return remembered;
  return parseAcceptLanguage(headers["accept-language"]) ?? DEFAULT_LOCALE;
}

/** A document request, not React Router's `.data` fetch or a script's JSON call. */
function wantsPage(req: EdgeRequest): boolean {
  return !req.path.endsWith(".data") && (req.headers.accept ?? "").includes("text/html");
}

/** A page of its own, with nothing to load: the visitor is being asked to wait, not to fetch more. */
function tooManyRequestsPage(locale: Locale, title: string, message: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
</main>
</body>
</html>
`;
}
