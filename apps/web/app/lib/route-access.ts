/**
 * Route flags, in one place to audit. Every route in routes.ts has an entry here and
 * every entry has a route (route-access.test.ts); each route's loader enforces its entry on its first
 * line with `requireRouteAccess(request, "<path>")` (session.server.ts).
 *
 * - `requiresAuthentication`: anonymous visitors are redirected to /login?redirectTo=<path>.
 * - `notAuthenticated`: pages for logged-out visitors. A logged-in visitor is redirected to / from
 *   the paths in REDIRECT_HOME_WHEN_LOGGED_IN and told "you are already logged in" on the others
 *   (only /login and /sign-up actively redirect; the others are merely forbidden).
 *
 * Beyond the product's required routes: /confirm-subscription (the newsletter's double opt-in),
 * /account-deleted and /my-profile/health-data (Washington My Health My Data), see ADR 017;
 * /my-profile/security, /login/second-factor and /login/lost-device (two-step login), see ADR 024.
 *
 * The catch-all route (`*`, unknown paths redirect to /) is not a page and has no entry, nor have the
 * resource routes (files ending in .ts in routes.ts), which check access themselves.
 * This module is plain data: tests and the e2e suite import it.
 */
export type RouteAccess = Readonly<{ requiresAuthentication?: true; notAuthenticated?: true }>;

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
  "/consultation/form": { requiresAuthentication: true },
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
  "/cancel-subscription": { requiresAuthentication: true },
  "/checkout/:checkoutId": { requiresAuthentication: true },
  "/my-profile": { requiresAuthentication: true },
  "/my-profile/billing-history": { requiresAuthentication: true },
  "/my-profile/billing-history/:invoiceId": { requiresAuthentication: true },
  "/my-profile/consultations": { requiresAuthentication: true },
  "/my-profile/manage-subscription": { requiresAuthentication: true },
  "/my-profile/medical-records": { requiresAuthentication: true },
  "/my-profile/messages": { requiresAuthentication: true },
  "/my-profile/past-appointments": { requiresAuthentication: true },
  "/my-profile/health-data": { requiresAuthentication: true },
  "/my-profile/security": { requiresAuthentication: true },
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

export function isRoutePath(value: string): value is RoutePath {
  return Object.hasOwn(ROUTE_ACCESS, value);
}
