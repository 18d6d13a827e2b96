import { z } from "zod";
import { userIdSchema } from "./auth.ts";
import { dataEnvelope } from "./envelope.ts";
import {
  BILLING_INTERVALS,
  CANCEL_COMMENT_MAX_LENGTH,
  CANCEL_REASONS,
  CARD_NAME_MAX_LENGTH,
  CHECKOUT_KINDS,
  CHECKOUT_STATUSES,
  INVOICE_STATUSES,
  MEMBERSHIP_PLAN_KEYS,
  RETURN_URL_MAX_LENGTH,
  SUBSCRIPTION_STATUSES,
  VISIT_PLAN_KEYS,
} from "./membership-constants.ts";
import { PLAN_KEYS } from "./plans.ts";
import { textSchema } from "./text.ts";
import { perVisitType } from "./visit-types.ts";

/**
 * Membership and billing on the care API (docs/decisions/015-membership-and-billing.md).
 * Browser code imports the constants from
 * membership-constants.ts (no zod); everything there is re-exported here for server code.
 *
 * Times are ISO 8601 strings (UTC). Money is integer cents, currency "usd".
 */
export * from "./membership-constants.ts";

export const billingIntervalSchema = z.enum(BILLING_INTERVALS);
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
const isoDateTime = z.string();

/**
 * Where to return after paying: a path on the site ("/membership?x=1"), or an absolute URL on the
 * site's own origin (the API keeps only its path). Omitted: /thank-you-for-subscribing or
 * /thank-you-for-ordering. Anything else is 400 (no open redirect).
 */
export const lastUrlSchema = textSchema().trim().min(1).max(RETURN_URL_MAX_LENGTH);

/** `POST /{product}/subscription-checkout/` (user_id, interval, last_url). */
export const subscriptionCheckoutRequest = z
  .object({ user_id: userIdSchema, interval: billingIntervalSchema, last_url: lastUrlSchema.optional() })
  .strict();
export type SubscriptionCheckoutRequest = z.infer<typeof subscriptionCheckoutRequest>;

/** `POST /{product}/visit-checkout/`: one consultation of the plan's type, paid once. */
export const visitCheckoutRequest = z
  .object({ user_id: userIdSchema, plan: z.enum(VISIT_PLAN_KEYS), last_url: lastUrlSchema.optional() })
  .strict();
export type VisitCheckoutRequest = z.infer<typeof visitCheckoutRequest>;

/**
 * Both checkouts answer with the page to send the patient to: the site's own `/checkout/{id}` in demo
 * mode, a Stripe Checkout page with PAYMENTS=stripe.
 */
export const checkoutUrlResponse = dataEnvelope(z.object({ checkout_url: z.string() }).strict());
export type CheckoutUrlResponse = z.infer<typeof checkoutUrlResponse>;

export const checkoutIdSchema = z.uuid();
export const checkoutIdParams = z.object({ checkoutId: checkoutIdSchema });

/** `GET /{product}/checkout/{checkoutId}`: what the demo checkout page shows (owner only). */
export const checkoutSchema = z
  .object({
    id: z.string(),
    kind: z.enum(CHECKOUT_KINDS),
    plan: z.enum(PLAN_KEYS),
    /** What one charge of the plan costs (a trial's first charge is due when the trial ends). */
    amount_cents: z.number().int(),
    currency: z.literal("usd"),
    /** Free days before the first charge: TRIAL_DAYS for a first membership, else 0. */
    trial_days: z.number().int(),
    status: z.enum(CHECKOUT_STATUSES),
    /** A path on the site to go to after paying. */
    return_url: z.string(),
    expires_at: isoDateTime,
  })
  .strict();
export type Checkout = z.infer<typeof checkoutSchema>;
export const checkoutResponse = dataEnvelope(checkoutSchema);

/**
 * `POST /{product}/checkout/{checkoutId}/pay` (demo adapter only). Numbers may carry spaces or
 * dashes; exp_year is 2 or 4 digits. The service checks the details and answers 400 with one of
 * MEMBERSHIP_ERRORS (invalidCardNumber, invalidExpiry, cardExpired, invalidCvc, nameRequired), or 402
 * (cardDeclined, insufficientFunds). The card is never stored: only its brand and last 4 digits.
 */
const cardPart = z.union([textSchema().max(40), z.number().int()]);
export const payCheckoutRequest = z
  .object({
    card_number: textSchema().max(40),
    exp_month: cardPart,
    exp_year: cardPart,
    cvc: textSchema().max(10),
    name: textSchema().max(CARD_NAME_MAX_LENGTH),
  })
  .strict();
export type PayCheckoutRequest = z.infer<typeof payCheckoutRequest>;
/** Paying a paid checkout again answers the same, and charges nothing. */
export const payCheckoutResponse = dataEnvelope(
  z.object({ status: z.literal("paid"), return_url: z.string() }).strict(),
);
export type PayCheckoutResponse = z.infer<typeof payCheckoutResponse>;

/** `GET /{product}/is-subscribed/{userId}`: true while the patient has a membership's access. */
export const isSubscribedResponse = dataEnvelope(z.object({ is_subscribed: z.boolean() }).strict());
export type IsSubscribedResponse = z.infer<typeof isSubscribedResponse>;

/**
 * `GET /{product}/visit-entitlement/{userId}`: what the patient may use for a consultation now — a
 * membership's access, and the one-time visits of each type paid for and not used yet.
 */
