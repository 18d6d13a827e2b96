import { MEMBERSHIP_ERRORS, type Subscription } from "@ambercare/contracts/membership";
import { EnvError } from "@ambercare/contracts/server-env";
import { NO_VISIT_CREDITS } from "@ambercare/contracts/visit-types";
import { invoices, subscriptions } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeStripeApi, signStripePayload } from "#api/integrations/payments/stripe-api-fake.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  registerPatient,
  TEST_STRIPE_PRICES,
  type TestApp,
  testConfig,
} from "#api/test-support.ts";

const STRIPE_ENV = {
  PAYMENTS: "stripe",
  STRIPE_SECRET_KEY: "sk_test_fake",
  STRIPE_WEBHOOK_SECRET: "whsec_test_secret",
  ...TEST_STRIPE_PRICES,
  WEB_URL: "http://web.test",
};

/** Stripe's HTTP API, as far as the adapter uses it; every request the SDK sends is kept in `calls`. */
const { fetch: fakeFetch, calls } = createFakeStripeApi();

const clock = createManualClock(new Date("2026-05-01T10:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: STRIPE_ENV, fetch: fakeFetch });
  await t.app.ready();
});
afterAll(async () => t.close());

let eventSeq = 0;
function event(type: string, object: Record<string, unknown>, id = `evt_${++eventSeq}`) {
  return { id, type, data: { object } };
}
async function deliver(body: object, options: { secret?: string; at?: Date } = {}) {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: "POST",
    url: "/ambercare/stripe/webhook",
    headers: {
      "content-type": "application/json",
      "stripe-signature": signStripePayload(
        raw,
        options.secret ?? STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
        options.at ?? clock.now(),
      ),
    },
    payload: raw,
  });
}
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

describe("configuration", () => {
  it("PAYMENTS=stripe needs every Stripe variable", () => {
    expect(() => testConfig({ PAYMENTS: "stripe", STRIPE_SECRET_KEY: "sk" })).toThrow(EnvError);
    expect(() => testConfig({ PAYMENTS: "stripe", STRIPE_SECRET_KEY: "sk" })).toThrow(
      /STRIPE_WEBHOOK_SECRET.*STRIPE_PRICE_PPV_VIDEO/,
    );
    expect(testConfig(STRIPE_ENV).PAYMENTS).toBe("stripe");
    expect(testConfig().PAYMENTS).toBe("demo");
  });
});

