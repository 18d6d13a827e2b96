import { randomUUID } from "node:crypto";
import { operatorActionsResponse } from "@ambercare/contracts/operations";
import { reportsResponse } from "@ambercare/contracts/operations-reports";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import {
  checkouts,
  consultations,
  invoiceRefunds,
  invoices,
  providers,
  ratings,
  visitCredits,
} from "@ambercare/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsTestApp } from "#api/modules/operations/operations-test-support.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { registerClinician, registerPatient, type TestApp } from "#api/test-support.ts";

const OPS = "/api/v1/api/operations";
const clock = createManualClock(new Date("2031-05-03T12:00:00Z"));
let t: TestApp;
let get: Awaited<ReturnType<typeof operationsTestApp>>["get"];
let patientId: string;
let patientEmail: string;
let providerId: string;

const at = (iso: string) => new Date(iso);
const later = (from: string, seconds: number) => new Date(Date.parse(from) + seconds * 1000);

/** A visit written as it would stand: `extra` sets its status and the times that go with it. */
async function visit(
  createdAt: string,
  extra: Partial<typeof consultations.$inferInsert> & { type?: "chat" | "video" } = {},
) {
  const [row] = await t.db.db
    .insert(consultations)
    .values({ userId: patientId, type: "chat", state: "TX", createdAt: at(createdAt), ...extra })
    .returning({ id: consultations.id });
  return row!.id;
}

/** A visit accepted `seconds` after it was asked for. */
const accepted = (
  createdAt: string,
  seconds: number,
  extra: { type?: "chat" | "video"; state?: string } = {},
) => visit(createdAt, { status: "accepted", providerId, acceptedAt: later(createdAt, seconds), ...extra });

/**
 * A one-time visit's invoice, paid at `paidAt`, optionally refunded: automatically (the invoice's
 * own refund), or by an operator in `parts` (rows of invoice_refunds, the invoice carrying their sum
 * and the last one's time, as the refund service writes them).
 */
async function paidFor(
  consultationId: string | null,
  paidAt: string,
  amountCents: number,
  refund?: { at: string; cents: number },
  parts: { at: string; cents: number }[] = [],
) {
  let checkoutId: string | null = null;
  if (consultationId) {
    const [checkout] = await t.db.db
      .insert(checkouts)
      .values({
        userId: patientId,
        kind: "visit",
        plan: "ppv_chat",
        amountCents,
        trialDays: 0,
        returnPath: "/",
        provider: "demo",
        createdAt: at(paidAt),
        expiresAt: later(paidAt, 3600),
        paidAt: at(paidAt),
      })
      .returning({ id: checkouts.id });
    checkoutId = checkout!.id;
    await t.db.db
      .insert(visitCredits)
      .values({ userId: patientId, type: "chat", checkoutId, createdAt: at(paidAt), consultationId });
  }
  const [invoice] = await t.db.db
    .insert(invoices)
    .values({
      userId: patientId,
      checkoutId,
      idempotencyKey: `test:${randomUUID()}`,
      plan: consultationId ? "ppv_chat" : "subscription_monthly",
      description: "test",
      amountCents,
      status: "paid",
      issuedAt: at(paidAt),
      paidAt: at(paidAt),
      ...(refund ? { refundedAt: at(refund.at), refundedAmountCents: refund.cents } : {}),
    })
    .returning({ id: invoices.id });
  for (const part of parts) {
    await t.db.db.insert(invoiceRefunds).values({
      invoiceId: invoice!.id,
      idempotencyKey: randomUUID(),
      amountCents: part.cents,
      providerRefundId: `re_test_${randomUUID()}`,
      reason: "test",
      createdAt: at(part.at),
    });
  }
}

