import type { SubscriptionStatus } from "@ambercare/contracts/membership-constants";
import { SESSION_COOKIES } from "@ambercare/contracts/session";

/**
 * The subscription values of the session (isSubscribed, subscriptionId, subscriptionEnded,
 * subscriptionCanceled, subscriptionTrialing, subscriptionStatusChecked), derived from one
 * subscription lookup. Plain data, no server code: the unit tests and the root loader share it.
 */

export type SubscriptionFlags = {
  isSubscribed: boolean;
  subscriptionId: string | null;
  subscriptionEnded: boolean;
  subscriptionCanceled: boolean;
  subscriptionTrialing: boolean;
};

/**
 * A patient keeps the membership's benefits while trialing, active, canceled (access stays until the
 * period ends) and past due (the renewal is being retried); only an ended membership — or none —
 * leaves them not subscribed.
 */
export function subscriptionFlags(
  subscription: { id: string; status: SubscriptionStatus } | null | undefined,
): SubscriptionFlags {
  if (!subscription) {
    return {
      isSubscribed: false,
      subscriptionId: null,
      subscriptionEnded: false,
      subscriptionCanceled: false,
      subscriptionTrialing: false,
    };
  }
  const { status } = subscription;
  return {
    isSubscribed: status !== "ended",
    subscriptionId: subscription.id,
    subscriptionEnded: status === "ended",
    subscriptionCanceled: status === "canceled",
    subscriptionTrialing: status === "trialing",
  };
}

/** Cookie name → value for the flags; `subscriptionStatusChecked` records that the lookup happened. */
export function subscriptionCookieValues(flags: SubscriptionFlags): Record<string, string> {
  return {
    [SESSION_COOKIES.isSubscribed]: String(flags.isSubscribed),
    [SESSION_COOKIES.subscriptionId]: flags.subscriptionId ?? "",
    [SESSION_COOKIES.subscriptionEnded]: String(flags.subscriptionEnded),
    [SESSION_COOKIES.subscriptionCanceled]: String(flags.subscriptionCanceled),
    [SESSION_COOKIES.subscriptionTrialing]: String(flags.subscriptionTrialing),
    [SESSION_COOKIES.subscriptionStatusChecked]: "true",
  };
}

/**
 * The flags as the cookies hold them, or null when no lookup has been recorded in this session
 * (then the status is unknown, which is not the same as "not subscribed").
 */
export function flagsFromCookies(values: Partial<Record<string, string>>): SubscriptionFlags | null {
  if (values[SESSION_COOKIES.subscriptionStatusChecked] !== "true") return null;
  return {
    isSubscribed: values[SESSION_COOKIES.isSubscribed] === "true",
    subscriptionId: values[SESSION_COOKIES.subscriptionId] || null,
    subscriptionEnded: values[SESSION_COOKIES.subscriptionEnded] === "true",
    subscriptionCanceled: values[SESSION_COOKIES.subscriptionCanceled] === "true",
    subscriptionTrialing: values[SESSION_COOKIES.subscriptionTrialing] === "true",
  };
}
