import { MEMBERSHIP_ERRORS } from "@ambercare/contracts/membership-constants";
import { perVisitPlan } from "@ambercare/contracts/visit-types";
import { describe, expect, it } from "vitest";
import { WebhookRejectedError } from "#api/integrations/payments/payment-provider.ts";
import { createFakeStripeApi, signStripePayload } from "#api/integrations/payments/stripe-api-fake.ts";
import { createStripePayments } from "#api/integrations/payments/stripe-payments.ts";

const SECRET = "whsec_unit";
const prices = {
  subscription_monthly: "price_monthly",
  subscription_yearly: "price_yearly",
  // price_chat, price_video
  ...perVisitPlan((visit) => `price_${visit.id}`),
};
const now = new Date("2026-05-01T10:00:00Z");
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

function adapter() {
  const api = createFakeStripeApi();
  return {
    api,
    stripe: createStripePayments({
      secretKey: "sk_test_unit",
      webhookSecret: SECRET,
      prices,
      fetch: api.fetch,
    }),
  };
}

function read(stripe: ReturnType<typeof adapter>["stripe"], body: object, at = now, secret = SECRET) {
  const raw = JSON.stringify(body);
  return stripe.readWebhook(raw, signStripePayload(raw, secret, at), now);
}

describe("Stripe adapter calls", () => {
  it("refunds a visit paid on Stripe's page through its Checkout Session, once per idempotency key", async () => {
    const { api, stripe } = adapter();
    const input = {
      providerPaymentId: null,
      checkoutSessionId: "cs_test_7",
      amountCents: 4900,
      idempotencyKey: "refund:invoice-1",
    };
    const refund = await stripe.refund(input);
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "GET https://api.stripe.com/v1/checkout/sessions/cs_test_7",
      "POST https://api.stripe.com/v1/refunds",
    ]);
    expect(Object.fromEntries(api.calls[1]!.body)).toEqual({
      payment_intent: "pi_cs_test_7",
      amount: "4900",
      reason: "requested_by_customer",
    });
    expect(api.calls[1]!.headers["idempotency-key"]).toBe("refund:invoice-1");
    // A retry (after a crash, or the job running twice) asks with the same key and gets the same refund.
    expect(await stripe.refund({ ...input, providerPaymentId: "pi_cs_test_7" })).toEqual(refund);
    expect(api.calls.at(-1)?.headers["idempotency-key"]).toBe("refund:invoice-1");
  });

  it("moves a subscription to the next price at its renewal through a schedule", async () => {
    const { api, stripe } = adapter();
    const periodStart = new Date("2026-05-01T00:00:00Z");
    const periodEnd = new Date("2026-06-01T00:00:00Z");
    await stripe.changePlanAtRenewal({
      providerSubscriptionId: "sub_9",
      currentPlan: "subscription_monthly",
      nextPlan: "subscription_yearly",
      periodStart,
      periodEnd,
    });
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "POST https://api.stripe.com/v1/subscription_schedules",
      "POST https://api.stripe.com/v1/subscription_schedules/sub_sched_1",
    ]);
    expect(api.calls[0]?.body.get("from_subscription")).toBe("sub_9");
    expect(Object.fromEntries(api.calls[1]!.body)).toMatchObject({
      end_behavior: "release",
      "phases[0][items][0][price]": "price_monthly",
      "phases[0][start_date]": String(unix(periodStart)),
      "phases[0][end_date]": String(unix(periodEnd)),
      "phases[1][items][0][price]": "price_yearly",
      "phases[1][proration_behavior]": "none",
    });
  });

  it("ends a subscription at once with DELETE, and takes no card itself", async () => {
    const { api, stripe } = adapter();
    await stripe.cancelNow("sub_9");
    expect(api.calls.at(-1)).toMatchObject({
      method: "DELETE",
      url: "https://api.stripe.com/v1/subscriptions/sub_9",
    });
    expect(stripe.takesCardDetails).toBe(false);
    expect(
      stripe.checkCard(
        { card_number: "4242424242424242", exp_month: 1, exp_year: 2030, cvc: "123", name: "J" },
        now,
      ),
    ).toEqual({
      ok: false,
      status: 409,
      code: "DEMO_PAYMENTS_ONLY",
      message: MEMBERSHIP_ERRORS.demoPaymentsOnly,
    });
    await expect(stripe.charge("tok", 900)).rejects.toThrow();
  });

  it("answers a new checkout with the hosted page's URL and the session's id", async () => {
    const { api, stripe } = adapter();
    await expect(
      stripe.startCheckout({
        checkoutId: "c1",
        plan: "ppv_chat",
        mode: "payment",
        trialDays: 0,
        customerEmail: "jane@example.com",
        successUrl: "http://web.test/thank-you-for-ordering",
        cancelUrl: "http://web.test/one-time-visit",
      }),
    ).resolves.toEqual({ url: "https://checkout.stripe.com/c/pay/cs_test_1", sessionId: "cs_test_1" });
    expect(api.calls[0]?.headers["idempotency-key"]).toBe("checkout-c1");
    expect(Object.fromEntries(api.calls[0]!.body)).toMatchObject({
      mode: "payment",
      "payment_intent_data[metadata][checkout_id]": "c1",
    });
  });
});