beforeAll(async () => {
  let patient: { user_id: string; email: string };
  ({ t, patient, get } = await operationsTestApp(clock));
  patientId = patient.user_id;
  patientEmail = patient.email;
  const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
  providerId = provider!.id;

  // 1 May (TX): four chats accepted after 1, 2, 3 and 4 minutes.
  const chats = [
    await accepted("2031-05-01T08:00:00Z", 60),
    await accepted("2031-05-01T09:00:00Z", 120),
    await accepted("2031-05-01T10:00:00Z", 180),
    await accepted("2031-05-01T23:59:00Z", 240),
  ];
  // 2 May (TX): two videos accepted after 5 and 10 minutes; two chats expired, one refunded.
  await accepted("2031-05-02T00:00:00Z", 300, { type: "video" });
  const video = await accepted("2031-05-02T11:00:00Z", 600, { type: "video" });
  const expired = await visit("2031-05-02T12:00:00Z", {
    status: "expired",
    expiredAt: at("2031-05-02T12:10:00Z"),
  });
  await visit("2031-05-02T13:00:00Z", { status: "expired", expiredAt: at("2031-05-02T13:10:00Z") });
  // 3 May (TX): two booked videos, one missed (a no-show).
  await visit("2031-05-03T08:00:00Z", {
    type: "video",
    status: "missed",
    providerId,
    scheduledStart: at("2031-05-03T09:00:00Z"),
    missedAt: at("2031-05-03T09:10:00Z"),
  });
  await visit("2031-05-03T08:30:00Z", {
    type: "video",
    status: "scheduled",
    providerId,
    scheduledStart: at("2031-05-03T15:00:00Z"),
  });
  // Outside the state (CA, a long wait) and outside the period (30 April): only in their reports.
  const elsewhere = await accepted("2031-05-01T12:00:00Z", 10_000, { state: "CA" });
  await accepted("2031-04-30T23:59:59Z", 5);

  // Ratings given on 2 May: 5, 5, 4 and 2 stars in TX, 1 star in CA.
  const rated = [
    [chats[0], 5],
    [chats[1], 5],
    [chats[2], 4],
    [video, 2],
    [elsewhere, 1],
  ] as const;
  for (const [consultationId, stars] of rated) {
    await t.db.db.insert(ratings).values({
      providerId,
      userId: patientId,
      consultationId: consultationId!,
      stars,
      createdAt: at("2031-05-02T18:00:00Z"),
    });
  }

  // Money: the expired chat paid $25 and refunded in full, a video paid $30 (TX), a membership
  // paid $19.99 (no state), a chat paid in April (outside the period).
  await paidFor(expired, "2031-05-01T07:00:00Z", 2500, { at: "2031-05-02T12:10:00Z", cents: 2500 });
  await paidFor(video, "2031-05-02T10:59:00Z", 3000);
  await paidFor(null, "2031-05-01T00:00:00Z", 1999);
  await paidFor(chats[3]!, "2031-04-30T23:00:00Z", 700);
  // June: a membership paid $19.99 and refunded by an operator in two parts, $5 on 2 June and $4
  // on 5 June (the invoice: $9 refunded on 5 June).
  await paidFor(null, "2031-06-01T10:00:00Z", 1999, { at: "2031-06-05T10:00:00Z", cents: 900 }, [
    { at: "2031-06-02T10:00:00Z", cents: 500 },
    { at: "2031-06-05T10:00:00Z", cents: 400 },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("the reports", () => {
  it("counts visits per day and type, the wait's median and 90th percentile, outcomes, ratings and money", async () => {
    const res = await get(`${OPS}/reports?from=2031-05-01&to=2031-05-03&state=TX`);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = reportsResponse.parse(res.json());
    expect(data.from).toBe("2031-05-01");
    expect(data.to).toBe("2031-05-03");
    expect(data.visits.days).toEqual([
      { day: "2031-05-01", counts: { chat: 4, video: 0 }, total: 4 },
      { day: "2031-05-02", counts: { chat: 2, video: 2 }, total: 4 },
      { day: "2031-05-03", counts: { chat: 0, video: 2 }, total: 2 },
    ]);
    expect(data.visits.total).toBe(10);
    // Waits 60, 120, 180, 240, 300, 600 s: the median between 180 and 240, p90 between 300 and 600.
    expect(data.wait).toEqual({ accepted: 6, median_seconds: 210, p90_seconds: 450 });
    expect(data.outcomes).toEqual({ requested: 8, expired: 2, refunded: 1, booked: 2, missed: 1 });
    expect(data.ratings).toEqual({ count: 4, average: 4, distribution: [0, 1, 0, 1, 2] });
    expect(data.money).toEqual({
      payments: 2,
      revenue_cents: 5500,
      refunds: 1,
      refunds_cents: 2500,
      net_cents: 3000,
    });
  });

  it("takes every state without one, and only the period's days", async () => {
    const { data } = reportsResponse.parse(
      (await get(`${OPS}/reports?from=2031-05-01&to=2031-05-01`)).json(),
    );
    expect(data.visits.days).toEqual([{ day: "2031-05-01", counts: { chat: 5, video: 0 }, total: 5 }]);
    // 60, 120, 180, 240 and the CA visit's 10,000 s.
    expect(data.wait).toEqual({ accepted: 5, median_seconds: 180, p90_seconds: 6096 });
    expect(data.money).toMatchObject({ payments: 2, revenue_cents: 4499, refunds: 0, refunds_cents: 0 });
    expect(data.ratings).toEqual({ count: 0, average: null, distribution: [0, 0, 0, 0, 0] });

    const all = reportsResponse.parse(
      (await get(`${OPS}/reports?from=2031-05-02&to=2031-05-02`)).json(),
    ).data;
    expect(all.ratings).toEqual({ count: 5, average: 3.4, distribution: [1, 1, 0, 1, 2] });
  });

  it("counts each part of a payment refunded in parts on its own day", async () => {
    const money = async (from: string, to: string) =>
      reportsResponse.parse((await get(`${OPS}/reports?from=${from}&to=${to}`)).json()).data.money;
    expect(await money("2031-06-01", "2031-06-03")).toEqual({
      payments: 1,
      revenue_cents: 1999,
      refunds: 1,
      refunds_cents: 500,
      net_cents: 1499,
    });
    expect(await money("2031-06-04", "2031-06-06")).toMatchObject({ refunds: 1, refunds_cents: 400 });
    expect(await money("2031-06-01", "2031-06-06")).toMatchObject({ refunds: 2, refunds_cents: 900 });
  });

  it("covers the last 30 days up to today by default", async () => {
    const { data } = reportsResponse.parse((await get(`${OPS}/reports`)).json());
    expect(data).toMatchObject({ from: "2031-04-04", to: "2031-05-03", state: null });
    expect(data.visits.days).toHaveLength(30);
    expect(data.visits.total).toBe(12);
  });

  it("exports each report's table as CSV, the same numbers, and logs the export", async () => {
    const query = "from=2031-05-01&to=2031-05-03&state=TX";
    const csv = async (report: string) => {
      clock.advance(1000); // one export after the other in the log
      const res = await get(`${OPS}/reports.csv?report=${report}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="report-${report}.csv"`);
      return res.body;
    };
    expect(await csv("visits")).toBe(
      "day,chat,video,total\r\n2031-05-01,4,0,4\r\n2031-05-02,2,2,4\r\n2031-05-03,0,2,2\r\n",
    );
    expect(await csv("wait")).toBe("accepted,median_seconds,p90_seconds\r\n6,210,450\r\n");
    expect(await csv("outcomes")).toBe("requested,expired,refunded,booked,missed\r\n8,2,1,2,1\r\n");
    expect(await csv("ratings")).toBe("stars,count\r\n1,0\r\n2,1\r\n3,0\r\n4,1\r\n5,2\r\n");
    expect(await csv("money")).toBe(
      "payments,revenue_cents,refunds,refunds_cents,net_cents\r\n2,5500,1,2500,3000\r\n",
    );
    const log = operatorActionsResponse.parse((await get(`${OPS}/actions`)).json()).data[0];
    expect(log).toMatchObject({
      action: "report.export",
      detail: { report: "money", from: "2031-05-01", to: "2031-05-03", state: "TX" },
      ip: "203.0.113.9",
    });
  });

  it("refuses a bad period with 400, never 5xx", async () => {
    for (const query of [
      "from=2031-05-03&to=2031-05-01",
      "from=2030-01-01&to=2031-05-01",
      "from=yesterday",
      "state=XX",
      "report=visits",
    ]) {
      const res = await get(`${OPS}/reports?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toHaveProperty("error");
    }
    const csv = await get(`${OPS}/reports.csv?report=everything`);
    expect(csv.statusCode).toBe(400);
  });

  it("refuses patients and clinicians with 403 OPERATOR_ONLY", async () => {
    const patient = await registerPatient(t.app);
    const clinician = await registerClinician(t, clock.now());
    for (const token of [patient.access_token, clinician.access_token]) {
      for (const url of [`${OPS}/reports`, `${OPS}/reports.csv?report=visits`]) {
        const res = await get(url, token);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ error: ROLE_ERRORS.operatorOnly, code: "OPERATOR_ONLY" });
      }
    }
  });

  it("holds no patient in what it answers", async () => {
    const res = await get(`${OPS}/reports?from=2031-05-01&to=2031-05-03`);
    expect(res.body).not.toContain(patientEmail);
    expect(res.body).not.toContain(patientId);
  });
});
