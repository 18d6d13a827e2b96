import type {
  BillingInterval,
  CancelReason,
  Checkout,
  Invoice,
  Subscription,
  VisitEntitlement,
  VisitPlanKey,
} from "@ambercare/contracts/membership";
import type { SessionCookieName } from "@ambercare/contracts/session";
import type { CardDetails } from "#app/features/membership/membership-forms.ts";
import {
  flagsFromCookies,
  type SubscriptionFlags,
  subscriptionCookieValues,
  subscriptionFlags,
} from "#app/features/membership/subscription-flags.ts";
import { userApi } from "#app/lib/api.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import type { ApiErrorOptions } from "#app/lib/api-errors.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { logoutEvent, readSession, type SessionUser, sessionCookie } from "#app/lib/session.server.ts";

/**
 * The membership and billing calls of the care API (ADR 015) for the routes' loaders and actions,
 * always with the patient's own token (`userApi`): a 401 is the logout event. Each call throws
 * `ApiError` when the API refuses (or answers outside its contract); `describeApiError(error,
 * BILLING_ERROR_OPTIONS)` (lib/api-errors.ts) turns it into a message in the visitor's language.
 */

/** The care API's id of the patient: every membership call names it (`user_id`). */
function careUserId(request: Request, user: SessionUser): string {
  // A session without it cannot make a membership call: treat it as lost (logout event).
  if (!user.careUserId) throw logoutEvent(request);
  return user.careUserId;
}

/** `GET /{product}/get-subscription/{userId}`: the patient's latest membership, or null. */
export async function lookupSubscription(request: Request, user: SessionUser): Promise<Subscription | null> {
  const userId = careUserId(request, user);
  return (await userApi(request, user).membership.getSubscription({ params: { userId } })).data;
}

/** Set-Cookie values recording the session's subscription flags. */
export function subscriptionCookies(request: Request, subscription: Subscription | null): string[] {
  const secure = isSecureRequest(request);
  const values = subscriptionCookieValues(subscriptionFlags(subscription));
  return Object.entries(values).map(([name, value]) =>
    sessionCookie(name as SessionCookieName, value, { secure }),
  );
}

/**
 * The session's subscription flags: from the cookies when this session has looked them up already,
 * else from one lookup (whose cookies are returned to be set). A failed lookup leaves the status
 * unknown (`flags: null`): a public page never fails or logs anyone out because of it.
 */
export async function sessionSubscription(
  request: Request,
  user: SessionUser | null,
): Promise<{ flags: SubscriptionFlags | null; cookies: string[] }> {
  if (!user) return { flags: null, cookies: [] };
  const cached = flagsFromCookies(readSession(request));
  if (cached) return { flags: cached, cookies: [] };
  try {
    const subscription = await lookupSubscription(request, user);
    return { flags: subscriptionFlags(subscription), cookies: subscriptionCookies(request, subscription) };
  } catch (error) {
    if (error instanceof Response || isApiError(error)) return { flags: null, cookies: [] };
    throw error;
  }
}

/**
 * What the patient may use for a consultation now (a membership, unused one-time visits), asked of
 * the API on every call: a payment or a membership's change (a Stripe return, a webhook, a renewal
 * that failed) is known at once, whatever the session's cookies recorded before. When the answer
 * disagrees with those cookies they are recorded anew (`cookies`), so the header and the
 * not-subscribed popup agree from the next page on. A failed call leaves it unknown (null).
 */
export async function currentVisitEntitlement(
  request: Request,
  user: SessionUser | null,
): Promise<{ entitlement: VisitEntitlement | null; cookies: string[] }> {
  if (!user) return { entitlement: null, cookies: [] };
  try {
    const userId = careUserId(request, user);
    const entitlement = (await userApi(request, user).membership.visitEntitlement({ params: { userId } }))
      .data;
    const recorded = flagsFromCookies(readSession(request));
    if (recorded?.isSubscribed === entitlement.is_subscribed) return { entitlement, cookies: [] };
    const cookies = subscriptionCookies(request, await lookupSubscription(request, user));
    return { entitlement, cookies };
  } catch (error) {
    if (error instanceof Response || isApiError(error)) return { entitlement: null, cookies: [] };
    throw error;
  }
}

/** `POST /{product}/subscription-checkout/`: the page where the patient pays (or starts the trial). */
export async function startSubscriptionCheckout(
  request: Request,
  user: SessionUser,
  input: { interval: BillingInterval; lastUrl: string },
): Promise<string> {
  const body = { user_id: careUserId(request, user), interval: input.interval, last_url: input.lastUrl };
  return (await userApi(request, user).membership.startSubscriptionCheckout({ body })).data.checkout_url;
}

/** `POST /{product}/visit-checkout/`: the page where the patient pays for one consultation. */
export async function startVisitCheckout(
  request: Request,
  user: SessionUser,
  input: { plan: VisitPlanKey; lastUrl: string },
): Promise<string> {
  const body = { user_id: careUserId(request, user), plan: input.plan, last_url: input.lastUrl };
  return (await userApi(request, user).membership.startVisitCheckout({ body })).data.checkout_url;
}

export async function getCheckout(
  request: Request,
  user: SessionUser,
  checkoutId: string,
): Promise<Checkout> {
  return (await userApi(request, user).membership.getCheckout({ params: { checkoutId } })).data;
}

/** `POST /{product}/checkout/{id}/pay` (demo payments): where to go once paid. */
export async function payCheckout(
  request: Request,
  user: SessionUser,
  checkoutId: string,
  card: CardDetails,
): Promise<{ returnUrl: string }> {
  const answer = await userApi(request, user).membership.payCheckout({ params: { checkoutId }, body: card });
  return { returnUrl: answer.data.return_url };
}

export async function cancelSubscription(request: Request, user: SessionUser): Promise<Subscription> {
  const body = { user_id: careUserId(request, user) };
  return (await userApi(request, user).membership.cancelSubscription({ body })).data;
}

export async function resumeSubscription(request: Request, user: SessionUser): Promise<Subscription> {
  const body = { user_id: careUserId(request, user) };
  return (await userApi(request, user).membership.resumeSubscription({ body })).data;
}

export async function changeInterval(
  request: Request,
  user: SessionUser,
  interval: BillingInterval,
): Promise<Subscription> {
  const body = { user_id: careUserId(request, user), interval };
  return (await userApi(request, user).membership.changeInterval({ body })).data;
}

/** `POST /{product}/cancel-subscription/feedback`: why the patient leaves (the comment is optional). */
export async function sendCancelFeedback(
  request: Request,
  user: SessionUser,
  input: { subscriptionId: string; reason: CancelReason; comment: string },
): Promise<void> {
  const body = {
    user_id: careUserId(request, user),
    subscription_id: input.subscriptionId,
    reason: input.reason,
    ...(input.comment ? { comment: input.comment } : {}),
  };
  await userApi(request, user).membership.sendCancelFeedback({ body });
}

/** `GET /{product}/invoices`: the patient's own invoices, newest first. */
export async function listInvoices(request: Request, user: SessionUser): Promise<Invoice[]> {
  return (await userApi(request, user).membership.listInvoices()).data;
}

export async function getInvoice(request: Request, user: SessionUser, invoiceId: string): Promise<Invoice> {
  return (await userApi(request, user).membership.getInvoice({ params: { invoiceId } })).data;
}

/** How billing pages word a refused call the catalogue has nothing precise for, and an outage. */
export const BILLING_ERROR_OPTIONS: ApiErrorOptions = {
  fallback: { key: "billing.errors.unexpected" },
  unavailable: "billing.errors.serviceUnavailable",
};
