import { MEMBERSHIP_ERRORS, type SubscriptionStatus } from "@ambercare/contracts/membership-constants";
import type { PlanKey } from "@ambercare/contracts/plans";
import Stripe from "stripe";
import {
  type PaymentChange,
  type PaymentEvent,
  type PaymentProvider,
  WebhookRejectedError,
} from "#api/integrations/payments/payment-provider.ts";
import type { FetchLike } from "#api/platform/http-client.ts";

/**
 * The Stripe adapter (PAYMENTS=stripe), on Stripe's official SDK: Checkout Sessions, the calls that
 * cancel, resume or reprice a subscription, and the webhook's signature check and event reading.
 * Renewals and retries are Stripe's; their outcome arrives as webhook events, which the webhook route
 * hands to `readWebhook` and then to the membership module (modules/membership/stripe-webhook-routes.ts).
 */

/** Stripe's own default tolerance for a webhook's timestamp. */
export const WEBHOOK_TOLERANCE_S = 300;

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  prices: Readonly<Record<PlanKey, string>>;
  /** The HTTP client the SDK sends through (tests: the fake Stripe API of stripe-api-fake.ts). */
  fetch?: FetchLike;
};

export type StripePayments = PaymentProvider & {
  /**
   * Verifies the `Stripe-Signature` header over the raw body (at the app's clock) and reads the
   * event. Throws WebhookRejectedError for a forged, stale or unreadable delivery.
   */
  readWebhook(rawBody: string, signature: string | undefined, now: Date): PaymentEvent;
};

export function createStripePayments(settings: StripeSettings): StripePayments {
  const stripe = new Stripe(settings.secretKey, {
    httpClient: Stripe.createFetchHttpClient((settings.fetch ?? fetch) as typeof fetch),
    telemetry: false,
  });
  const planForPrice = (priceId: string): PlanKey | undefined =>
    (Object.entries(settings.prices) as Array<[PlanKey, string]>).find(([, id]) => id === priceId)?.[0];

  return {
    name: "stripe",
    takesCardDetails: false,

    /** A Checkout Session; the checkout id is the idempotency key, so a double submit makes one. */
    async startCheckout(input) {
      const subscription = input.mode === "subscription";
      const metadata = { checkout_id: input.checkoutId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: input.mode,
          line_items: [{ price: settings.prices[input.plan], quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.checkoutId,
          customer_email: input.customerEmail,
          metadata,
          ...(subscription
            ? {
                subscription_data: {
                  metadata,
                  ...(input.trialDays > 0 ? { trial_period_days: input.trialDays } : {}),
                },
              }
            : { payment_intent_data: { metadata } }),
        },
        { idempotencyKey: `checkout-${input.checkoutId}` },
      );
      if (!session.url) throw new Error("Stripe gave a Checkout Session without a URL");
      return { url: session.url, sessionId: session.id };
    },

    checkCard() {
      // Card details go to Stripe's hosted page, never through Ambercare.
      return {
        ok: false,
        status: 409,
        code: "DEMO_PAYMENTS_ONLY",
        message: MEMBERSHIP_ERRORS.demoPaymentsOnly,
      };
    },

    async charge() {
      throw new Error("Stripe charges its subscriptions itself and reports them by webhook");
    },

    async setCancelAtPeriodEnd(providerSubscriptionId, cancel) {
      await stripe.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: cancel });
    },

    async cancelNow(providerSubscriptionId) {
      await stripe.subscriptions.cancel(providerSubscriptionId);
    },

    /**
     * A schedule made from the subscription keeps the current phase and adds one with the new
     * price from the next renewal on.
     */
    async changePlanAtRenewal(change) {
      const schedule = await stripe.subscriptionSchedules.create({
        from_subscription: change.providerSubscriptionId,
      });
      await stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: "release",
        phases: [
          {
            items: [{ price: settings.prices[change.currentPlan] }],
            start_date: unixSeconds(change.periodStart),
            end_date: unixSeconds(change.periodEnd),
          },
          { items: [{ price: settings.prices[change.nextPlan] }], proration_behavior: "none" },
        ],
      });
    },

    /**
     * A Refund of the visit's PaymentIntent, found through its Checkout Session when Ambercare did
     * not record it (visits paid on Stripe's page arrive by webhook with the session only).
     */
    async refund(input) {
      let paymentIntent = input.providerPaymentId;
      if (!paymentIntent && input.checkoutSessionId) {
        const session = await stripe.checkout.sessions.retrieve(input.checkoutSessionId);
        paymentIntent = str(session.payment_intent) ?? null;
      }
      if (!paymentIntent) throw new Error("Stripe gave no payment to refund for this visit");
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntent, amount: input.amountCents, reason: "requested_by_customer" },
        { idempotencyKey: input.idempotencyKey },
      );
      return { providerRefundId: refund.id };
    },

    readWebhook(rawBody, signature, now) {
      // Stripe's check refuses only old timestamps; one from the future is as suspect.
      const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature ?? "")?.[1]);
      if (signedAt > now.getTime() / 1000 + WEBHOOK_TOLERANCE_S)
        throw new WebhookRejectedError("WEBHOOK_SIGNATURE_INVALID", "Invalid signature");
      let event: { id?: unknown; type?: unknown; data?: { object?: unknown } };
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature ?? "",
          settings.webhookSecret,
          WEBHOOK_TOLERANCE_S,
          undefined,
          now.getTime(),
        );
      } catch (error) {
        if (error instanceof SyntaxError)
          throw new WebhookRejectedError("INVALID_JSON", "Request body is not valid JSON");
        throw new WebhookRejectedError("WEBHOOK_SIGNATURE_INVALID", "Invalid signature");
      }
      const object = event.data?.object;
      if (
        !isText(event.id) ||
        !isText(event.type) ||
        typeof object !== "object" ||
        object === null ||
        Array.isArray(object)
      ) {
        throw new WebhookRejectedError("WEBHOOK_EVENT_INVALID", "Not a Stripe event");
      }
      return { id: event.id, type: event.type, change: readChange(event.type, object, planForPrice) };
    },
  };
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const isText = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= 255;

