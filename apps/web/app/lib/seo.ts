import { intlTag } from "@ambercare/contracts/locales";
import { LOCALES, type Locale } from "#app/lib/i18n.tsx";
import type { RoutePath } from "#app/lib/route-access.ts";

/**
 * How search engines and the /sitemap page see each page route, in one table beside the
 * access table (route-access.ts): whether it may be indexed, and its group on the /sitemap page
 * (`null`: not listed there, with the reason next to it). Each route's page name is in
 * sitemap-pages.ts: every page's head reads this module, and a page named here would bring its
 * title into every page's strings (ADR 042).
 *
 * - `index: false` pages get `<meta name="robots" content="noindex">` (pageMeta in meta.ts) and
 *   stay out of /sitemap.xml: account pages, steps inside a flow (thank-you pages…), /logout.
 * - Indexable pages get a canonical URL, hreflang alternates (`?lang=en`, `?lang=bg`, x-default)
 *   and Open Graph tags.
 */
export type SitemapGroup = "care" | "membership" | "company" | "legal" | "account";
export const SITEMAP_GROUPS: readonly SitemapGroup[] = ["care", "membership", "company", "legal", "account"];

export type RouteSeo = Readonly<{ index: boolean; group: SitemapGroup | null }>;

const page = (group: SitemapGroup | null, index = true): RouteSeo => ({ index, group });

/** In the order the /sitemap page lists them within each group. */
export const ROUTE_SEO = Object.freeze({
  "/find-a-doctor": page("care"),
  "/specializations": page("care"),
  "/conditions-we-see": page("care"),
  // Each provider's profile is public and indexed; the /sitemap page lists the search, not them.
  "/find-a-doctor/:page": page(null),
  // Login required; listed so patients find it, but a crawler only sees the login page.
  "/consultation/form": page("care", false),
  "/pricing-options": page("membership"),
  "/membership": page("membership"),
  "/membership-trial": page("membership"),
  "/one-time-visit": page("membership"),
  "/": page("company"),
  "/about": page("company"),
  "/careers": page("company"),
  // Each opening is indexed (/sitemap.xml lists them); the /sitemap page lists them under Careers.
  "/careers/:page": page(null),
  "/blog": page("company"),
  // No posts yet: any /blog/<slug> shows "coming soon", which must not be indexed under many names.
  "/blog/:page": page(null, false),
  "/medical-providers": page("company"),
  "/frequently-asked-questions": page("company"),
  "/contact-us": page("company"),
  "/miscellaneous": page("company"),
  // The page itself: not a link to itself.
  "/sitemap": page(null),
  "/privacy-policy": page("legal"),
  "/terms-of-use": page("legal"),
  "/disclaimer": page("legal"),
  "/informed-consent": page("legal"),
  "/audio-video-recording-consent-in-ehrs": page("legal"),
  "/patient-consent-for-financial-communications": page("legal"),
  "/non-discrimination-notice": page("legal"),
  "/ada-policy": page("legal"),
  "/washington-consumer-health-data-privacy-notice": page("legal"),
  // Patients search for "Ambercare log in" / "sign up": these two are the account pages worth finding.
  "/login": page("account"),
  "/sign-up": page("account"),
  "/forgot-password": page("account", false),
  "/my-profile": page("account", false),
  "/unsubscribe": page("account", false),
  // Reached from an e-mailed link or after closing an account: not pages to land on.
  "/confirm-subscription": page(null, false),
  "/account-deleted": page(null, false),
  // Steps of a flow, reached from the step before (or an e-mailed link): not pages to land on.
  "/almost-there": page(null, false),
  "/reset-password": page(null, false),
  "/login/second-factor": page(null, false),
  "/login/lost-device": page(null, false),
  "/sign-up/confirm": page(null, false),
  "/call-ended": page(null, false),
  "/consultation/consult": page(null, false),
  "/consultation/thank-you": page(null, false),
  "/thank-you-for-ordering": page(null, false),
  "/thank-you-for-subscribing": page(null, false),
  // An action, not a page.
  "/logout": page(null, false),
  // Inside My profile: reached from its navigation.
  "/cancel-subscription": page(null, false),
  "/my-profile/billing-history": page(null, false),
  "/my-profile/billing-history/:invoiceId": page(null, false),
  // The demo payment provider's hosted checkout: a step of a flow.
  "/checkout/:checkoutId": page(null, false),
  "/my-profile/consultations": page(null, false),
  "/my-profile/consultations/:consultationId": page(null, false),
  "/my-profile/manage-subscription": page(null, false),
  "/my-profile/medical-records": page(null, false),
  "/my-profile/messages": page(null, false),
  "/my-profile/past-appointments": page(null, false),
  "/my-profile/health-data": page(null, false),
  "/my-profile/security": page(null, false),
  "/console": page(null, false),
  "/console/visits/:id": page(null, false),
} satisfies Record<RoutePath, RouteSeo>);

/** Paths robots.txt asks crawlers to stay out of: personal pages and actions. */
export const ROBOTS_DISALLOW: readonly RoutePath[] = Object.freeze([
  "/my-profile",
  "/console",
  "/consultation/form",
  "/cancel-subscription",
  "/logout",
  "/reset-password",
  "/sign-up/confirm",
]);

/** The route-table entry of a concrete path: `/careers/nurse` → `/careers/:page`. */
export function routePatternOf(pathname: string): RoutePath | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (Object.hasOwn(ROUTE_SEO, path)) return path as RoutePath;
  const match = /^(\/[^/]+)\/[^/]+$/.exec(path);
  const pattern = match ? `${match[1]}/:page` : undefined;
  return pattern !== undefined && Object.hasOwn(ROUTE_SEO, pattern) ? (pattern as RoutePath) : undefined;
}

/** Whether search engines may index the page at `pathname` (unknown paths: no). */
export function isIndexable(pathname: string): boolean {
  const pattern = routePatternOf(pathname);
  return pattern !== undefined && ROUTE_SEO[pattern].index;
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
