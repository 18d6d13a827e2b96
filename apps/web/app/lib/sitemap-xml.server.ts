import { LOCALES } from "#app/lib/i18n.tsx";
import { pageSeo, ROUTE_PATHS, type RoutePath } from "#app/lib/pages.ts";
import { alternateLinks, localizedUrl, ROBOTS_DISALLOW } from "#app/lib/seo.ts";

/**
 * /sitemap.xml and /robots.txt (sitemaps.org 0.9 with xhtml:link hreflang alternates). Every
 * indexable page of the page table (lib/pages.ts) is listed at each of its addresses (the default
 * URL and `?lang=en`/`?lang=bg`), each entry naming all its language alternates; a route with a
 * `:page` parameter is listed once per page that exists (`pages` gives them).
 */

function xmlEscape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The concrete paths of every indexable page. */
export function indexablePaths(pages: Partial<Record<RoutePath, readonly string[]>>): string[] {
  return ROUTE_PATHS.filter((path) => pageSeo(path).index)
    .flatMap((path) =>
      path.includes(":page") ? (pages[path] ?? []).map((slug) => path.replace(":page", slug)) : [path],
    )
    .sort();
}

export function sitemapXml(siteUrl: string, paths: readonly string[]): string {
  const entries = paths.flatMap((path) => {
    const alternates = alternateLinks(siteUrl, path)
      .map(
        (link) =>
          `    <xhtml:link rel="alternate" hreflang="${link.hreflang}" href="${xmlEscape(link.href)}"/>`,
      )
      .join("\n");
    return [null, ...LOCALES].map(
      (locale) =>
        `  <url>\n    <loc>${xmlEscape(localizedUrl(siteUrl, path, locale))}</loc>\n${alternates}\n  </url>`,
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${siteUrl.replace(/\/+$/, "")}/sitemap.xml`,
    "",
  ].join("\n");
}
