import { notificationDeliveries } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteDeliveriesBefore } from "#api/modules/notifications/delivery-sweep.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

const DAY_MS = 24 * 60 * 60_000;
const clock = createManualClock(new Date("2026-07-01T09:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { NOTIFICATION_DELIVERY_RETENTION_DAYS: "30" } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** One record per age, in days before the clock's now; answers the user they belong to. */
async function recordsAged(days: number[]): Promise<string> {
  const { user_id } = await registerPatient(t.app);
  const now = clock.now().getTime();
  await t.db.db.insert(notificationDeliveries).values(
    days.map((age) => ({
      userId: user_id,
      event: "visit_accepted",
      channel: "push",
      outcome: "sent",
      at: new Date(now - age * DAY_MS),
    })),
  );
  return user_id;
}

const agesOf = async (userId: string) =>
  (
    await t.db.db
      .select({ at: notificationDeliveries.at })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.userId, userId))
  )
    .map((row) => Math.round((clock.now().getTime() - row.at.getTime()) / DAY_MS))
    .sort((a, b) => a - b);

describe("the notification delivery sweep", () => {
  it("deletes, on the job runner, the records older than NOTIFICATION_DELIVERY_RETENTION_DAYS and keeps the recent ones", async () => {
    // The first run of the runner schedules the sweep an hour on.
    await t.app.jobs.runDue(clock.now());
    const userId = await recordsAged([400, 45, 31, 29, 2, 0]);
    expect(await agesOf(userId)).toEqual([0, 2, 29, 31, 45, 400]);

    clock.advance(61 * 60_000);
    await t.app.jobs.runDue(clock.now());
    expect(await agesOf(userId)).toEqual([0, 2, 29]);

    // A day later the 29-day-old record has turned 30 and is older than the retention by an hour.
    clock.advance(DAY_MS);
    await t.app.jobs.runDue(clock.now());
    expect(await agesOf(userId)).toEqual([1, 3]);
  });

  it("deletes a backlog larger than one batch, a batch at a time, and nothing newer", async () => {
    const userId = await recordsAged([50, 50, 50, 50, 50, 10]);
    const before = new Date(clock.now().getTime() - 30 * DAY_MS);
    expect(await deleteDeliveriesBefore(t.db.db, before, 2)).toBe(5);
    expect(await agesOf(userId)).toEqual([10]);
    expect(await deleteDeliveriesBefore(t.db.db, before, 2)).toBe(0);
  });
});
