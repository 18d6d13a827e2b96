/**
 * Route flags, in one place to audit. Every route in routes.ts has an entry here and
 * every entry has a route (route-access.test.ts); each route's loader enforces its entry on its first
 * line with `requireRouteAccess(request, "<path>")` (session.server.ts).
 *
 * - `requiresAuthentication`: anonymous visitors are redirected to /login?redirectTo=<path>.
 * - `role`: on a `requiresAuthentication` page, the account's role it is for. A "patient" page
 *   (the patient's own data, the intake form, checkout) sends a clinician to /console; a
 *   "clinician" page (the care console) refuses anyone else with 403, and sends a clinician whose
 *   second factor is still off to /my-profile/security, the one other page a clinician may open.
 *   A page without a role is for both (/my-profile/security: the second factor's setup).
 * - `notAuthenticated`: pages for logged-out visitors. A logged-in visitor is redirected to / from
 *   the paths in REDIRECT_HOME_WHEN_LOGGED_IN and told "you are already logged in" on the others
 *   (only /login and /sign-up actively redirect; the others are merely forbidden).
 *
 * Beyond the product's required routes: /confirm-subscription (the newsletter's double opt-in),
 * /account-deleted and /my-profile/health-data (Washington My Health My Data), see ADR 017;
 * /my-profile/security, /login/second-factor and /login/lost-device (two-step login), see ADR 024;
 * /console (the care console of clinicians), see ADR 035, and /console/visits/:id (a visit's
 * workspace), see ADR 039; /my-profile/consultations/:consultationId
 * (one visit's waiting room, chat and summary), see ADR 040.
 *
 * The catch-all route (`*`, unknown paths redirect to /) is not a page and has no entry, nor have the
 * resource routes (files ending in .ts in routes.ts), which check access themselves.
 * This module is plain data: tests and the e2e suite import it.
 */
export type RouteRole = "patient" | "clinician";
export type RouteAccess = Readonly<{
  requiresAuthentication?: true;
  notAuthenticated?: true;
  role?: RouteRole;
}>;

export const ROUTE_ACCESS = Object.freeze({
  "/": {},
  "/about": {},
  "/ada-policy": {},
  "/almost-there": {},
  "/audio-video-recording-consent-in-ehrs": {},
  "/blog": {},
  "/blog/:page": {},
  "/call-ended": {},
  "/careers": {},
  "/careers/:page": {},
  "/conditions-we-see": {},
  "/consultation/consult": {},
  "/consultation/form": { requiresAuthentication: true, role: "patient" },
  "/consultation/thank-you": {},
  "/contact-us": {},
  "/disclaimer": {},
  "/find-a-doctor": {},
  "/find-a-doctor/:page": {},
  "/frequently-asked-questions": {},
  "/informed-consent": {},
  "/medical-providers": {},
  "/membership": {},
  "/membership-trial": {},
  "/miscellaneous": {},
  "/non-discrimination-notice": {},
  "/one-time-visit": {},
  "/patient-consent-for-financial-communications": {},
  "/pricing-options": {},
  "/privacy-policy": {},
  "/sitemap": {},
  "/specializations": {},
  "/terms-of-use": {},
  "/thank-you-for-ordering": {},
  "/thank-you-for-subscribing": {},
  "/unsubscribe": {},
  "/confirm-subscription": {},
  "/account-deleted": {},
  "/washington-consumer-health-data-privacy-notice": {},
  "/logout": {},
  "/cancel-subscription": { requiresAuthentication: true, role: "patient" },
  "/checkout/:checkoutId": { requiresAuthentication: true, role: "patient" },
  "/my-profile": { requiresAuthentication: true, role: "patient" },
  "/my-profile/billing-history": { requiresAuthentication: true, role: "patient" },
  "/my-profile/billing-history/:invoiceId": { requiresAuthentication: true, role: "patient" },
  "/my-profile/consultations": { requiresAuthentication: true, role: "patient" },
  "/my-profile/consultations/:consultationId": { requiresAuthentication: true, role: "patient" },
  "/my-profile/manage-subscription": { requiresAuthentication: true, role: "patient" },
  "/my-profile/medical-records": { requiresAuthentication: true, role: "patient" },
  "/my-profile/messages": { requiresAuthentication: true, role: "patient" },
  "/my-profile/past-appointments": { requiresAuthentication: true, role: "patient" },
  "/my-profile/health-data": { requiresAuthentication: true, role: "patient" },
  "/my-profile/security": { requiresAuthentication: true },
  "/console": { requiresAuthentication: true, role: "clinician" },
  "/console/visits/:id": { requiresAuthentication: true, role: "clinician" },
  "/login": { notAuthenticated: true },
  "/login/second-factor": { notAuthenticated: true },
  "/login/lost-device": { notAuthenticated: true },
  "/sign-up": { notAuthenticated: true },
  "/sign-up/confirm": { notAuthenticated: true },
  "/forgot-password": { notAuthenticated: true },
  "/reset-password": { notAuthenticated: true },
} as const satisfies Record<string, RouteAccess>);

export type RoutePath = keyof typeof ROUTE_ACCESS;

export const ROUTE_PATHS = Object.freeze(Object.keys(ROUTE_ACCESS) as RoutePath[]);

/** Logged-out-only routes that actively send a logged-in visitor to /. */
export const REDIRECT_HOME_WHEN_LOGGED_IN: readonly RoutePath[] = Object.freeze(["/login", "/sign-up"]);

export function routeAccess(path: RoutePath): RouteAccess {
  return ROUTE_ACCESS[path];
}

/** Where a clinician goes from a patient's page, and where the console starts. */
export const CONSOLE_HOME = "/console" satisfies RoutePath;
/** The one page a clinician without the second factor may open: its setup. */
export const SECOND_FACTOR_SETUP_PAGE = "/my-profile/security" satisfies RoutePath;

export function isRoutePath(value: string): value is RoutePath {
  return Object.hasOwn(ROUTE_ACCESS, value);
}
