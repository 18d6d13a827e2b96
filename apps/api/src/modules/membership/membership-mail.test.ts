import { TEST_CARDS } from "@ambercare/contracts/membership";
import { subscriptions, users } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeStripeApi, signStripePayload } from "#api/integrations/payments/stripe-api-fake.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createLogCapture,
  createTestApp,
  parseMail,
  registerPatient,
  startSmtpServer,
  TEST_STRIPE_PRICES,
  type TestApp,
} from "#api/test-support.ts";

/**
 * The e-mails of payments and memberships, delivered to a real SMTP server: what each says (amounts,
 * dates, what to do), in both languages, sent once per event and never in the way of the payment.
 */

const DAY_S = 24 * 3600;
type Patient = Awaited<ReturnType<typeof registerPatient>>;
type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

function mailsTo(smtp: Smtp, email: string) {
  return smtp.received
    .filter((mail) => mail.to.includes(email))
    .map((mail) => parseMail(mail.raw))
    .filter(
      (mail) =>
        !mail.text.includes("/sign-up/confirm?") &&
        !/Welcome|Добре дошли/.test(mail.headers.get("subject") ?? ""),
    );
}

function cardOf(number: string = TEST_CARDS.success) {
  return { card_number: number, exp_month: "12", exp_year: "2030", cvc: "123", name: "Jane Doe" };
}