/** The parts of Stripe's event objects read here (all optional: payloads vary by API version). */
// biome-ignore lint/suspicious/noExplicitAny: a webhook payload is untyped JSON, read defensively below
type StripeObject = Record<string, any>;

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== ""
    ? value
    : typeof value === "object" && value && "id" in value && typeof value.id === "string"
      ? value.id
      : undefined;
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) ? value : undefined;
const seconds = (value: unknown): Date | undefined =>
  typeof value === "number" ? new Date(value * 1000) : undefined;

/** Stripe's event types and statuses, in the membership module's words. */
function readChange(
  type: string,
  object: StripeObject,
  planForPrice: (priceId: string) => PlanKey | undefined,
): PaymentChange {
  switch (type) {
    case "checkout.session.completed":
      return {
        kind: "checkout_completed",
        checkoutId: str(object.metadata?.checkout_id) ?? str(object.client_reference_id),
        providerSubscriptionId: str(object.subscription),
        providerCustomerId: str(object.customer),
        amountCents: num(object.amount_total),
      };
    case "invoice.paid":
    case "invoice.payment_failed": {
      const paid = type === "invoice.paid";
      const line = object.lines?.data?.[0]?.period;
      return {
        kind: "invoice",
        paid,
        providerInvoiceId: str(object.id) ?? "",
        providerSubscriptionId:
          str(object.subscription) ?? str(object.parent?.subscription_details?.subscription),
        amountCents: num(paid ? object.amount_paid : object.amount_due) ?? 0,
        periodStart: seconds(line?.start),
        periodEnd: seconds(line?.end),
        issuedAt: seconds(object.created),
        nextAttemptAt: seconds(object.next_payment_attempt),
      };
    }
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const stripeStatus = str(object.status);
      const cancelAtPeriodEnd = object.cancel_at_period_end === true;
      let status: SubscriptionStatus | undefined;
      if (type.endsWith("deleted") || stripeStatus === "canceled" || stripeStatus === "incomplete_expired")
        status = "ended";
      else if (stripeStatus === "past_due" || stripeStatus === "unpaid") status = "past_due";
      else if ((stripeStatus === "trialing" || stripeStatus === "active") && cancelAtPeriodEnd)
        status = "canceled";
      else if (stripeStatus === "trialing" || stripeStatus === "active") status = stripeStatus;
      const item = object.items?.data?.[0];
      const priceId = str(item?.price?.id);
      return {
        kind: "subscription_changed",
        providerSubscriptionId: str(object.id),
        status,
        cancelAtPeriodEnd,
        periodStart: seconds(item?.current_period_start ?? object.current_period_start),
        periodEnd: seconds(item?.current_period_end ?? object.current_period_end),
        canceledAt: seconds(object.canceled_at),
        trialEndsAt: seconds(object.trial_end),
        endedAt: seconds(object.ended_at),
        plan: priceId ? planForPrice(priceId) : undefined,
      };
    }
    default:
      return { kind: "other" };
  }
}
