import { PLANS } from "./plans.ts";

/**
 * Membership and billing constants with no dependency, so browser code (checkout form, manage
 * subscription page, popup) imports them without pulling zod into the page's JavaScript.
 * membership.ts builds the request and response schemas from the same values
 * (docs/decisions/015-membership-and-billing.md).
 */

/** A first membership starts with this many free days, once per patient. */
export const TRIAL_DAYS = 7;

/** How a membership is billed: "month" → subscription_monthly, "year" → subscription_yearly. */
export const BILLING_INTERVALS = Object.freeze(["month", "year"] as const);
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const PLAN_FOR_INTERVAL: Readonly<Record<BillingInterval, MembershipPlanKey>> = Object.freeze({
  month: "subscription_monthly",
  year: "subscription_yearly",
});

export const MEMBERSHIP_PLAN_KEYS = Object.freeze(["subscription_monthly", "subscription_yearly"] as const);
export type MembershipPlanKey = (typeof MEMBERSHIP_PLAN_KEYS)[number];
/** One-time visits: each buys one consultation of its type (one plan per row of visit-types.ts). */
export { VISIT_PLAN_KEYS, type VisitPlanKey } from "./visit-types.ts";

/**
 * trialing → active → canceled → active | ended; a failed renewal → past_due → active | ended.
 * A canceled membership keeps its access until the period ends; past_due keeps it while payment is
 * retried.
 */
export const SUBSCRIPTION_STATUSES = Object.freeze([
  "trialing",
  "active",
  "canceled",
  "past_due",
  "ended",
] as const);
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A failed renewal is retried this many days later; a second failure ends the membership. */
export const RENEWAL_RETRY_DAYS = 3;

export const CHECKOUT_KINDS = Object.freeze(["subscription", "visit"] as const);
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];
export const CHECKOUT_STATUSES = Object.freeze(["open", "paid", "expired"] as const);
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
/** An unpaid checkout can no longer be paid this long after it was created. */
export const CHECKOUT_TTL_HOURS = 24;

/** Where the patient lands after paying when the checkout carried no `last_url`. */
export const DEFAULT_RETURN_PATHS: Readonly<Record<CheckoutKind, string>> = Object.freeze({
  subscription: "/thank-you-for-subscribing",
  visit: "/thank-you-for-ordering",
});
export const RETURN_URL_MAX_LENGTH = 2000;

/**
 * paid; open (being charged); failed (the charge failed, the membership is past due);
 * void (never paid: the membership ended instead).
 */
export const INVOICE_STATUSES = Object.freeze(["paid", "open", "void", "failed"] as const);
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Reasons offered on the cancel-subscription feedback form. */
export const CANCEL_REASONS = Object.freeze([
  "too_expensive",
  "not_using",
  "found_other_care",
  "technical_problems",
  "missing_features",
  "other",
] as const);
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const CANCEL_COMMENT_MAX_LENGTH = 1000;

/**
 * The demo payment adapter's test cards (Stripe's numbers, so a tester's habits carry over). Any
 * other number that passes the Luhn check is paid as well. `renewalFails` is accepted, but every
 * charge of it fails: with a trial the checkout succeeds and the first charge after the trial fails
 * (the way to see past_due and the retry); without one the checkout is declined.
 */
export const TEST_CARDS = Object.freeze({
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  renewalFails: "4000000000000341",
} as const);
export const CARD_NAME_MAX_LENGTH = 100;

/**
 * The `{ error }` texts of the membership calls. The web matches them to show a translated message;
 * change one only together with the web's translation table.
 */
export const MEMBERSHIP_ERRORS = Object.freeze({
  cardDeclined: "Your card was declined.",
  insufficientFunds: "Your card has insufficient funds.",
  invalidCardNumber: "Your card number is invalid.",
  invalidExpiry: "Your card's expiration date is invalid.",
  cardExpired: "Your card has expired.",
  invalidCvc: "Your card's security code is invalid.",
  nameRequired: "Enter the name on the card.",
  checkoutNotFound: "This checkout does not exist.",
  checkoutExpired: "This checkout has expired. Start again from the pricing page.",
  demoPaymentsOnly: "Card details are only taken here in demo mode.",
  alreadySubscribed: "You already have a membership.",
  noSubscription: "You have no membership.",
  notCanceled: "Your membership is not canceled.",
  cannotCancel: "This membership cannot be canceled.",
  cannotResume: "This membership can no longer be resumed. Start a new one from the pricing page.",
  cannotChangeInterval: "The billing interval of this membership cannot be changed.",
  subscriptionNotFound: "This membership does not exist.",
  invoiceNotFound: "This invoice does not exist.",
  badReturnUrl: "last_url must be a path on this site.",
  providerUnavailable: "The payment service is not answering. Try again in a few minutes.",
} as const);

/** What a membership plan charges per interval, in cents (the yearly plan: 12 × the monthly price). */
export function chargeForInterval(interval: BillingInterval): number {
  return PLANS[PLAN_FOR_INTERVAL[interval]].chargeCents;
}
