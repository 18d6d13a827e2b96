import {
  type Checkout,
  type Invoice,
  MEMBERSHIP_ERRORS,
  type Subscription,
  TEST_CARDS,
} from "@ambercare/contracts/membership";
import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { NO_VISIT_CREDITS } from "@ambercare/contracts/visit-types";
import { subscriptions } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createLogCapture,
  createTestApp,
  registerPatient,
  serviceToken,
  type TestApp,
} from "#api/test-support.ts";

const DAY_S = 24 * 3600;
const clock = createManualClock(new Date("2026-03-10T12:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { WEB_URL: "http://web.test" } });
  await t.app.ready();
});
afterAll(async () => t.close());

type Patient = Awaited<ReturnType<typeof registerPatient>>;
const card = (number: string = TEST_CARDS.success) => ({
  card_number: number.replace(/(\d{4})(?=\d)/g, "$1 "),
  exp_month: "12",
  exp_year: "2030",
  cvc: "123",
  name: "Jane Doe",
});

async function post(p: Patient, url: string, payload: object) {
  return t.app.inject({ method: "POST", url, headers: bearer(p.access_token), payload });
}
async function get(p: Patient, url: string) {
  return t.app.inject({ method: "GET", url, headers: bearer(p.access_token) });
}
function checkoutIdOf(url: string): string {
  const match = /^http:\/\/web\.test\/checkout\/([0-9a-f-]{36})$/.exec(url);
  if (!match) throw new Error(`unexpected checkout url ${url}`);
  return match[1]!;
}
async function startCheckout(p: Patient, interval: "month" | "year" = "month", lastUrl?: string) {
  const res = await post(p, "/ambercare/subscription-checkout/", {
    user_id: p.user_id,
    interval,
    ...(lastUrl ? { last_url: lastUrl } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return checkoutIdOf((res.json() as { data: { checkout_url: string } }).data.checkout_url);
}
async function pay(p: Patient, checkoutId: string, number: string = TEST_CARDS.success) {
  return post(p, `/ambercare/checkout/${checkoutId}/pay`, card(number));
}
async function subscriptionOf(p: Patient): Promise<Subscription | null> {
  const res = await get(p, `/ambercare/get-subscription/${p.user_id}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Subscription | null }).data;
}
async function invoicesOf(p: Patient): Promise<Invoice[]> {
  const res = await get(p, "/ambercare/invoices");
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Invoice[] }).data;
}
async function advance(seconds: number) {
  const res = await t.app.inject({ method: "POST", url: "/dev/clock/advance", payload: { seconds } });
  expect(res.statusCode, res.body).toBe(200);
}
/** Tokens expire by the same clock: log in again after a jump. */
async function relogin(p: Patient): Promise<Patient> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/v1/api/auth/login",
    payload: { email: p.email, password: p.password },
  });
  expect(res.statusCode).toBe(200);
  return { ...p, access_token: (res.json() as { access_token: string }).access_token };
}
async function historyOf(subscriptionId: string) {
  return (await t.app.membership.history(subscriptionId)).map(
    (h) => `${h.fromStatus ?? "none"}>${h.toStatus}`,
  );
}

describe("membership with a trial, cancel, resume and the first charge", () => {
  it("runs trialing → canceled → trialing → active and bills after the trial", async () => {
    let p = await registerPatient(t.app);
    expect(await subscriptionOf(p)).toBeNull();
    const id = await startCheckout(p, "month", "http://web.test/membership?from=popup");

    const shown = await get(p, `/ambercare/checkout/${id}`);
    expect(shown.json()).toMatchObject({
      data: {
        id,
        kind: "subscription",
        plan: "subscription_monthly",
        amount_cents: 900,
        currency: "usd",
        trial_days: TRIAL_DAYS,
        status: "open",
        return_url: "/membership?from=popup",
      } satisfies Partial<Checkout>,
    });

    const paid = await pay(p, id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toEqual({ data: { status: "paid", return_url: "/membership?from=popup" } });
    // A double submit: the same answer, still one membership and nothing charged.
    const again = await pay(p, id, TEST_CARDS.declined);
    expect(again.json()).toEqual(paid.json());
    expect(
      await t.db.db.select().from(subscriptions).where(eq(subscriptions.userId, p.user_id)),
    ).toHaveLength(1);
    expect(await invoicesOf(p)).toEqual([]);

    let sub = await subscriptionOf(p);
    expect(sub).toMatchObject({
      status: "trialing",
      interval: "month",
      plan: "subscription_monthly",
      cancel_at_period_end: false,
      next_charge_amount_cents: 900,
      payment_method: { brand: "visa", last4: "4242" },
    });
    expect(sub?.trial_ends_at).toBe(new Date(clock.now().getTime() + 7 * DAY_S * 1000).toISOString());
    expect(sub?.next_charge_at).toBe(sub?.trial_ends_at);
    expect((await get(p, `/ambercare/visit-entitlement/${p.user_id}`)).json()).toEqual({
      data: { is_subscribed: true, visit_credits: NO_VISIT_CREDITS },
    });
    expect((await get(p, `/ambercare/is-subscribed/${p.user_id}`)).json()).toEqual({
      data: { is_subscribed: true },
    });

    const canceled = await post(p, "/ambercare/cancel-subscription/", { user_id: p.user_id });
    expect(canceled.json()).toMatchObject({
      data: { status: "canceled", cancel_at_period_end: true, next_charge_at: null },
    });
    const feedback = await post(p, "/ambercare/cancel-subscription/feedback", {
      user_id: p.user_id,
      subscription_id: sub?.id,
      reason: "too_expensive",
      comment: "Maybe later",
    });
    expect(feedback.statusCode, feedback.body).toBe(200);
    // Still a member until the trial ends.
    expect((await get(p, `/ambercare/is-subscribed/${p.user_id}`)).json()).toEqual({
      data: { is_subscribed: true },
    });
    const resumed = await post(p, "/ambercare/resume-subscription/", { user_id: p.user_id });
    expect(resumed.json()).toMatchObject({
      data: { status: "trialing", cancel_at_period_end: false, canceled_at: null },
    });

    await advance(8 * DAY_S);
    p = await relogin(p);
    sub = await subscriptionOf(p);
    expect(sub?.status).toBe("active");
    const invoices = await invoicesOf(p);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      amount_cents: 900,
      status: "paid",
      plan: "subscription_monthly",
      period_start: sub?.current_period_start,
      period_end: sub?.current_period_end,
      payment_method: { brand: "visa", last4: "4242" },
    });
    expect(invoices[0]?.number).toMatch(/^AC-\d{6}$/);
    expect(await historyOf(sub!.id)).toEqual([
      "none>trialing",
      "trialing>canceled",
      "canceled>trialing",
      "trialing>active",
    ]);
  });
});

describe("the trial is given once", () => {
  it("a second membership is charged at checkout, with no trial", async () => {
    let p = await registerPatient(t.app);
    await pay(p, await startCheckout(p));
    await post(p, "/ambercare/cancel-subscription/", { user_id: p.user_id });
    await advance(8 * DAY_S);
    p = await relogin(p);
    expect((await subscriptionOf(p))?.status).toBe("ended");
    expect((await get(p, `/ambercare/is-subscribed/${p.user_id}`)).json()).toEqual({
      data: { is_subscribed: false },
    });
    expect(await invoicesOf(p)).toEqual([]);

    const id = await startCheckout(p, "year");
    expect((await get(p, `/ambercare/checkout/${id}`)).json()).toMatchObject({
      data: { trial_days: 0, amount_cents: 10_800, plan: "subscription_yearly" },
    });
    expect((await pay(p, id)).statusCode).toBe(200);
    expect((await pay(p, id)).statusCode).toBe(200);
    const sub = await subscriptionOf(p);
    expect(sub).toMatchObject({ status: "active", interval: "year", trial_ends_at: null });
    const invoices = await invoicesOf(p);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amount_cents: 10_800, status: "paid" });
    expect(await historyOf(sub!.id)).toEqual(["none>active"]);
  });

  it("refuses a second checkout while a membership is live", async () => {
    const p = await registerPatient(t.app);
    const first = await startCheckout(p);
    const second = await startCheckout(p);
    await pay(p, first);
    const res = await post(p, "/ambercare/subscription-checkout/", { user_id: p.user_id, interval: "month" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: MEMBERSHIP_ERRORS.alreadySubscribed, code: "ALREADY_SUBSCRIBED" });
    // The other checkout begun earlier cannot make a second membership.
    const paidTwice = await pay(p, second);
    expect(paidTwice.statusCode).toBe(409);
  });
});

describe("cards", () => {
  it.each([
    [TEST_CARDS.declined, MEMBERSHIP_ERRORS.cardDeclined, "CARD_DECLINED"],
    [TEST_CARDS.insufficientFunds, MEMBERSHIP_ERRORS.insufficientFunds, "INSUFFICIENT_FUNDS"],
  ])("card %s answers 402 and makes no membership", async (number, message, code) => {
    const p = await registerPatient(t.app);
    const id = await startCheckout(p);
    const res = await pay(p, id, number);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: message, code });
    expect(await subscriptionOf(p)).toBeNull();
    expect((await get(p, `/ambercare/checkout/${id}`)).json()).toMatchObject({ data: { status: "open" } });
    // The checkout can still be paid with another card.
    expect((await pay(p, id)).statusCode).toBe(200);
  });

  it.each([
    [{ card_number: "4242 4242 4242 4241" }, MEMBERSHIP_ERRORS.invalidCardNumber, "CARD_NUMBER_INVALID"],
    [{ card_number: "abcd" }, MEMBERSHIP_ERRORS.invalidCardNumber, "CARD_NUMBER_INVALID"],
    [{ exp_month: "13" }, MEMBERSHIP_ERRORS.invalidExpiry, "CARD_EXPIRY_INVALID"],
    [{ exp_year: "2019" }, MEMBERSHIP_ERRORS.cardExpired, "CARD_EXPIRED"],
    [{ exp_month: 2, exp_year: 26 }, MEMBERSHIP_ERRORS.cardExpired, "CARD_EXPIRED"],
    [{ cvc: "12" }, MEMBERSHIP_ERRORS.invalidCvc, "CVC_INVALID"],
    [{ name: "  " }, MEMBERSHIP_ERRORS.nameRequired, "CARD_NAME_REQUIRED"],
  ])("%o answers 400", async (change, message, code) => {
    const p = await registerPatient(t.app);
    const id = await startCheckout(p);
    const res = await post(p, `/ambercare/checkout/${id}/pay`, { ...card(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message, code });
  });

  it("never logs, stores or returns the card number", async () => {
    const logs = createLogCapture();
    const logged = await createTestApp({ env: { LOG_LEVEL: "trace" }, logStream: logs.stream, seed: false });
    try {
      await logged.app.ready();
      const p = await registerPatient(logged.app);
      const started = await logged.app.inject({
        method: "POST",
        url: "/ambercare/subscription-checkout/",
        headers: bearer(p.access_token),
        payload: { user_id: p.user_id, interval: "month" },
      });
      const id = /\/checkout\/([0-9a-f-]{36})$/.exec(started.json().data.checkout_url)![1];
      const res = await logged.app.inject({
        method: "POST",
        url: `/ambercare/checkout/${id}/pay`,
        headers: bearer(p.access_token),
        payload: { ...card(), card_number: TEST_CARDS.success, cvc: "987" },
      });
      expect(res.statusCode).toBe(200);
      expect(logs.lines.length).toBeGreaterThan(0);
      expect(logs.text()).not.toContain(TEST_CARDS.success);
      // No part of the body is logged (a 3-digit CVC alone could match a timestamp by chance).
      expect(logs.text()).not.toContain("card_number");
      expect(logs.text()).not.toContain('"cvc"');
      const rows = await logged.db.db.select().from(subscriptions).where(eq(subscriptions.userId, p.user_id));
      expect(rows[0]?.cardLast4).toBe("4242");
      expect(JSON.stringify(rows)).not.toContain(TEST_CARDS.success);
    } finally {
      await logged.close();
    }
  });
});

describe("renewals by the clock", () => {
  it("renews monthly, switches to yearly at the next renewal, lists invoices newest first", async () => {
    let p = await registerPatient(t.app);
    await pay(p, await startCheckout(p));
    await advance(8 * DAY_S);
    p = await relogin(p);
    const changed = await post(p, "/ambercare/change-interval/", { user_id: p.user_id, interval: "year" });
    expect(changed.json()).toMatchObject({
      data: { interval: "month", pending_interval: "year", next_charge_amount_cents: 10_800 },
    });
    await advance(32 * DAY_S);
    p = await relogin(p);
    const sub = await subscriptionOf(p);
    expect(sub).toMatchObject({
      status: "active",
      interval: "year",
      plan: "subscription_yearly",
      pending_interval: null,
    });
    const invoices = await invoicesOf(p);
    expect(invoices.map((i) => i.amount_cents)).toEqual([10_800, 900]);
    expect(invoices[0]!.issued_at > invoices[1]!.issued_at).toBe(true);
  });

  it("a failed renewal goes past_due, is retried after 3 days and then ends", async () => {
    let p = await registerPatient(t.app);
    await pay(p, await startCheckout(p), TEST_CARDS.renewalFails);
    await advance(7 * DAY_S + 60);
    p = await relogin(p);
    let sub = await subscriptionOf(p);
    expect(sub?.status).toBe("past_due");
    expect(sub?.next_charge_at).toBe(
      new Date(Date.parse(sub!.current_period_end) + 3 * DAY_S * 1000).toISOString(),
    );
    expect((await invoicesOf(p)).map((i) => i.status)).toEqual(["failed"]);
    expect((await get(p, `/ambercare/is-subscribed/${p.user_id}`)).json()).toEqual({
      data: { is_subscribed: true },
    });

    await advance(3 * DAY_S);
    p = await relogin(p);
    sub = await subscriptionOf(p);
    expect(sub?.status).toBe("ended");
    expect((await invoicesOf(p)).map((i) => i.status)).toEqual(["void"]);
    expect(await historyOf(sub!.id)).toEqual(["none>trialing", "trialing>past_due", "past_due>ended"]);
  });

  it("a retry that pays makes the membership active again, charging the period once", async () => {
    let p = await registerPatient(t.app);
    await pay(p, await startCheckout(p), TEST_CARDS.renewalFails);
    await advance(7 * DAY_S + 60);
    // The patient's card works again (as if replaced).
    await t.db.db
      .update(subscriptions)
      .set({ paymentToken: "demo_tok_replaced" })
      .where(eq(subscriptions.userId, p.user_id));
    await advance(3 * DAY_S);
    await t.app.membership.runDue();
    p = await relogin(p);
    const sub = await subscriptionOf(p);
    expect(sub?.status).toBe("active");
    const invoices = await invoicesOf(p);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: "paid", amount_cents: 900 });
    expect(await historyOf(sub!.id)).toEqual(["none>trialing", "trialing>past_due", "past_due>active"]);
  });

  it("canceling a past-due membership ends it at once", async () => {
    let p = await registerPatient(t.app);
    await pay(p, await startCheckout(p), TEST_CARDS.renewalFails);
    await advance(7 * DAY_S + 60);
    p = await relogin(p);
    const res = await post(p, "/ambercare/cancel-subscription/", { user_id: p.user_id });
    expect(res.json()).toMatchObject({ data: { status: "ended" } });
    const resume = await post(p, "/ambercare/resume-subscription/", { user_id: p.user_id });
    expect(resume.statusCode).toBe(409);
    expect(resume.json()).toEqual({ error: MEMBERSHIP_ERRORS.cannotResume, code: "CANNOT_RESUME" });
  });
});

describe("one-time visits and entitlement", () => {
  it("a paid visit gives one credit, spent exactly once under concurrency", async () => {
    const p = await registerPatient(t.app);
    expect(await t.app.membership.entitlement(p.user_id)).toEqual({
      member: false,
      visitCredits: NO_VISIT_CREDITS,
    });
    const res = await post(p, "/ambercare/visit-checkout/", { user_id: p.user_id, plan: "ppv_video" });
    expect(res.statusCode).toBe(200);
    const id = checkoutIdOf(res.json().data.checkout_url);
    expect((await get(p, `/ambercare/checkout/${id}`)).json()).toMatchObject({
      data: {
        kind: "visit",
        plan: "ppv_video",
        amount_cents: 4900,
        trial_days: 0,
        return_url: "/thank-you-for-ordering",
      },
    });
    expect((await pay(p, id)).json()).toEqual({
      data: { status: "paid", return_url: "/thank-you-for-ordering" },
    });
    expect((await pay(p, id)).statusCode).toBe(200);
    expect(await t.app.membership.entitlement(p.user_id)).toEqual({
      member: false,
      visitCredits: { ...NO_VISIT_CREDITS, video: 1 },
    });
    // The web's consult page asks this right after the payment: the visit is known at once.
    expect((await get(p, `/ambercare/visit-entitlement/${p.user_id}`)).json()).toEqual({
      data: { is_subscribed: false, visit_credits: { ...NO_VISIT_CREDITS, video: 1 } },
    });
    expect((await invoicesOf(p)).map((i) => [i.plan, i.amount_cents, i.period_start])).toEqual([
      ["ppv_video", 4900, null],
    ]);

    const attempts = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.db.db.transaction((tx) => t.app.membership.consumeVisitCredit(tx, p.user_id, "video")),
      ),
    );
    expect(attempts.filter(Boolean)).toHaveLength(1);
    expect(await t.app.membership.entitlement(p.user_id)).toEqual({
      member: false,
      visitCredits: NO_VISIT_CREDITS,
    });
  });

  it("concurrent submits of one checkout charge once", async () => {
    const p = await registerPatient(t.app);
    const res = await post(p, "/ambercare/visit-checkout/", { user_id: p.user_id, plan: "ppv_chat" });
    const id = checkoutIdOf(res.json().data.checkout_url);
    const answers = await Promise.all(Array.from({ length: 4 }, () => pay(p, id)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await invoicesOf(p)).toHaveLength(1);
    expect((await t.app.membership.entitlement(p.user_id)).visitCredits).toEqual({
      ...NO_VISIT_CREDITS,
      chat: 1,
    });
  });

  it("a credit spent in a transaction that fails is given back", async () => {
    const p = await registerPatient(t.app);
    const res = await post(p, "/ambercare/visit-checkout/", { user_id: p.user_id, plan: "ppv_chat" });
    await pay(p, checkoutIdOf(res.json().data.checkout_url));
    await expect(
      t.db.db.transaction(async (tx) => {
        expect(await t.app.membership.consumeVisitCredit(tx, p.user_id, "chat")).toBe(true);
        throw new Error("consultation could not be created");
      }),
    ).rejects.toThrow("consultation could not be created");
    expect((await t.app.membership.entitlement(p.user_id)).visitCredits.chat).toBe(1);
  });
});

describe("who may call what", () => {
  let a: Patient;
  let b: Patient;
  let checkoutOfA: string;
  let invoiceOfA: string;

  beforeAll(async () => {
    a = await registerPatient(t.app);
    b = await registerPatient(t.app);
    const res = await post(a, "/ambercare/visit-checkout/", { user_id: a.user_id, plan: "ppv_chat" });
    checkoutOfA = checkoutIdOf(res.json().data.checkout_url);
    await pay(a, checkoutOfA);
    invoiceOfA = (await invoicesOf(a))[0]!.id;
  });

  it("answers 403 for another patient's id, checkout or invoice", async () => {
    const calls = [
      post(b, "/ambercare/subscription-checkout/", { user_id: a.user_id, interval: "month" }),
      post(b, "/ambercare/visit-checkout/", { user_id: a.user_id, plan: "ppv_chat" }),
      get(b, `/ambercare/checkout/${checkoutOfA}`),
      post(b, `/ambercare/checkout/${checkoutOfA}/pay`, card()),
      get(b, `/ambercare/is-subscribed/${a.user_id}`),
      get(b, `/ambercare/visit-entitlement/${a.user_id}`),
      get(b, `/ambercare/get-subscription/${a.user_id}`),
      post(b, "/ambercare/cancel-subscription/", { user_id: a.user_id }),
      post(b, "/ambercare/resume-subscription/", { user_id: a.user_id }),
      post(b, "/ambercare/change-interval/", { user_id: a.user_id, interval: "year" }),
      get(b, `/ambercare/invoices/${invoiceOfA}`),
    ];
    for (const res of await Promise.all(calls)) expect(res.statusCode, res.body).toBe(403);
    expect(await invoicesOf(b)).toEqual([]);
    expect((await get(a, `/ambercare/invoices/${invoiceOfA}`)).statusCode).toBe(200);
  });

  it("answers 403 to the service account and 401 without a token", async () => {
    const service = { ...a, access_token: await serviceToken(t.app) };
    expect((await get(service, `/ambercare/get-subscription/${a.user_id}`)).statusCode).toBe(403);
    expect((await get(service, "/ambercare/invoices")).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: "GET", url: "/ambercare/invoices" });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers bad input with 400 and a message", async () => {
    const bad = [
      post(a, "/ambercare/subscription-checkout/", { user_id: a.user_id, interval: "weekly" }),
      post(a, "/ambercare/subscription-checkout/", {
        user_id: a.user_id,
        interval: "month",
        last_url: "https://evil.example/x",
      }),
      post(a, "/ambercare/subscription-checkout/", {
        user_id: a.user_id,
        interval: "month",
        last_url: "//evil.example/x",
      }),
      post(a, "/ambercare/visit-checkout/", { user_id: a.user_id, plan: "subscription_monthly" }),
      post(a, "/ambercare/cancel-subscription/feedback", {
        user_id: a.user_id,
        subscription_id: checkoutOfA,
        reason: "because",
      }),
      get(a, "/ambercare/checkout/not-a-uuid"),
      get(a, "/ambercare/invoices/not-a-uuid"),
      post(a, "/ambercare/change-interval/", { user_id: a.user_id, interval: "day" }),
    ];
    const answers = await Promise.all(bad);
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(400);
      expect(typeof res.json().error).toBe("string");
    }
    // The off-site return addresses (the 2nd and 3rd) have their own code; the rest fail the schema.
    expect(answers.map((res) => res.json().code)).toEqual(
      answers.map((_, i) => (i === 1 || i === 2 ? "RETURN_URL_INVALID" : "VALIDATION_FAILED")),
    );
    const unknown = await get(a, "/ambercare/checkout/00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);
    expect((await post(a, "/ambercare/cancel-subscription/", { user_id: a.user_id })).statusCode).toBe(404);
  });

  it("an expired checkout cannot be paid", async () => {
    let p = await registerPatient(t.app);
    const id = await startCheckout(p);
    await advance(25 * 3600);
    p = await relogin(p);
    expect((await get(p, `/ambercare/checkout/${id}`)).json()).toMatchObject({ data: { status: "expired" } });
    const res = await pay(p, id);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ error: MEMBERSHIP_ERRORS.checkoutExpired, code: "CHECKOUT_EXPIRED" });
  });

  it("tells the time of the test clock", async () => {
    const res = await t.app.inject({ method: "GET", url: "/dev/clock" });
    expect(res.json()).toEqual({ data: { now: clock.now().toISOString() } });
  });
});

describe("the test clock and the API document", () => {
  it("exists outside production only, on a clock that moves with real time", async () => {
    const production = await createTestApp({
      env: { NODE_ENV: "production", MAIL_TO_FILES: "true" },
      seed: false,
    });
    const development = await createTestApp({ env: { NODE_ENV: "development" }, seed: false });
    try {
      const missing = await production.app.inject({
        method: "POST",
        url: "/dev/clock/advance",
        payload: { seconds: 60 },
      });
      expect(missing.statusCode).toBe(404);
      const before = Date.parse(
        (await development.app.inject({ method: "GET", url: "/dev/clock" })).json().data.now,
      );
      const moved = await development.app.inject({
        method: "POST",
        url: "/dev/clock/advance",
        payload: { seconds: 86_400 },
      });
      expect(Date.parse(moved.json().data.now) - before).toBeGreaterThanOrEqual(86_400_000);
      const backwards = await development.app.inject({
        method: "POST",
        url: "/dev/clock/advance",
        payload: { seconds: -5 },
      });
      expect(backwards.statusCode).toBe(400);
    } finally {
      await production.close();
      await development.close();
    }
    // Two apps with their own databases start inside this test: the time a hook is given.
  }, 60_000);

  it("lists the membership calls in the OpenAPI document", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/docs/json" })).json() as {
      paths: Record<string, unknown>;
    };
    for (const path of [
      "/ambercare/subscription-checkout",
      "/ambercare/visit-checkout",
      "/ambercare/checkout/{checkoutId}",
      "/ambercare/checkout/{checkoutId}/pay",
      "/ambercare/is-subscribed/{userId}",
      "/ambercare/visit-entitlement/{userId}",
      "/ambercare/get-subscription/{userId}",
      "/ambercare/cancel-subscription",
      "/ambercare/cancel-subscription/feedback",
      "/ambercare/resume-subscription",
      "/ambercare/change-interval",
      "/ambercare/invoices",
      "/ambercare/invoices/{invoiceId}",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