describe("membership e-mails with the demo processor", () => {
  const clock = createManualClock(new Date("2026-03-10T12:00:00Z"));
  const logs = createLogCapture();
  let smtp: Smtp;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      clock,
      env: { SMTP_URL: smtp.url, WEB_URL: "http://web.test", LOG_LEVEL: "info" },
      logStream: logs.stream,
    });
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = (p: Patient, url: string, payload: object) =>
    t.app.inject({ method: "POST", url, headers: bearer(p.access_token), payload });
  async function checkout(p: Patient, url: string, payload: object) {
    const res = await post(p, url, { user_id: p.user_id, ...payload });
    expect(res.statusCode, res.body).toBe(200);
    return /\/checkout\/([0-9a-f-]{36})$/.exec(res.json().data.checkout_url)![1]!;
  }
  const pay = (p: Patient, id: string, number?: string) =>
    post(p, `/ambercare/checkout/${id}/pay`, cardOf(number));
  async function advance(seconds: number) {
    const res = await t.app.inject({ method: "POST", url: "/dev/clock/advance", payload: { seconds } });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.mailer.drain();
  }
  async function relogin(p: Patient): Promise<Patient> {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/login",
      payload: { email: p.email, password: p.password },
    });
    return { ...p, access_token: res.json().access_token };
  }
  async function received(p: Patient) {
    await t.app.mailer.drain();
    return mailsTo(smtp, p.email);
  }

  it("trial, cancel, resume, new interval and the first charge: one e-mail each, in English", async () => {
    let p = await registerPatient(t.app, { first_name: "Ana" });
    const id = await checkout(p, "/ambercare/subscription-checkout/", { interval: "month" });
    expect((await pay(p, id)).statusCode).toBe(200);
    // A double submit changes nothing, so it mails nothing.
    expect((await pay(p, id)).statusCode).toBe(200);
    let mails = await received(p);
    expect(mails.map((m) => m.headers.get("subject"))).toEqual(["Your Ambercare free trial has started"]);
    const trial = mails[0]!;
    expect(trial.text).toContain("Hello Ana,");
    expect(trial.text).toContain(
      "Your first charge of $9.00 (billed monthly) will be on March 17, 2026, to the card you gave at checkout.",
    );
    expect(trial.text).toContain("Cancel on your membership page before March 17, 2026");
    expect(trial.text).toMatch(/^http:\/\/web\.test\/my-profile\/manage-subscription$/m);
    expect(trial.html).toContain('<html lang="en">');
    expect(trial.html).toContain("Your first charge of $9.00 (billed monthly) will be on March 17, 2026");
    expect(trial.html).toContain('href="http://web.test/my-profile/manage-subscription"');

    expect((await post(p, "/ambercare/cancel-subscription/", { user_id: p.user_id })).statusCode).toBe(200);
    expect((await post(p, "/ambercare/cancel-subscription/", { user_id: p.user_id })).statusCode).toBe(200);
    expect((await post(p, "/ambercare/resume-subscription/", { user_id: p.user_id })).statusCode).toBe(200);
    const changed = await post(p, "/ambercare/change-interval/", { user_id: p.user_id, interval: "year" });
    expect(changed.statusCode).toBe(200);
    mails = await received(p);
    expect(mails.map((m) => m.headers.get("subject"))).toEqual([
      "Your Ambercare free trial has started",
      "Your Ambercare membership is canceled",
      "Your Ambercare membership is resumed",
      "Your Ambercare membership will be billed yearly",
    ]);
    expect(mails[1]!.text).toContain("You keep its access until March 17, 2026.");
    expect(mails[2]!.text).toContain("Your next charge of $9.00 will be on March 17, 2026.");
    expect(mails[3]!.text).toContain(
      "From your next renewal on March 17, 2026, your Ambercare membership will be billed yearly: $108.00 a year.",
    );

    await advance(7 * DAY_S + 60);
    p = await relogin(p);
    mails = await received(p);
    expect(mails).toHaveLength(5);
    const receipt = mails[4]!;
    expect(receipt.headers.get("subject")).toBe("Receipt for your Ambercare payment of $108.00");
    expect(receipt.text).toContain(
      "we received your payment of $108.00 for your Ambercare membership (yearly).",
    );
    expect(receipt.text).toMatch(/^Receipt: AC-\d{6}$/m);
    expect(receipt.text).toContain("Period: March 17, 2026 – March 17, 2027");
    expect(receipt.text).toContain("Amount: $108.00 (USD)");
    expect(receipt.text).toContain("Paid on: March 17, 2026");
    expect(receipt.text).toContain("Card: Visa ending in 4242");
    const invoices = (
      await t.app.inject({ method: "GET", url: "/ambercare/invoices", headers: bearer(p.access_token) })
    ).json().data as Array<{ id: string; number: string }>;
    expect(receipt.text).toContain(`Receipt: ${invoices[0]!.number}`);
    expect(receipt.text).toContain(`http://web.test/my-profile/billing-history/${invoices[0]!.id}`);
    expect(receipt.html).toContain("Amount: $108.00 (USD)");
  });

  it("a one-time visit's receipt, in Bulgarian", async () => {
    const p = await registerPatient(t.app, { locale: "bg", first_name: "Мария" });
    const id = await checkout(p, "/ambercare/visit-checkout/", { plan: "ppv_video" });
    expect((await pay(p, id)).statusCode).toBe(200);
    expect((await pay(p, id)).statusCode).toBe(200);
    const mails = await received(p);
    expect(mails.map((m) => m.headers.get("subject"))).toEqual([
      "Разписка за плащането Ви от $49.00 в Ambercare",
    ]);
    const receipt = mails[0]!;
    expect(receipt.text).toContain("Здравейте, Мария,");
    expect(receipt.text).toContain(
      "получихме плащането Ви от $49.00 за еднократна видеоконсултация в Ambercare.",
    );
    expect(receipt.text).toContain("Сума: $49.00 (USD)");
    const today = new Intl.DateTimeFormat("bg-BG", { dateStyle: "long", timeZone: "UTC" }).format(
      clock.now(),
    );
    expect(receipt.text).toContain(`Платено на: ${today}`);
    expect(receipt.text).toContain("За: еднократна видеоконсултация в Ambercare");
    expect(receipt.text).toContain("Карта: Visa, завършваща на 4242");
    expect(receipt.text).not.toContain("Period");
    expect(receipt.html).toContain('<html lang="bg">');
    expect(receipt.html).toContain("Сума: $49.00 (USD)");
  });

  it("a receipt writes its date in the patient's time zone", async () => {
    const p = await registerPatient(t.app);
    // UTC+14: the API's clock (noon UTC or later) is already the next day there.
    const zone = await post(p, "/ambercare/update-user", {
      user_id: p.user_id,
      time_zone: "Pacific/Kiritimati",
    });
    expect(zone.statusCode).toBe(200);
    const id = await checkout(p, "/ambercare/visit-checkout/", { plan: "ppv_chat" });
    expect((await pay(p, id)).statusCode).toBe(200);
    const [receipt] = await received(p);
    const day = (timeZone: string) =>
      new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(clock.now());
    expect(day("Pacific/Kiritimati")).not.toBe(day("UTC"));
    expect(receipt!.text).toContain(`Paid on: ${day("Pacific/Kiritimati")}`);
  });

  it("a failed renewal says what to do and when the card is tried again, in both languages", async () => {
    const en = await registerPatient(t.app);
    const bg = await registerPatient(t.app, { locale: "bg" });
    for (const p of [en, bg]) {
      const id = await checkout(p, "/ambercare/subscription-checkout/", { interval: "month" });
      expect((await pay(p, id, TEST_CARDS.renewalFails)).statusCode).toBe(200);
    }
    const trialEnd = new Date(clock.now().getTime() + 7 * DAY_S * 1000);
    await advance(7 * DAY_S + 60);
    const retry = new Date(trialEnd.getTime() + 3 * DAY_S * 1000);
    const retryEn = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(retry);
    const retryBg = new Intl.DateTimeFormat("bg-BG", { dateStyle: "long", timeZone: "UTC" }).format(retry);

    const [, failedEn] = await received(en);
    expect(failedEn!.headers.get("subject")).toBe("We could not renew your Ambercare membership");
    expect(failedEn!.text).toContain(
      "We tried to charge $9.00 for your Ambercare membership, but the card was declined.",
    );
    expect(failedEn!.text).toContain(`What to do: make sure the card has enough funds and has not expired`);
    expect(failedEn!.text).toContain(
      `We will try again on ${retryEn}; if that charge fails too, the membership ends.`,
    );
    const [, failedBg] = await received(bg);
    expect(failedBg!.headers.get("subject")).toBe("Не успяхме да подновим членството Ви в Ambercare");
    expect(failedBg!.text).toContain("Какво да направите: проверете дали по картата има достатъчно средства");
    expect(failedBg!.text).toContain(`Ще опитаме отново на ${retryBg}`);

    // The retry fails too: the membership ends, and nothing more is written about it.
    await advance(3 * DAY_S);
    expect(await received(en)).toHaveLength(2);
  });

  it("a payment whose e-mail cannot be delivered is still paid, once", async () => {
    const p = await registerPatient(t.app);
    const rejected = `reject-${p.email}`;
    await t.db.db.update(users).set({ email: rejected }).where(eq(users.id, p.user_id));
    const id = await checkout(p, "/ambercare/subscription-checkout/", { interval: "month" });
    const paid = await pay(p, id);
    expect(paid.statusCode, paid.body).toBe(200);
    await t.app.mailer.drain();
    expect(
      await t.db.db.select().from(subscriptions).where(eq(subscriptions.userId, p.user_id)),
    ).toHaveLength(1);
    expect(
      logs.entries().filter((e) => e.msg === "e-mail delivery failed" && e.template === "trial-started"),
    ).toHaveLength(1);
    expect(logs.text()).not.toContain(rejected);
  });
});

