import { NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES } from "@ambercare/contracts/timing";

/**
 * When the not-subscribed popup may open (5 s after navigating, outside the excluded prefixes).
 * Plain data and functions: the layout's
 * component and the unit tests share them, and nothing here weighs on the bundle.
 */

/**
 * The spec's excluded prefixes, plus the hosted checkout: a patient paying for a membership or a
 * visit must not be asked to subscribe on top of it; plus the visit's own pages (ADR 062): the call
 * and the visit page are under /my-profile already, `/call-ended` is where a patient lands when the
 * call ends, and the browser-side reads of a visit (`/visit-call`, `/visit-chat`) are never pages
 * with an offer either. The offer never interrupts care.
 */
export const POPUP_EXCLUDED_PREFIXES: readonly string[] = Object.freeze([
  ...NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES,
  "/checkout",
  "/call-ended",
  "/visit-call",
  "/visit-chat",
]);

/** The sessionStorage key that remembers a dismissal until the browser tab's session ends. */
export const POPUP_DISMISSED_KEY = "ambercare.notSubscribedPopup.dismissed";

/**
 * Whether `pathname` lies under an excluded prefix. Prefixes match whole path segments:
 * `/consultation` and `/consultation/form` are excluded, `/consultations-guide` is not.
 */
export function isPopupExcludedPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return POPUP_EXCLUDED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export type PopupState = {
  isLoggedIn: boolean;
  /** null: the subscription status is not known (lookup failed): never nag on a guess. */
  isSubscribed: boolean | null;
  pathname: string;
  dismissed: boolean;
};

/** A logged-in, non-subscribed visitor who has not dismissed it, on a page outside the exclusions. */
export function shouldOfferSubscription(state: PopupState): boolean {
  return (
    state.isLoggedIn &&
    state.isSubscribed === false &&
    !state.dismissed &&
    !isPopupExcludedPath(state.pathname)
  );
}
