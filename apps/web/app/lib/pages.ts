import { CONSOLE_LAYOUT, OPERATIONS_LAYOUT } from "#app/lib/console-layout.ts";
import type { Translations } from "#app/lib/i18n.tsx";

export { CONSOLE_LAYOUT_ID, showsSupportWidget } from "#app/lib/console-layout.ts";

/**
 * The page table: every page of the site in one entry, keyed by its path, with everything the site
 * knows about it. app/routes.ts builds the route config from it; the pages' loaders enforce its
 * access rule (requireRouteAccess in session.server.ts reads the entry of the route React Router
 * matched); search engines and the /sitemap page read its SEO (lib/seo.ts); the /sitemap page names
 * each page by its name; the service worker never stores a page whose rule depends on the session
 * (the build hands it sessionPagePrefixes()). A new page is one entry here and its route module.
 *
 * - `file`: the route module, under app/ (it mirrors the URL under routes/).
 * - `name`: the page's node in the locales (`pages.<name>`): the /sitemap page shows its title.
 * - `layout`: the layout route around the page; the main one (header, footer) unless said.
 * - `access`, enforced by the page's loader and action:
 *   - PUBLIC (the default): anyone; the loader sees the visitor's cookies, if any.
 *   - LOGGED_IN: anonymous visitors are redirected to /login?redirectTo=<path>.
 *   - PATIENT: LOGGED_IN, and a clinician is sent to /console, an operator to /operations (the
 *     patient's own data, the intake form, checkout).
 *   - CLINICIAN: LOGGED_IN, anyone else is refused with 403, and a clinician whose second factor is
 *     still off is sent to /my-profile/security (the care console).
 *   - OPERATOR: the same for operators (the operations console, ADR 065); an operator on a
 *     patient's page is sent to /operations.
 *   - LOGGED_OUT: pages for logged-out visitors. A logged-in visitor is redirected to / from the
 *     paths in REDIRECT_HOME_WHEN_LOGGED_IN and told "you are already logged in" on the others.
 * - `seo` (ADR 009): `group` lists the page on the /sitemap page under that heading (none: not
 *   listed); `index: false` keeps it out of search engines (`<meta name="robots" content="noindex">`
 *   and out of /sitemap.xml), the default for pages behind a login; `disallow` asks crawlers to stay
 *   out of the path and everything under it (robots.txt).
 *
 * Entries are in the order the /sitemap page lists them within each group. Resource routes (files,
 * JSON, downloads) and the catch-all are no pages: routes.ts declares them, and each checks access
 * itself. This module is plain data, read on both sides and by the build: keep it free of imports
 * that run.
 *
 * Beyond the product's required routes: a provider's profile, the demo checkout, a printable
 * receipt, /confirm-subscription, /account-deleted and /my-profile/health-data (ADR 017), two-step
 * login (ADR 024), the care console (ADR 035, 039) and one visit's own page (ADR 040).
 */

export type RouteRole = "patient" | "clinician" | "operator";
export type RouteAccess = Readonly<{
  requiresAuthentication?: true;
  notAuthenticated?: true;
  role?: RouteRole;
}>;

export type SitemapGroup = "care" | "membership" | "company" | "legal" | "account";
/** The headings of the /sitemap page, in its order. */
export const SITEMAP_GROUPS: readonly SitemapGroup[] = ["care", "membership", "company", "legal", "account"];

/** How search engines and the /sitemap page see a page (defaults in `pageSeo`). */
export type RouteSeo = Readonly<{ index: boolean; group: SitemapGroup | null; disallow: boolean }>;

export type PageEntry = Readonly<{
  file: string;
  name: keyof Translations["pages"];
  layout?: string;
  access?: RouteAccess;
  seo: Readonly<{ group?: SitemapGroup; index?: boolean; disallow?: true }>;
}>;

const LOGGED_IN = { requiresAuthentication: true } as const;
const PATIENT = { requiresAuthentication: true, role: "patient" } as const;
const CLINICIAN = { requiresAuthentication: true, role: "clinician" } as const;
const OPERATOR = { requiresAuthentication: true, role: "operator" } as const;
const LOGGED_OUT = { notAuthenticated: true } as const;

