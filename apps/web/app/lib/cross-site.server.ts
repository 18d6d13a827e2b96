import type { IncomingHttpHeaders } from "node:http";
import {
  type EdgeRequest,
  type EdgeResponse,
  sendEdgeAnswer,
  visitorLocale,
} from "#app/lib/edge-answers.server.ts";
import { getTranslations } from "#app/lib/locale.server.ts";

/** Methods that only read: everything else changes something and must come from the site's pages. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request's Origin is the site itself: PUBLIC_URL's origin when it is set, else (a local
 * run, a test) the Host the request was sent to. `Origin: null` (a sandboxed frame, a redirect from
 * another site, a `data:` page) and an Origin that is no URL are never the site.
 */
export function originIsSite(headers: IncomingHttpHeaders, siteOrigin: string | undefined): boolean {
  const origin = headers.origin;
  if (typeof origin !== "string") return false;
  let given: URL;
  try {
    given = new URL(origin);
  } catch {
    return false;
  }
  if (siteOrigin) return given.origin === new URL(siteOrigin).origin;
  return given.host === headers.host;
}

/**
 * Whether a state-changing request may have been sent by another site riding on the visitor's
 * cookies. Browsers send Origin with every request that is not GET or HEAD (forms, fetch, uploads),
 * so it decides; a request without one is not a browser's (curl, a monitor) unless its
 * Sec-Fetch-Site says it crossed sites. SameSite=Lax cookies stop other sites' POSTs already, but
 * not a sibling subdomain's or an injected page's, which this does.
 */
export function isCrossSiteWrite(
  request: { method: string; headers: IncomingHttpHeaders },
  siteOrigin: string | undefined,
): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (request.headers.origin !== undefined) return !originIsSite(request.headers, siteOrigin);
  const fetchSite = request.headers["sec-fetch-site"];
  return fetchSite === "cross-site" || fetchSite === "same-site";
}

/**
 * What server.mjs mounts in front of every route of the site (pages' actions, `.data` requests, the
 * resource routes of the chat, the notes, uploads, the forms): one check that a new action cannot
 * forget. A cross-site write is answered 403 before any of it is read, with a short page in the
 * visitor's language, or `{ "error": … }` for a script. React Router's own check of actions is never
 * reached by such a request (it threw, and logged a stack trace, for pages' forms only).
 */
export function refuseCrossSiteWrites(options: { siteOrigin: string | undefined }) {
  return (req: EdgeRequest & { method: string }, res: EdgeResponse, next: () => void): void => {
    if (!isCrossSiteWrite(req, options.siteOrigin)) {
      next();
      return;
    }
    const locale = visitorLocale(req.headers);
    const t = getTranslations(locale).errors.crossSite;
    sendEdgeAnswer(req, res, { status: 403, locale, ...t, code: "CROSS_SITE_REQUEST" });
  };
}
