import { intlTag } from "@ambercare/contracts/locales";
import { LOCALES, type Locale } from "#app/lib/i18n.tsx";
import { isRoutePath, pageSeo, ROUTE_PATHS, type RoutePath } from "#app/lib/pages.ts";

/**
 * How search engines see the site's pages (ADR 009), from each page's `seo` in the page table
 * (lib/pages.ts):
 * - pages that must not be indexed get `<meta name="robots" content="noindex">` (pageMeta in
 *   meta.ts) and stay out of /sitemap.xml: account pages, steps inside a flow (thank-you pages…),
 *   /logout.
 * - Indexable pages get a canonical URL, hreflang alternates (`?lang=en`, `?lang=bg`, x-default)
 *   and Open Graph tags.
 * Every page's head reads this module, which names no page (ADR 042): the names are in the page
 * table, whose literals the string scan counts only for a route that imports it itself.
 */

/** Paths robots.txt asks crawlers to stay out of: personal pages and actions. */
export const ROBOTS_DISALLOW: readonly RoutePath[] = Object.freeze(
  ROUTE_PATHS.filter((path) => pageSeo(path).disallow),
);

/** The page-table entry of a concrete path: `/careers/nurse` → `/careers/:page`. */
export function routePatternOf(pathname: string): RoutePath | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (isRoutePath(path)) return path;
  const match = /^(\/[^/]+)\/[^/]+$/.exec(path);
  const pattern = match ? `${match[1]}/:page` : undefined;
  return pattern !== undefined && isRoutePath(pattern) ? pattern : undefined;
}

/** Whether search engines may index the page at `pathname` (unknown paths: no). */
export function isIndexable(pathname: string): boolean {
  const pattern = routePatternOf(pathname);
  return pattern !== undefined && pageSeo(pattern).index;
}

/** `https://ambercare.example/about?lang=bg`: the page in one language (`null`: the default URL). */
export function localizedUrl(siteUrl: string, pathname: string, locale: Locale | null): string {
  const base = `${siteUrl.replace(/\/+$/, "")}${pathname}`;
  return locale === null ? base : `${base}?lang=${locale}`;
}

/** hreflang alternates of a page: each language's URL, and the URL without `?lang` as x-default. */
export function alternateLinks(
  siteUrl: string,
  pathname: string,
): Array<{ hreflang: Locale | "x-default"; href: string }> {
  return [
    ...LOCALES.map((locale) => ({ hreflang: locale, href: localizedUrl(siteUrl, pathname, locale) })),
    { hreflang: "x-default" as const, href: localizedUrl(siteUrl, pathname, null) },
  ];
}

/** The Open Graph name of a locale: its Intl tag with an underscore (`bg_BG`). */
export function openGraphLocale(locale: Locale): string {
  return intlTag(locale).replace("-", "_");
}
