import type { IncomingHttpHeaders } from "node:http";
import { readCookie } from "#app/lib/cookies.server.ts";
import { escapeHtml } from "#app/lib/html.ts";
import { DEFAULT_LOCALE, isLocale, type Locale } from "#app/lib/i18n.tsx";
import { LANG_COOKIE, parseAcceptLanguage } from "#app/lib/locale.server.ts";

/**
 * Answers the web server gives in front of React Router (the limit per visitor, a refused cross-site
 * write): in the visitor's language, as a page of its own for a document request or as
 * `{ "error": … }` for a script.
 */
export type EdgeRequest = { ip?: string | undefined; headers: IncomingHttpHeaders; path: string };
export type EdgeResponse = {
  status(code: number): EdgeResponse;
  set(headers: Record<string, string>): EdgeResponse;
  type(type: string): EdgeResponse;
  send(body: string): unknown;
};

/** The language a visitor's pages are shown in, `?lang=` aside: the `lang` cookie, else Accept-Language. */
export function visitorLocale(headers: IncomingHttpHeaders): Locale {
  const remembered = readCookie(headers.cookie, LANG_COOKIE);
  if (isLocale(remembered)) return remembered;
  return parseAcceptLanguage(headers["accept-language"]) ?? DEFAULT_LOCALE;
}

export function sendEdgeAnswer(
  req: EdgeRequest,
  res: EdgeResponse,
  answer: {
    status: number;
    locale: Locale;
    title: string;
    message: string;
    code?: string;
    /** A wait the visitor's page can count down and retry after by itself (a 429's Retry-After). */
    retryAfterSeconds?: number;
    /** A second line for the page only (what happens next). */
    note?: string;
    headers?: Record<string, string>;
  },
): void {
  res
    .status(answer.status)
    .set({ ...answer.headers, "Cache-Control": "no-store", "Content-Language": answer.locale });
  if (wantsPage(req)) {
    res
      .type("html")
      .send(messagePage(answer.locale, answer.title, answer.message, answer.note, answer.retryAfterSeconds));
  } else {
    const body = {
      error: answer.message,
      ...(answer.code ? { code: answer.code } : {}),
      ...(answer.retryAfterSeconds ? { retry_after: answer.retryAfterSeconds } : {}),
    };
    res.type("json").send(JSON.stringify(body));
  }
}

/** A document request, not React Router's `.data` fetch or a script's JSON call. */
function wantsPage(req: EdgeRequest): boolean {
  return !req.path.endsWith(".data") && (req.headers.accept ?? "").includes("text/html");
}

/**
 * A page of its own, with nothing to load: the visitor is told what happened, not asked to fetch more.
 * With a wait, the page asks again by itself when it is over (a refresh, no script), so a visitor who
 * was limited is never left on a dead end.
 */
function messagePage(
  locale: Locale,
  title: string,
  message: string,
  note?: string,
  retryAfterSeconds?: number,
): string {
  const refresh = retryAfterSeconds
    ? `\n<meta http-equiv="refresh" content="${Math.ceil(retryAfterSeconds)}">`
    : "";
  const second = note ? `\n<p>${escapeHtml(note)}</p>` : "";
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${refresh}
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>${second}
</main>
</body>
</html>
`;
}
