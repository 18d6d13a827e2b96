import { intlTag } from "@ambercare/contracts/locales";
import { LOCALES, type Locale, type Translations } from "#app/lib/i18n.tsx";
import type { RoutePath } from "#app/lib/route-access.ts";

/**
 * How search engines and the /sitemap page see each page route, in one table beside the
 * access table (route-access.ts): its page name, whether it may be indexed, and its group on the
 * /sitemap page (`null`: not listed there, with the reason next to it).
 *
 * - `index: false` pages get `<meta name="robots" content="noindex">` (pageMeta in meta.ts) and
 *   stay out of /sitemap.xml: account pages, steps inside a flow (thank-you pages…), /logout.
 * - Indexable pages get a canonical URL, hreflang alternates (`?lang=en`, `?lang=bg`, x-default)
 *   and Open Graph tags.
 */
export type SitemapGroup = "care" | "membership" | "company" | "legal" | "account";
export const SITEMAP_GROUPS: readonly SitemapGroup[] = ["care", "membership", "company", "legal", "account"];

export type RouteSeo = Readonly<{
  page: keyof Translations["pages"];
  index: boolean;
  group: SitemapGroup | null;
}>;

const page = (p: RouteSeo["page"], group: SitemapGroup | null, index = true): RouteSeo => ({
  page: p,
  index,
  group,
});

/** In the order the /sitemap page lists them within each group. */
export const ROUTE_SEO = Object.freeze({
  "/find-a-doctor": page("findADoctor", "care"),
  "/specializations": page("specializations", "care"),
  "/conditions-we-see": page("conditionsWeSee", "care"),
  // Each provider's profile is public and indexed; the /sitemap page lists the search, not them.
  "/find-a-doctor/:page": page("providerProfile", null),
  // Login required; listed so patients find it, but a crawler only sees the login page.
  "/consultation/form": page("consultationForm", "care", false),
  "/pricing-options": page("pricingOptions", "membership"),
  "/membership": page("membership", "membership"),
  "/membership-trial": page("membershipTrial", "membership"),
  "/one-time-visit": page("oneTimeVisit", "membership"),
  "/": page("home", "company"),
  "/about": page("about", "company"),
  "/careers": page("careers", "company"),
  // Each opening is indexed (/sitemap.xml lists them); the /sitemap page lists them under Careers.
  "/careers/:page": page("careerOpening", null),
  "/blog": page("blog", "company"),
  // No posts yet: any /blog/<slug> shows "coming soon", which must not be indexed under many names.
  "/blog/:page": page("blogPost", null, false),
  "/medical-providers": page("medicalProviders", "company"),
  "/frequently-asked-questions": page("faq", "company"),
  "/contact-us": page("contactUs", "company"),
  "/miscellaneous": page("miscellaneous", "company"),
  // The page itself: not a link to itself.
  "/sitemap": page("sitemap", null),
  "/privacy-policy": page("privacyPolicy", "legal"),
  "/terms-of-use": page("termsOfUse", "legal"),
  "/disclaimer": page("disclaimer", "legal"),
  "/informed-consent": page("informedConsent", "legal"),
  "/audio-video-recording-consent-in-ehrs": page("audioVideoRecordingConsent", "legal"),
  "/patient-consent-for-financial-communications": page("financialCommunicationsConsent", "legal"),
  "/non-discrimination-notice": page("nonDiscriminationNotice", "legal"),
  "/ada-policy": page("adaPolicy", "legal"),
  "/washington-consumer-health-data-privacy-notice": page("washingtonHealthDataNotice", "legal"),
  // Patients search for "Ambercare log in" / "sign up": these two are the account pages worth finding.
  "/login": page("login", "account"),
  "/sign-up": page("signUp", "account"),
  "/forgot-password": page("forgotPassword", "account", false),
  "/my-profile": page("myProfile", "account", false),
  "/unsubscribe": page("unsubscribe", "account", false),
  // Reached from an e-mailed link or after closing an account: not pages to land on.
  "/confirm-subscription": page("confirmSubscription", null, false),
  "/account-deleted": page("accountDeleted", null, false),
  // Steps of a flow, reached from the step before (or an e-mailed link): not pages to land on.
  "/almost-there": page("almostThere", null, false),
  "/reset-password": page("resetPassword", null, false),
  "/login/second-factor": page("secondFactorLogin", null, false),
  "/login/lost-device": page("lostDevice", null, false),
  "/sign-up/confirm": page("confirmSignUp", null, false),
  "/call-ended": page("callEnded", null, false),
  "/consultation/consult": page("consult", null, false),
  "/consultation/thank-you": page("consultationThankYou", null, false),
  "/thank-you-for-ordering": page("thankYouForOrdering", null, false),
  "/thank-you-for-subscribing": page("thankYouForSubscribing", null, false),
  // An action, not a page.
  "/logout": page("logout", null, false),
  // Inside My profile: reached from its navigation.
  "/cancel-subscription": page("cancelSubscription", null, false),
  "/my-profile/billing-history": page("billingHistory", null, false),
  "/my-profile/billing-history/:invoiceId": page("receipt", null, false),
  // The demo payment provider's hosted checkout: a step of a flow.
  "/checkout/:checkoutId": page("checkout", null, false),
  "/my-profile/consultations": page("consultations", null, false),
  "/my-profile/consultations/:consultationId": page("visit", null, false),
  "/my-profile/manage-subscription": page("manageSubscription", null, false),
  "/my-profile/medical-records": page("medicalRecords", null, false),
  "/my-profile/messages": page("messages", null, false),
  "/my-profile/past-appointments": page("pastAppointments", null, false),
  "/my-profile/health-data": page("healthData", null, false),
  "/my-profile/security": page("security", null, false),
  "/console": page("console", null, false),
  "/console/visits/:id": page("consoleVisit", null, false),
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
