import { randomUUID } from "node:crypto";
import { visitSearchResponse } from "@ambercare/contracts/operations";
import { reportsResponse } from "@ambercare/contracts/operations-reports";
import { consultations, invoices, providers, ratings } from "@ambercare/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsTestApp } from "#api/modules/operations/operations-test-support.ts";
import { reportPeriod } from "#api/modules/operations/reports-service.ts";
import { createManualClock } from "#api/platform/clock.ts";

/**
 * The reports count the clinic's days (CLINIC_TIME_ZONE), not UTC's: here New York, four hours
 * behind UTC in May, so 03:59 UTC on 2 May is still 1 May at the clinic and 04:00 UTC is 2 May.
 */

const OPS = "/api/v1/api/operations";
// 02:00 UTC on 3 May: still 2 May in New York.
const clock = createManualClock(new Date("2031-05-03T02:00:00Z"));
let ops: Awaited<ReturnType<typeof operationsTestApp>>;
const get = (url: string) => ops.get(url);

beforeAll(async () => {
  ops = await operationsTestApp(clock, { CLINIC_TIME_ZONE: "America/New_York" });
  const { db } = ops.t.db;
  const userId = ops.patient.user_id;
  const [provider] = await db.select({ id: providers.id }).from(providers).limit(1);

  // Midnight in New York on 1 May is 04:00 UTC; on 2 May, 04:00 UTC the next day.
  const asked: Array<[string, "chat" | "video"]> = [
    ["2031-05-01T03:59:59Z", "chat"], // 30 April, 23:59:59 at the clinic: outside
    ["2031-05-01T04:00:00Z", "chat"], // 1 May, 00:00
    ["2031-05-01T23:30:00Z", "video"], // 1 May, 19:30 (a UTC day would agree)
    ["2031-05-02T03:59:59Z", "chat"], // 1 May, 23:59:59 (UTC says 2 May)
    ["2031-05-02T04:00:00Z", "video"], // 2 May, 00:00
    ["2031-05-03T01:00:00Z", "chat"], // 2 May, 21:00 (UTC says 3 May)
    ["2031-05-03T04:00:00Z", "chat"], // 3 May, 00:00 at the clinic: outside a period ending on 2 May
    ["2031-04-20T12:00:00Z", "chat"], // the visit rated below
  ];
  const visits = await db
    .insert(consultations)
    .values(asked.map(([createdAt, type]) => ({ userId, type, state: "NY", createdAt: new Date(createdAt) })))
    .returning({ id: consultations.id });

  // A rating given at 23:00 on 1 May at the clinic (03:00 UTC on 2 May).
  await db.insert(ratings).values({
    providerId: provider!.id,
    userId,
    consultationId: visits.at(-1)!.id,
    stars: 4,
    createdAt: new Date("2031-05-02T03:00:00Z"),
  });
  // Money: $10 paid at 23:59 on 30 April at the clinic (outside), $20 at 00:00 on 1 May, $40 at
  // 23:59 on 2 May refunded $5 at 00:30 on 3 May (outside), $80 at 01:00 on 2 May UTC (1 May there)
  // refunded $8 at 23:00 on 1 May there.
  const paid: Array<[string, number, [string, number]?]> = [
    ["2031-05-01T03:59:00Z", 1000],
    ["2031-05-01T04:00:00Z", 2000],
    ["2031-05-03T03:59:00Z", 4000, ["2031-05-03T04:30:00Z", 500]],
    ["2031-05-02T01:00:00Z", 8000, ["2031-05-02T03:00:00Z", 800]],
  ];
  await db.insert(invoices).values(
    paid.map(([paidAt, amountCents, refund]) => ({
      userId,
      checkoutId: null,
      idempotencyKey: `test:${randomUUID()}`,
      plan: "subscription_monthly" as const,
      description: "test",
      amountCents,
      status: "paid" as const,
      issuedAt: new Date(paidAt),
      paidAt: new Date(paidAt),
      refundedAt: refund ? new Date(refund[0]) : null,
      refundedAmountCents: refund ? refund[1] : null,
    })),
  );
}, 120_000);

afterAll(async () => {
  await ops?.t.close();
});

