import { env } from "#app/lib/env.server.ts";

/**
 * The site's public origin for canonical URLs, hreflang alternates, /sitemap.xml and /robots.txt:
 * PUBLIC_URL when set (it must be, behind a proxy that rewrites Host), else the request's origin.
 */
export function siteUrl(request: Request): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : new URL(request.url).origin;
}
