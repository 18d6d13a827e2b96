import { safeRedirect } from "#app/lib/misc.ts";

/**
 * Helpers for the small resource routes that the site-wide forms post to (the footer newsletter,
 * the cookie banner, the support widget). With JavaScript they are sent by a fetcher and answer
 * data; without it the browser navigates to them, and they send the visitor back to the page the
 * form was on.
 */

/** Whether the browser is navigating (a plain form POST without JavaScript), not fetching. */
export function isNavigation(request: Request): boolean {
  const mode = request.headers.get("Sec-Fetch-Mode");
  if (mode) return mode === "navigate";
  return (request.headers.get("Accept") ?? "").includes("text/html");
}

/**
 * The page the form was on (from the posted `returnTo`, else the Referer when it is this site),
 * with `params` set in its query: `/blog?newsletter=sent`.
 */
export function backTo(request: Request, formData: FormData, params: Record<string, string> = {}): string {
  const requestUrl = new URL(request.url);
  let path = safeRedirect(formData.get("returnTo"), "");
  if (!path) {
    const referer = request.headers.get("Referer");
    try {
      const url = referer ? new URL(referer) : null;
      path = url && url.origin === requestUrl.origin ? safeRedirect(`${url.pathname}${url.search}`) : "/";
    } catch {
      path = "/";
    }
  }
  const url = new URL(path, requestUrl.origin);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}