export const visitEntitlementResponse = dataEnvelope(
  z
    .object({
      is_subscribed: z.boolean(),
      /** Unused one-time visits, one count per kind of visit (visit-types.ts). */
      visit_credits: z.object(perVisitType(() => z.number().int())).strict(),
    })
    .strict(),
);
export type VisitEntitlement = z.infer<typeof visitEntitlementResponse>["data"];

export const paymentMethodSchema = z.object({ brand: z.string(), last4: z.string() }).strict();
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** The patient's latest membership. */
export const subscriptionSchema = z
  .object({
    id: z.string(),
    plan: z.enum(MEMBERSHIP_PLAN_KEYS),
    interval: billingIntervalSchema,
    status: subscriptionStatusSchema,
    trial_ends_at: isoDateTime.nullable(),
    current_period_start: isoDateTime,
    current_period_end: isoDateTime,
    /** True when canceled: access ends at current_period_end unless resumed before. */
    cancel_at_period_end: z.boolean(),
    canceled_at: isoDateTime.nullable(),
    ended_at: isoDateTime.nullable(),
    /** Null when nothing more will be charged (canceled, ended). */
    next_charge_at: isoDateTime.nullable(),
    next_charge_amount_cents: z.number().int().nullable(),
    /** An interval change waiting for the next renewal (change-interval), else null. */
    pending_interval: billingIntervalSchema.nullable(),
    /** The saved card renewals are charged to. */
    payment_method: paymentMethodSchema.nullable(),
  })
  .strict();
export type Subscription = z.infer<typeof subscriptionSchema>;

/** `GET /{product}/get-subscription/{userId}`: null when the patient never had a membership. */
export const getSubscriptionResponse = dataEnvelope(subscriptionSchema.nullable());
export type GetSubscriptionResponse = z.infer<typeof getSubscriptionResponse>;
/** cancel, resume, change-interval and feedback answer with the membership as it now is. */
export const subscriptionResponse = dataEnvelope(subscriptionSchema);
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;

/** `POST /{product}/cancel-subscription/` and `POST /{product}/resume-subscription/` (user_id). */
export const userIdRequest = z.object({ user_id: userIdSchema }).strict();
export type UserIdRequest = z.infer<typeof userIdRequest>;

/** `POST /{product}/cancel-subscription/feedback`: may come before or after the cancel itself. */
export const cancelFeedbackRequest = z
  .object({
    user_id: userIdSchema,
    subscription_id: z.uuid(),
    reason: z.enum(CANCEL_REASONS),
    comment: textSchema().trim().max(CANCEL_COMMENT_MAX_LENGTH).optional(),
  })
  .strict();
export type CancelFeedbackRequest = z.infer<typeof cancelFeedbackRequest>;

/** `POST /{product}/change-interval/`: takes effect at the next renewal (pending_interval). */
export const changeIntervalRequest = z
  .object({ user_id: userIdSchema, interval: billingIntervalSchema })
  .strict();
export type ChangeIntervalRequest = z.infer<typeof changeIntervalRequest>;

/** `GET /{product}/invoices` (newest first) and `GET /{product}/invoices/{invoiceId}` (owner only). */
export const invoiceSchema = z
  .object({
    id: z.string(),
    /** Human-readable and unique, e.g. "AC-000042". */
    number: z.string(),
    issued_at: isoDateTime,
    paid_at: isoDateTime.nullable(),
    plan: z.enum(PLAN_KEYS),
    /** English; the web may build its own from `plan` and the period. */
    description: z.string(),
    amount_cents: z.number().int(),
    currency: z.literal("usd"),
    status: z.enum(INVOICE_STATUSES),
    /** The membership period paid for; null for a one-time visit. */
    period_start: isoDateTime.nullable(),
    period_end: isoDateTime.nullable(),
    payment_method: paymentMethodSchema.nullable(),
    /**
     * When the payment was given back (a one-time visit that expired or that a clinician canceled),
     * and how much; null when it was not. The invoice stays "paid": the refund is a later event.
     */
    refunded_at: isoDateTime.nullable(),
    refunded_amount_cents: z.number().int().nullable(),
    /**
     * Each refund of this payment, oldest first: an operator may refund one in several parts
     * (ADR 065), whose sum is `refunded_amount_cents`; an automatic refund is one line. Empty when
     * nothing was given back.
     */
    refunds: z.array(z.object({ at: isoDateTime, amount_cents: z.number().int() }).strict()),
  })
  .strict();
export type Invoice = z.infer<typeof invoiceSchema>;
export type InvoiceRefund = Invoice["refunds"][number];
export const invoicesResponse = dataEnvelope(z.array(invoiceSchema));
export type InvoicesResponse = z.infer<typeof invoicesResponse>;
export const invoiceResponse = dataEnvelope(invoiceSchema);
export const invoiceIdParams = z.object({ invoiceId: z.uuid() });

/** What the Stripe webhook answers once an event is applied (or recognised as a replay). */
export const stripeWebhookResponse = dataEnvelope(
  z.object({ received: z.literal(true), result: z.string() }),
);
export type InvoiceResponse = z.infer<typeof invoiceResponse>;

/**
 * Outside production only: `GET /dev/clock` and `POST /dev/clock/advance {seconds}` (the API's clock
 * moves forward; renewals and endings that became due run before the answer). Access tokens expire
 * by the same clock: after a jump of more than 5 hours the patient has to log in again.
 */
export const advanceClockRequest = z
  .object({
    seconds: z
      .number()
      .int()
      .min(1)
      .max(10 * 366 * 24 * 3600),
  })
  .strict();
export const clockResponse = dataEnvelope(z.object({ now: isoDateTime }).strict());
export type ClockResponse = z.infer<typeof clockResponse>;