describe("Stripe payments", () => {
  let patient: Awaited<ReturnType<typeof registerPatient>>;
  let checkoutId: string;

  beforeAll(async () => {
    patient = await registerPatient(t.app);
  });

  it("starts a Checkout Session with the trial, once per checkout", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/ambercare/subscription-checkout/",
      headers: bearer(patient.access_token),
      payload: { user_id: patient.user_id, interval: "month", last_url: "/membership" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { checkout_url: "https://checkout.stripe.com/c/pay/cs_test_1" } });
    const call = calls.at(-1)!;
    expect(call.url).toBe("https://api.stripe.com/v1/checkout/sessions");
    expect(call.headers.authorization).toBe("Bearer sk_test_fake");
    checkoutId = call.body.get("client_reference_id")!;
    expect(call.headers["idempotency-key"]).toBe(`checkout-${checkoutId}`);
    expect(Object.fromEntries(call.body)).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_monthly",
      "subscription_data[trial_period_days]": "7",
      success_url: "http://web.test/membership",
      customer_email: patient.email,
      "metadata[checkout_id]": checkoutId,
    });
    const pay = await t.app.inject({
      method: "POST",
      url: `/ambercare/checkout/${checkoutId}/pay`,
      headers: bearer(patient.access_token),
      payload: { card_number: "4242424242424242", exp_month: "12", exp_year: "2030", cvc: "123", name: "J" },
    });
    expect(pay.statusCode).toBe(409);
    expect(pay.json()).toEqual({ error: MEMBERSHIP_ERRORS.demoPaymentsOnly, code: "DEMO_PAYMENTS_ONLY" });
  });

  it("refuses unsigned, wrongly signed and stale events", async () => {
    const body = event("checkout.session.completed", { id: "cs_test_1" });
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/ambercare/stripe/webhook",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await deliver(body, { secret: "whsec_other" })).statusCode).toBe(400);
    expect((await deliver(body, { at: new Date(clock.now().getTime() - 301_000) })).statusCode).toBe(400);
    expect(
      await t.db.db.select().from(subscriptions).where(eq(subscriptions.userId, patient.user_id)),
    ).toEqual([]);
  });

  it("applies checkout.session.completed once, however often it is replayed", async () => {
    const completed = event("checkout.session.completed", {
      id: "cs_test_1",
      object: "checkout.session",
      client_reference_id: checkoutId,
      metadata: { checkout_id: checkoutId },
      subscription: "sub_1",
      customer: "cus_1",
      mode: "subscription",
    });
    const first = await deliver(completed);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ data: { received: true, result: "applied" } });
    const replay = await deliver(completed);
    expect(replay.json()).toEqual({ data: { received: true, result: "duplicate" } });
    const rows = await t.db.db.select().from(subscriptions).where(eq(subscriptions.userId, patient.user_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: "trialing",
      provider: "stripe",
      providerSubscriptionId: "sub_1",
    });
    expect((await t.app.membership.history(rows[0]!.id)).map((h) => h.toStatus)).toEqual(["trialing"]);
  });

  it("maps invoice and subscription events to the same state machine, charging nothing twice", async () => {
    const periodStart = new Date(clock.now().getTime() + 7 * 86_400_000);
    const periodEnd = new Date(periodStart.getTime() + 31 * 86_400_000);
    const paid = event("invoice.paid", {
      id: "in_1",
      subscription: "sub_1",
      amount_paid: 900,
      created: unix(periodStart),
      billing_reason: "subscription_cycle",
      lines: { data: [{ period: { start: unix(periodStart), end: unix(periodEnd) } }] },
    });
    expect((await deliver(paid)).json()).toMatchObject({ data: { result: "applied" } });
    // The same invoice again under a new event id (Stripe resends) and the same event replayed.
    expect((await deliver({ ...paid, id: "evt_resent" })).statusCode).toBe(200);
    expect((await deliver(paid)).json()).toMatchObject({ data: { result: "duplicate" } });
    const rows = await t.db.db.select().from(invoices).where(eq(invoices.userId, patient.user_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amountCents: 900, status: "paid", providerInvoiceId: "in_1" });

    const sub = async () =>
      (
        (
          await t.app.inject({
            method: "GET",
            url: `/ambercare/get-subscription/${patient.user_id}`,
            headers: bearer(patient.access_token),
          })
        ).json() as { data: Subscription }
      ).data;
    expect(await sub()).toMatchObject({
      status: "active",
      current_period_start: periodStart.toISOString(),
      current_period_end: periodEnd.toISOString(),
    });

    const failed = event("invoice.payment_failed", {
      id: "in_2",
      subscription: "sub_1",
      amount_due: 900,
      created: unix(periodEnd),
      next_payment_attempt: unix(periodEnd) + 3 * 86_400,
    });
    expect((await deliver(failed)).statusCode).toBe(200);
    expect((await sub()).status).toBe("past_due");

    const canceled = event("customer.subscription.updated", {
      id: "sub_1",
      status: "active",
      cancel_at_period_end: true,
      items: {
        data: [
          {
            price: { id: "price_yearly" },
            current_period_start: unix(periodStart),
            current_period_end: unix(periodEnd),
          },
        ],
      },
    });
    expect((await deliver(canceled)).statusCode).toBe(200);
    // past_due → active → canceled, each step recorded; the price tells the new plan.
    expect(await sub()).toMatchObject({ status: "canceled", interval: "year", cancel_at_period_end: true });

    const deleted = event("customer.subscription.deleted", {
      id: "sub_1",
      status: "canceled",
      ended_at: unix(periodEnd),
    });
    expect((await deliver(deleted)).statusCode).toBe(200);
    const ended = await sub();
    expect(ended.status).toBe("ended");
    expect(
      (await t.app.membership.history(ended.id)).map((h) => `${h.fromStatus ?? "none"}>${h.toStatus}`),
    ).toEqual([
      "none>trialing",
      "trialing>active",
      "active>past_due",
      "past_due>active",
      "active>canceled",
      "canceled>ended",
    ]);
    // Nothing leaves ended, whatever Stripe says later.
    expect(
      (await deliver(event("customer.subscription.updated", { id: "sub_1", status: "active" }))).statusCode,
    ).toBe(200);
    expect((await sub()).status).toBe("ended");
  });

  it("asks Stripe to resend events about a subscription it does not know yet; ignores other types", async () => {
    const early = await deliver(
      event("invoice.paid", { id: "in_x", subscription: "sub_unknown", amount_paid: 900 }),
    );
    expect(early.statusCode).toBe(409);
    const other = await deliver(event("customer.created", { id: "cus_2" }));
    expect(other.json()).toEqual({ data: { received: true, result: "ignored" } });
  });

  it("a paid one-time visit gives one credit", async () => {
    const p = await registerPatient(t.app);
    const res = await t.app.inject({
      method: "POST",
      url: "/ambercare/visit-checkout/",
      headers: bearer(p.access_token),
      payload: { user_id: p.user_id, plan: "ppv_chat" },
    });
    expect(res.statusCode).toBe(200);
    const call = calls.at(-1)!;
    expect(Object.fromEntries(call.body)).toMatchObject({
      mode: "payment",
      "line_items[0][price]": "price_chat",
    });
    expect(call.body.has("subscription_data[trial_period_days]")).toBe(false);
    const id = call.body.get("client_reference_id")!;
    const completed = event("checkout.session.completed", {
      id: "cs_v",
      client_reference_id: id,
      amount_total: 2900,
      mode: "payment",
    });
    expect((await deliver(completed)).statusCode).toBe(200);
    expect((await deliver({ ...completed, id: "evt_other" })).statusCode).toBe(200);
    expect(await t.app.membership.entitlement(p.user_id)).toEqual({
      member: false,
      visitCredits: { ...NO_VISIT_CREDITS, chat: 1 },
    });
  });

  it("cancel and resume go through Stripe first", async () => {
    const p = await registerPatient(t.app);
    await t.app.inject({
      method: "POST",
      url: "/ambercare/subscription-checkout/",
      headers: bearer(p.access_token),
      payload: { user_id: p.user_id, interval: "year" },
    });
    const id = calls.at(-1)!.body.get("client_reference_id")!;
    await deliver(
      event("checkout.session.completed", {
        id: "cs_y",
        client_reference_id: id,
        subscription: "sub_2",
        customer: "cus_3",
      }),
    );
    const cancel = await t.app.inject({
      method: "POST",
      url: "/ambercare/cancel-subscription/",
      headers: bearer(p.access_token),
      payload: { user_id: p.user_id },
    });
    expect(cancel.json()).toMatchObject({ data: { status: "canceled" } });
    expect(calls.at(-1)!.url).toBe("https://api.stripe.com/v1/subscriptions/sub_2");
    expect(calls.at(-1)!.body.get("cancel_at_period_end")).toBe("true");
    const resume = await t.app.inject({
      method: "POST",
      url: "/ambercare/resume-subscription/",
      headers: bearer(p.access_token),
      payload: { user_id: p.user_id },
    });
    expect(resume.json()).toMatchObject({ data: { status: "trialing" } });
    expect(calls.at(-1)!.body.get("cancel_at_period_end")).toBe("false");
  });
});