export const MAIN_LAYOUT = "routes/layouts/main.tsx";
/** The care console's own layout, header and access rule (ADR 035). */
/** Pages that are still to come: "coming soon" with the newsletter sign-up. */
const SOON_LAYOUT = "routes/layouts/soon.tsx";

export const PAGES = Object.freeze({
  "/find-a-doctor": { file: "routes/find-a-doctor.tsx", name: "findADoctor", seo: { group: "care" } },
  "/specializations": { file: "routes/specializations.tsx", name: "specializations", seo: { group: "care" } },
  "/conditions-we-see": {
    file: "routes/conditions-we-see.tsx",
    name: "conditionsWeSee",
    seo: { group: "care" },
  },
  // A provider's profile, the directory's detail view: public and indexed; the /sitemap page lists
  // the search, not each profile.
  "/find-a-doctor/:page": { file: "routes/find-a-doctor/provider.tsx", name: "providerProfile", seo: {} },
  // Login required; listed so patients find it, but a crawler only sees the login page.
  "/consultation/form": {
    file: "routes/consultation/form.tsx",
    name: "consultationForm",
    access: PATIENT,
    seo: { group: "care", disallow: true },
  },
  // Booking a time with a provider (ADR 059, 063): their free times, a hold, then the intake form.
  "/consultation/book": {
    file: "routes/consultation/book.tsx",
    name: "consultationBook",
    access: PATIENT,
    seo: { disallow: true },
  },
  "/pricing-options": {
    file: "routes/pricing-options.tsx",
    name: "pricingOptions",
    seo: { group: "membership" },
  },
  "/membership": { file: "routes/membership.tsx", name: "membership", seo: { group: "membership" } },
  "/membership-trial": {
    file: "routes/membership-trial.tsx",
    name: "membershipTrial",
    seo: { group: "membership" },
  },
  "/one-time-visit": {
    file: "routes/one-time-visit.tsx",
    name: "oneTimeVisit",
    seo: { group: "membership" },
  },
  "/": { file: "routes/home.tsx", name: "home", seo: { group: "company" } },
  "/about": { file: "routes/about.tsx", name: "about", seo: { group: "company" } },
  "/careers": { file: "routes/careers/index.tsx", name: "careers", seo: { group: "company" } },
  // Each opening is indexed (/sitemap.xml lists them); the /sitemap page lists them under Careers.
  "/careers/:page": { file: "routes/careers/page.tsx", name: "careerOpening", seo: {} },
  "/blog": { file: "routes/blog/index.tsx", name: "blog", seo: { group: "company" }, layout: SOON_LAYOUT },
  // No posts yet: any /blog/<slug> shows "coming soon", which must not be indexed under many names.
  "/blog/:page": {
    file: "routes/blog/page.tsx",
    name: "blogPost",
    seo: { index: false },
    layout: SOON_LAYOUT,
  },
  "/medical-providers": {
    file: "routes/medical-providers.tsx",
    name: "medicalProviders",
    seo: { group: "company" },
    layout: SOON_LAYOUT,
  },
  "/frequently-asked-questions": {
    file: "routes/frequently-asked-questions.tsx",
    name: "faq",
    seo: { group: "company" },
  },
  "/contact-us": { file: "routes/contact-us.tsx", name: "contactUs", seo: { group: "company" } },
  "/miscellaneous": { file: "routes/miscellaneous.tsx", name: "miscellaneous", seo: { group: "company" } },
  // The page itself: not a link to itself.
  "/sitemap": { file: "routes/sitemap.tsx", name: "sitemap", seo: {} },
  "/privacy-policy": { file: "routes/privacy-policy.tsx", name: "privacyPolicy", seo: { group: "legal" } },
  "/terms-of-use": { file: "routes/terms-of-use.tsx", name: "termsOfUse", seo: { group: "legal" } },
  "/disclaimer": { file: "routes/disclaimer.tsx", name: "disclaimer", seo: { group: "legal" } },
  "/informed-consent": {
    file: "routes/informed-consent.tsx",
    name: "informedConsent",
    seo: { group: "legal" },
  },
  "/audio-video-recording-consent-in-ehrs": {
    file: "routes/audio-video-recording-consent-in-ehrs.tsx",
    name: "audioVideoRecordingConsent",
    seo: { group: "legal" },
  },
  "/patient-consent-for-financial-communications": {
    file: "routes/patient-consent-for-financial-communications.tsx",
    name: "financialCommunicationsConsent",
    seo: { group: "legal" },
  },
  "/non-discrimination-notice": {
    file: "routes/non-discrimination-notice.tsx",
    name: "nonDiscriminationNotice",
    seo: { group: "legal" },
  },
  "/ada-policy": { file: "routes/ada-policy.tsx", name: "adaPolicy", seo: { group: "legal" } },
  "/washington-consumer-health-data-privacy-notice": {
    file: "routes/washington-consumer-health-data-privacy-notice.tsx",
    name: "washingtonHealthDataNotice",
    seo: { group: "legal" },
  },
  // Patients search for "Ambercare log in" / "sign up": these two are the account pages worth finding.
  "/login": { file: "routes/login.tsx", name: "login", access: LOGGED_OUT, seo: { group: "account" } },
  "/sign-up": { file: "routes/sign-up.tsx", name: "signUp", access: LOGGED_OUT, seo: { group: "account" } },
  "/forgot-password": {
    file: "routes/forgot-password.tsx",
    name: "forgotPassword",
    access: LOGGED_OUT,
    seo: { group: "account", index: false },
  },
  "/my-profile": {
    file: "routes/my-profile/index.tsx",
    name: "myProfile",
    access: PATIENT,
    seo: { group: "account", disallow: true },
  },
  "/unsubscribe": {
    file: "routes/unsubscribe.tsx",
    name: "unsubscribe",
    seo: { group: "account", index: false },
  },
  // The newsletter's double opt-in link, and where a deleted account lands (ADR 017): reached from an
  // e-mailed link or after closing an account, not pages to land on.
  "/confirm-subscription": {
    file: "routes/confirm-subscription.tsx",
    name: "confirmSubscription",
    seo: { index: false },
  },
  "/account-deleted": { file: "routes/account-deleted.tsx", name: "accountDeleted", seo: { index: false } },
  // Steps of a flow, reached from the step before (or an e-mailed link): not pages to land on.
  "/almost-there": { file: "routes/almost-there.tsx", name: "almostThere", seo: { index: false } },
  "/reset-password": {
    file: "routes/reset-password.tsx",
    name: "resetPassword",
    access: LOGGED_OUT,
    seo: { index: false, disallow: true },
  },
  // Two-step login (ADR 024): the login's code step and the lost-device link.
  "/login/second-factor": {
    file: "routes/login/second-factor.tsx",
    name: "secondFactorLogin",
    access: LOGGED_OUT,
    seo: { index: false },
  },
  "/login/lost-device": {
    file: "routes/login/lost-device.tsx",
    name: "lostDevice",
    access: LOGGED_OUT,
    seo: { index: false },
  },
  "/sign-up/confirm": {
    file: "routes/sign-up.confirm.tsx",
    name: "confirmSignUp",
    access: LOGGED_OUT,
    seo: { index: false, disallow: true },
  },
  "/call-ended": { file: "routes/call-ended.tsx", name: "callEnded", seo: { index: false } },
  "/consultation/consult": {
    file: "routes/consultation/consult.tsx",
    name: "consult",
    seo: { index: false },
  },
  "/consultation/thank-you": {
    file: "routes/consultation/thank-you.tsx",
    name: "consultationThankYou",
    seo: { index: false },
  },
  "/thank-you-for-ordering": {
    file: "routes/thank-you-for-ordering.tsx",
    name: "thankYouForOrdering",
    seo: { index: false },
  },
  "/thank-you-for-subscribing": {
    file: "routes/thank-you-for-subscribing.tsx",
    name: "thankYouForSubscribing",
    seo: { index: false },
  },
  // An action, not a page.
  "/logout": { file: "routes/logout.tsx", name: "logout", seo: { index: false, disallow: true } },
  // Inside My profile, reached from its navigation.
  "/cancel-subscription": {
    file: "routes/cancel-subscription.tsx",
    name: "cancelSubscription",
    access: PATIENT,
    seo: { disallow: true },
  },
  "/my-profile/billing-history": {
    file: "routes/my-profile/billing-history.tsx",
    name: "billingHistory",
    access: PATIENT,
    seo: {},
  },
  "/my-profile/billing-history/:invoiceId": {
    file: "routes/my-profile/billing-history/receipt.tsx",
    name: "receipt",
    access: PATIENT,
    seo: {},
  },
  // The demo payment provider's hosted checkout (ADR 015): a step of a flow.
  "/checkout/:checkoutId": {
    file: "routes/checkout/checkout.tsx",
    name: "checkout",
    access: PATIENT,
    seo: {},
  },
  "/my-profile/consultations": {
    file: "routes/my-profile/consultations.tsx",
    name: "consultations",
    access: PATIENT,
    seo: {},
  },
  // One visit's own page: the waiting room, the chat, then the summary (ADR 040).
  "/my-profile/consultations/:consultationId": {
    file: "routes/my-profile/visit.tsx",
    name: "visit",
    access: PATIENT,
    seo: {},
  },
  "/my-profile/manage-subscription": {
    file: "routes/my-profile/manage-subscription.tsx",
    name: "manageSubscription",
    access: PATIENT,
    seo: {},
  },
  "/my-profile/medical-records": {
    file: "routes/my-profile/medical-records.tsx",
    name: "medicalRecords",
    access: PATIENT,
    seo: {},
  },
  "/my-profile/messages": {
    file: "routes/my-profile/messages.tsx",
    name: "messages",
    access: PATIENT,
    seo: {},
  },
  "/my-profile/past-appointments": {
    file: "routes/my-profile/past-appointments.tsx",
    name: "pastAppointments",
    access: PATIENT,
    seo: {},
  },
  // Washington My Health My Data: download, consent, deletion (ADR 017).
  "/my-profile/health-data": {
    file: "routes/my-profile/health-data.tsx",
    name: "healthData",
    access: PATIENT,
    seo: {},
  },
  // The second factor's setup (ADR 024): for both roles, the one other page a clinician without the
  // factor may open.
  "/my-profile/security": {
    file: "routes/my-profile/security.tsx",
    name: "security",
    access: LOGGED_IN,
    seo: {},
  },
  // The devices that receive web push and what each is told (ADR 064).
  "/my-profile/notifications": {
    file: "routes/my-profile/notifications.tsx",
    name: "notifications",
    access: LOGGED_IN,
    seo: {},
  },
  // The care console of clinicians (ADR 035): its own layout, header and access rule.
  "/console": {
    file: "routes/console/index.tsx",
    name: "console",
    access: CLINICIAN,
    seo: { disallow: true },
    layout: CONSOLE_LAYOUT,
  },
  // One accepted visit's workspace (ADR 039): intake, documents, earlier visits, chat, notes, sign and
  // complete.
  "/console/visits/:id": {
    file: "routes/console/visit.tsx",
    name: "consoleVisit",
    access: CLINICIAN,
    seo: {},
    layout: CONSOLE_LAYOUT,
  },
  // The clinician's bookable hours (ADR 059): time zone, weekly hours, exceptions, booking limits.
  // The operations console of the clinic's operators (ADR 065): its own layout and access rule.
  "/operations": {
    file: "routes/operations/index.tsx",
    name: "operations",
    access: OPERATOR,
    seo: { disallow: true },
    layout: OPERATIONS_LAYOUT,
  },
  "/operations/visits": {
    file: "routes/operations/visits.tsx",
    name: "operationsVisits",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  "/operations/visits/:id": {
    file: "routes/operations/visit.tsx",
    name: "operationsVisit",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  "/operations/log": {
    file: "routes/operations/log.tsx",
    name: "operationsLog",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  // Every read or write of any patient's data, searched, paged and exported as CSV (ADR 065).
  "/operations/access-log": {
    file: "routes/operations/access-log.tsx",
    name: "operationsAccessLog",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  // One clinician's hours, set or corrected by an operator with the console's editor (ADR 059, 065).
  "/operations/team/:clinicianId/hours": {
    file: "routes/operations/team.hours.tsx",
    name: "operationsTeamHours",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  // The directory editor: providers, their photos and licences with expiry dates (ADR 065).
  "/operations/directory": {
    file: "routes/operations/directory.tsx",
    name: "operationsDirectory",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  "/operations/directory/new": {
    file: "routes/operations/directory.new.tsx",
    name: "operationsDirectoryNew",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  "/operations/directory/:id": {
    file: "routes/operations/directory.provider.tsx",
    name: "operationsDirectoryProvider",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  // Today's board: what waits, what is under way, who is on duty, alerts, unusual access (ADR 067).
  "/operations/today": {
    file: "routes/operations/today.tsx",
    name: "operationsToday",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  // The clinic's figures over a period: charts drawn on the server, tables and CSV (ADR 066).
  "/operations/reports": {
    file: "routes/operations/reports.tsx",
    name: "operationsReports",
    access: OPERATOR,
    seo: {},
    layout: OPERATIONS_LAYOUT,
  },
  "/console/hours": {
    file: "routes/console/hours.tsx",
    name: "consoleHours",
    access: CLINICIAN,
    seo: {},
    layout: CONSOLE_LAYOUT,
  },
  "/console/notifications": {
    file: "routes/console/notifications.tsx",
    name: "consoleNotifications",
    access: CLINICIAN,
    seo: {},
    layout: CONSOLE_LAYOUT,
  },
} as const satisfies Record<string, PageEntry>);

export type RoutePath = keyof typeof PAGES;

export const ROUTE_PATHS = Object.freeze(Object.keys(PAGES) as RoutePath[]);

const PUBLIC: RouteAccess = Object.freeze({});

export function routeAccess(path: RoutePath): RouteAccess {
  return (PAGES[path] as PageEntry).access ?? PUBLIC;
}

export function pageSeo(path: RoutePath): RouteSeo {
  const entry: PageEntry = PAGES[path];
  return {
    // Behind a login a crawler only ever sees the login page.
    index: entry.seo.index ?? !routeAccess(path).requiresAuthentication,
    group: entry.seo.group ?? null,
    disallow: entry.seo.disallow ?? false,
  };
}

export function isRoutePath(value: string): value is RoutePath {
  return Object.hasOwn(PAGES, value);
}

/**
 * The page whose rule covers a route pattern as React Router matched it (the loaders' `pattern`:
 * `my-profile`, `/console/visits/:id`, `/` for the home page): the page itself, else the nearest page
 * above it (`/console/visits/:id/notes` → `/console/visits/:id`), as a path covers what lies under
 * it. The home page covers only itself; undefined when no page does (a site-wide resource route).
 */
export function pageOfPattern(pattern: string): RoutePath | undefined {
  let path = `/${pattern.replace(/^\/+|\/+$/g, "")}`;
  if (path === "/") return "/";
  while (path !== "") {
    if (isRoutePath(path)) return path;
    path = path.slice(0, path.lastIndexOf("/"));
  }
  return undefined;
}

/** Logged-out-only routes that actively send a logged-in visitor to /. */
export const REDIRECT_HOME_WHEN_LOGGED_IN: readonly RoutePath[] = Object.freeze(["/login", "/sign-up"]);

/** Where a clinician goes from a patient's page, and where the console starts. */
export const CONSOLE_HOME = "/console" satisfies RoutePath;
/** Where an operator goes from a patient's page, and where the operations console starts. */
export const OPERATIONS_HOME = "/operations" satisfies RoutePath;
/** The one page a clinician without the second factor may open: its setup. */
export const SECOND_FACTOR_SETUP_PAGE = "/my-profile/security" satisfies RoutePath;

/**
 * Path prefixes of the pages whose rule depends on the session: every page behind a login and every
 * page for logged-out visitors only (login, sign-up, password reset). A prefix is the page's path up
 * to its first parameter (`/checkout/:checkoutId` → `/checkout`) and covers what lies under it; one
 * under another is left out. The service worker never stores what they answer (cache-rules.ts).
 */
export function sessionPagePrefixes(pages: Readonly<Record<string, PageEntry>> = PAGES): string[] {
  const prefixes = Object.entries(pages)
    .filter(([, page]) => page.access?.requiresAuthentication || page.access?.notAuthenticated)
    .map(([path]) => path.replace(/\/:.*$/, ""));
  const covers = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}/`);
  return [...new Set(prefixes)]
    .filter((prefix, _, all) => !all.some((other) => other !== prefix && covers(other, prefix)))
    .sort();
}