describe("the reports in the clinic's time zone", () => {
  it("puts each visit, rating and payment on the clinic's day, to the second around midnight", async () => {
    const res = await get(`${OPS}/reports?from=2031-05-01&to=2031-05-02`);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = reportsResponse.parse(res.json());
    expect(data.visits.days).toEqual([
      { day: "2031-05-01", counts: { chat: 2, video: 1 }, total: 3 },
      { day: "2031-05-02", counts: { chat: 1, video: 1 }, total: 2 },
    ]);
    expect(data.visits.total).toBe(5);
    expect(data.ratings).toEqual({ count: 1, average: 4, distribution: [0, 0, 0, 1, 0] });
    // $20 + $80 on 1 May and $40 on 2 May there; the $8 refund on 1 May, the $5 one on 3 May.
    const { payments, revenue_cents, refunds, refunds_cents, net_cents } = data.money;
    expect([payments, revenue_cents, refunds, refunds_cents, net_cents]).toEqual([3, 14_000, 1, 800, 13_200]);

    const firstDay = reportsResponse.parse(
      (await get(`${OPS}/reports?from=2031-05-01&to=2031-05-01`)).json(),
    ).data;
    expect(firstDay.visits.days).toEqual([{ day: "2031-05-01", counts: { chat: 2, video: 1 }, total: 3 }]);
    expect(firstDay.money).toMatchObject({
      payments: 2,
      revenue_cents: 10_000,
      refunds: 1,
      refunds_cents: 800,
    });
    expect(firstDay.ratings.count).toBe(1);
    const csv = await get(`${OPS}/reports.csv?report=visits&from=2031-05-01&to=2031-05-02`);
    expect(csv.body).toBe("day,chat,video,total\r\n2031-05-01,2,1,3\r\n2031-05-02,1,1,2\r\n");
  });

  it("ends the default period on the clinic's today, not UTC's", async () => {
    const { data } = reportsResponse.parse((await get(`${OPS}/reports`)).json());
    expect(data).toMatchObject({ from: "2031-04-03", to: "2031-05-02" });
    expect(data.visits.days).toHaveLength(30);
    // The five of 1 and 2 May there, the one of 30 April and the rated one of 20 April; not the one
    // at 00:00 on 3 May there (by UTC's today, 3 May, it would count: 8).
    expect(data.visits.total).toBe(7);
  });
});

describe("the visit search's date", () => {
  it("is the clinic's day: from its midnight to the next, not UTC's", async () => {
    const email = encodeURIComponent(ops.patient.email);
    const res = await get(`${OPS}/visits?email=${email}&date=2031-05-01`);
    expect(res.statusCode, res.body).toBe(200);
    const asked = visitSearchResponse.parse(res.json()).data.map((visit) => visit.created_at);
    // Not 23:59:59 on 30 April there; 23:59:59 on 1 May there is in (UTC would swap the two).
    expect(asked.sort()).toEqual([
      "2031-05-01T04:00:00.000Z",
      "2031-05-01T23:30:00.000Z",
      "2031-05-02T03:59:59.000Z",
    ]);
  });
});

describe("a report's period", () => {
  it("runs from the first day's midnight to the midnight after the last, in the zone", () => {
    const query = { from: "2031-05-01", to: "2031-05-02" };
    const { period, days } = reportPeriod(query, clock.now(), "America/New_York");
    expect(days).toEqual(["2031-05-01", "2031-05-02"]);
    expect(period.start.toISOString()).toBe("2031-05-01T04:00:00.000Z");
    expect(period.end.toISOString()).toBe("2031-05-03T04:00:00.000Z");
    // UTC, as without a zone, and Sofia, three hours ahead in summer.
    const utc = reportPeriod(query, clock.now()).period;
    expect([utc.start.toISOString(), utc.end.toISOString()]).toEqual([
      "2031-05-01T00:00:00.000Z",
      "2031-05-03T00:00:00.000Z",
    ]);
    expect(reportPeriod(query, clock.now(), "Europe/Sofia").period.start.toISOString()).toBe(
      "2031-04-30T21:00:00.000Z",
    );
    // The day clocks go back in New York (2 November 2031) is 25 hours long.
    const autumn = reportPeriod({ from: "2031-11-02", to: "2031-11-02" }, clock.now(), "America/New_York");
    expect(autumn.period.end.getTime() - autumn.period.start.getTime()).toBe(25 * 3_600_000);
  });
});