describe("membership e-mails from the processor's webhooks", () => {
  const clock = createManualClock(new Date("2026-05-01T10:00:00Z"));
  const { fetch: fakeFetch, calls } = createFakeStripeApi();
  let smtp: Smtp;
  let t: TestApp;
  const secret = "whsec_test_secret";

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      clock,
      fetch: fakeFetch,
      env: {
        SMTP_URL: smtp.url,
        PAYMENTS: "stripe",
        STRIPE_SECRET_KEY: "sk_test_fake",
        STRIPE_WEBHOOK_SECRET: secret,
        ...TEST_STRIPE_PRICES,
        WEB_URL: "http://web.test",
      },
    });
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function deliver(body: object) {
    const raw = JSON.stringify(body);
    const res = await t.app.inject({
      method: "POST",
      url: "/ambercare/stripe/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signStripePayload(raw, secret, clock.now()),
      },
      payload: raw,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  const unix = (date: Date) => Math.floor(date.getTime() / 1000);

  it("mails the trial and each renewal's receipt once, however often the events repeat", async () => {
    const p = await registerPatient(t.app);
    const started = await t.app.inject({
      method: "POST",
      url: "/ambercare/subscription-checkout/",
      headers: bearer(p.access_token),
      payload: { user_id: p.user_id, interval: "month" },
    });
    expect(started.statusCode).toBe(200);
    const checkoutId = calls.at(-1)!.body.get("client_reference_id")!;
    const completed = {
      id: "evt_completed",
      type: "checkout.session.completed",
      data: {
        object: { id: "cs_1", client_reference_id: checkoutId, subscription: "sub_m", customer: "cus_m" },
      },
    };
    await deliver(completed);
    await deliver(completed);
    await deliver({ ...completed, id: "evt_completed_again" });

    const periodStart = new Date(clock.now().getTime() + 7 * DAY_S * 1000);
    const periodEnd = new Date(periodStart.getTime() + 31 * DAY_S * 1000);
    const paid = {
      id: "evt_paid",
      type: "invoice.paid",
      data: {
        object: {
          id: "in_m1",
          subscription: "sub_m",
          amount_paid: 900,
          created: unix(periodStart),
          lines: { data: [{ period: { start: unix(periodStart), end: unix(periodEnd) } }] },
        },
      },
    };
    await deliver(paid);
    await deliver(paid);
    // Stripe tells of one payment by several events: the receipt still goes out once.
    await deliver({ ...paid, id: "evt_payment_succeeded", type: "invoice.payment_succeeded" });
    await deliver({ ...paid, id: "evt_paid_resent" });
    await t.app.mailer.drain();
    const mails = mailsTo(smtp, p.email);
    expect(mails.map((m) => m.headers.get("subject"))).toEqual([
      "Your Ambercare free trial has started",
      "Receipt for your Ambercare payment of $9.00",
    ]);
    expect(mails[0]!.text).toContain("Your first charge of $9.00 (billed monthly) will be on May 8, 2026");
    expect(mails[1]!.text).toContain("Amount: $9.00 (USD)");
    expect(mails[1]!.text).toContain("Period: May 8, 2026 – June 8, 2026");
  });
});