describe("Stripe webhook events", () => {
  it("refuses a forged, stale or unreadable delivery", () => {
    const { stripe } = adapter();
    const body = { id: "evt_1", type: "customer.created", data: { object: { id: "cus_1" } } };
    expect(() => read(stripe, body, now, "whsec_other")).toThrow(WebhookRejectedError);
    expect(() => read(stripe, body, new Date(now.getTime() - 301_000))).toThrow("Invalid signature");
    expect(() => read(stripe, body, new Date(now.getTime() + 301_000))).toThrow("Invalid signature");
    expect(read(stripe, body, new Date(now.getTime() + 299_000)).id).toBe("evt_1");
    expect(() => stripe.readWebhook(JSON.stringify(body), undefined, now)).toThrow("Invalid signature");
    const notJson = "{not json";
    expect(() => stripe.readWebhook(notJson, signStripePayload(notJson, SECRET, now), now)).toThrow(
      "Request body is not valid JSON",
    );
    expect(() => read(stripe, { id: "evt_2", type: "x", data: {} })).toThrow("Not a Stripe event");
    expect(read(stripe, body)).toEqual({ id: "evt_1", type: "customer.created", change: { kind: "other" } });
  });

  it("reads Stripe's statuses and prices in the membership's words", () => {
    const { stripe } = adapter();
    const periodEnd = new Date("2026-06-01T10:00:00Z");
    const event = read(stripe, {
      id: "evt_3",
      type: "customer.subscription.updated",
      data: {
        object: {
          id: "sub_1",
          status: "active",
          cancel_at_period_end: true,
          items: { data: [{ price: { id: "price_yearly" }, current_period_end: unix(periodEnd) }] },
        },
      },
    });
    expect(event.change).toMatchObject({
      kind: "subscription_changed",
      providerSubscriptionId: "sub_1",
      status: "canceled",
      cancelAtPeriodEnd: true,
      periodEnd,
      plan: "subscription_yearly",
    });
    const unpaid = read(stripe, {
      id: "evt_4",
      type: "customer.subscription.updated",
      data: {
        object: { id: "sub_1", status: "unpaid", items: { data: [{ price: { id: "price_other" } }] } },
      },
    });
    expect(unpaid.change).toMatchObject({ status: "past_due", plan: undefined });
    const failed = read(stripe, {
      id: "evt_5",
      type: "invoice.payment_failed",
      data: {
        object: { id: "in_1", parent: { subscription_details: { subscription: "sub_1" } }, amount_due: 900 },
      },
    });
    expect(failed.change).toMatchObject({
      kind: "invoice",
      paid: false,
      providerInvoiceId: "in_1",
      providerSubscriptionId: "sub_1",
      amountCents: 900,
    });
  });
});
