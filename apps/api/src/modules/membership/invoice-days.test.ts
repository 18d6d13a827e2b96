import type { Invoice } from "@ambercare/contracts/membership";
import { TEST_CARDS } from "@ambercare/contracts/membership";
import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { users } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

/**
 * An invoice names its membership period by the patient's days (their profile's time zone, here
 * New York), as their receipt shows its times: the trial started at 22:00 on 2 May in New York
 * (02:00 UTC on 3 May), so each period starts and ends on the evening of the 9th there, not the 10th.
 */

const clock = createManualClock(new Date("2031-05-03T02:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { WEB_URL: "http://web.test" } });
});
afterAll(async () => t.close());

const newYorkDay = (iso: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(new Date(iso));

describe("an invoice's period", () => {
  it("is named by the days of the patient's time zone", async () => {
    const patient = await registerPatient(t.app);
    await t.db.db.update(users).set({ timeZone: "America/New_York" }).where(eq(users.id, patient.user_id));
    const post = (url: string, payload: object, token = patient.access_token) =>
      t.app.inject({ method: "POST", url, headers: bearer(token), payload });
    const started = await post("/ambercare/subscription-checkout/", {
      user_id: patient.user_id,
      interval: "month",
    });
    expect(started.statusCode, started.body).toBe(200);
    const checkoutId = (started.json() as { data: { checkout_url: string } }).data.checkout_url
      .split("/")
      .at(-1);
    const paid = await post(`/ambercare/checkout/${checkoutId}/pay`, {
      card_number: TEST_CARDS.success,
      exp_month: "12",
      exp_year: "2040",
      cvc: "123",
      name: "Jane Doe",
    });
    expect(paid.statusCode, paid.body).toBe(200);

    // The trial ends; the renewal charges the first month.
    const advanced = await t.app.inject({
      method: "POST",
      url: "/dev/clock/advance",
      payload: { seconds: (TRIAL_DAYS + 1) * 86_400 },
    });
    expect(advanced.statusCode, advanced.body).toBe(200);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/login",
      payload: { email: patient.email, password: patient.password },
    });
    const token = (login.json() as { access_token: string }).access_token;
    const res = await t.app.inject({ method: "GET", url: "/ambercare/invoices", headers: bearer(token) });
    const [invoice] = (res.json() as { data: Invoice[] }).data;
    const start = invoice!.period_start!;
    const end = invoice!.period_end!;
    // 02:00 UTC: the evening before in New York.
    expect(newYorkDay(start)).not.toBe(start.slice(0, 10));
    expect(invoice!.description).toBe(
      `Ambercare membership (monthly), ${newYorkDay(start)} to ${newYorkDay(end)}`,
    );
  });
});
