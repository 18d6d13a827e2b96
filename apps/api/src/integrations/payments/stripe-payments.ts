import { createHmac, timingSafeEqual } from "node:crypto";
import type { PlanKey } from "@ambercare/contracts/plans";
import type { FetchLike } from "#api/platform/http-client.ts";

/**
 * The Stripe adapter (PAYMENTS=stripe): Checkout Sessions through Stripe's HTTP API (called with an
 * injectable `fetch`, so tests run without the network), and webhook signature checks. Renewals and
 * retries are Stripe's; their outcome arrives as webhook events (modules/membership/stripe-webhook-routes.ts).
 */

export const STRIPE_API = "https://api.stripe.com/v1";
/** Stripe's own default tolerance for a webhook's timestamp. */
export const WEBHOOK_TOLERANCE_S = 300;

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  prices: Readonly<Record<PlanKey, string>>;
  fetch?: FetchLike;
};

export type StripeCheckoutInput = {
  checkoutId: string;
  plan: PlanKey;
  mode: "subscription" | "payment";
  trialDays: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
};

export class StripeApiError extends Error {
  override name = "StripeApiError";
  constructor(readonly status: number) {
    super(`Stripe answered ${status}`);
  }
}

/** Stripe's form encoding: nested keys in brackets. */
function formBody(params: Record<string, string | number | boolean | undefined>): string {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) body.append(key, String(value));
  return body.toString();
}

export function createStripePayments(settings: StripeSettings) {
  const fetchFn = settings.fetch ?? fetch;

  async function call<T>(
    path: string,
    params: Record<string, string | number | boolean | undefined>,
    idempotencyKey?: string,
  ) {
    const response = await fetchFn(`${STRIPE_API}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${settings.secretKey}`,
        "content-type": "application/x-www-form-urlencoded",
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: formBody(params),
    });
    // Stripe's error body may quote what was sent; only the status leaves this function.
    if (!response.ok) throw new StripeApiError(response.status);
    return (await response.json()) as T;
  }

  return {
    kind: "stripe" as const,

    /** A Checkout Session; the checkout id is the idempotency key, so a double submit makes one. */
    async createCheckoutSession(input: StripeCheckoutInput): Promise<{ id: string; url: string }> {
      const subscription = input.mode === "subscription";
      return call<{ id: string; url: string }>(
        "/checkout/sessions",
        {
          mode: input.mode,
          "line_items[0][price]": settings.prices[input.plan],
          "line_items[0][quantity]": 1,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.checkoutId,
          customer_email: input.customerEmail,
          "metadata[checkout_id]": input.checkoutId,
          "subscription_data[metadata][checkout_id]": subscription ? input.checkoutId : undefined,
          "subscription_data[trial_period_days]":
            subscription && input.trialDays > 0 ? input.trialDays : undefined,
          "payment_intent_data[metadata][checkout_id]": subscription ? undefined : input.checkoutId,
        },
        `checkout-${input.checkoutId}`,
      );
    },

    /** Cancel at the period's end (true) or resume (false). */
    async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
      await call(`/subscriptions/${encodeURIComponent(subscriptionId)}`, { cancel_at_period_end: cancel });
    },

    /** Ends a subscription at once (a past-due membership the patient cancels). */
    async cancelNow(subscriptionId: string): Promise<void> {
      const response = await fetchFn(`${STRIPE_API}/subscriptions/${encodeURIComponent(subscriptionId)}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${settings.secretKey}` },
      });
      if (!response.ok) throw new StripeApiError(response.status);
    },

    /**
     * Moves the subscription to another price from the next renewal on: a schedule made from the
     * subscription keeps the current phase and adds one with the new price.
     */
    async changePriceAtRenewal(
      subscriptionId: string,
      currentPlan: PlanKey,
      nextPlan: PlanKey,
      periodStart: Date,
      periodEnd: Date,
    ): Promise<void> {
      const schedule = await call<{ id: string }>("/subscription_schedules", {
        from_subscription: subscriptionId,
      });
      await call(`/subscription_schedules/${encodeURIComponent(schedule.id)}`, {
        end_behavior: "release",
        "phases[0][items][0][price]": settings.prices[currentPlan],
        "phases[0][start_date]": Math.floor(periodStart.getTime() / 1000),
        "phases[0][end_date]": Math.floor(periodEnd.getTime() / 1000),
        "phases[1][items][0][price]": settings.prices[nextPlan],
        "phases[1][proration_behavior]": "none",
      });
    },
  };
}

export type StripePayments = ReturnType<typeof createStripePayments>;

/** `Stripe-Signature: t=…,v1=…[,v1=…]` over `${t}.${raw body}` with HMAC-SHA256, ±300 s. */
export function verifyStripeSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  now: Date,
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2);
    if (key === "t" && value && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === "v1" && value) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_S) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return signatures.some((signature) => sameHex(signature, expected));
}

/** Signs a payload as Stripe does (tests and local replays). */
export function signStripePayload(rawBody: string, secret: string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signature = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

/** Constant-time comparison of two hex signatures (different lengths never match). */
function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
