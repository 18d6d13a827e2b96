import { boardResponse } from "@ambercare/contracts/operations-board";
import { auditLog, consultations } from "@ambercare/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationsTestApp } from "#api/modules/operations/operations-test-support.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { registerClinician } from "#api/test-support.ts";

/**
 * The unusual-access flag's thresholds come from configuration (ADR 067): here a factor of 2, a
 * floor of 5 and a usual day measured over the 7 days before, where the defaults (3, 20, 30) would
 * flag nothing.
 */

const DAY_MS = 86_400_000;
const clock = createManualClock(new Date("2031-06-10T10:00:00Z"));
let ops: Awaited<ReturnType<typeof operationsTestApp>>;

beforeAll(async () => {
  ops = await operationsTestApp(clock, {
    BOARD_READS_FACTOR: "2",
    BOARD_READS_FLOOR: "5",
    BOARD_READS_HISTORY_DAYS: "7",
  });
}, 120_000);

afterAll(async () => {
  await ops?.t.close();
});

/** A clinician with a visit of the patient, and `perDay(n)` entries on the n-th day before today. */
async function clinicianReading(perDay: (daysBefore: number) => number, today: number) {
  const { db } = ops.t.db;
  const account = await registerClinician(ops.t, clock.now());
  const patient = ops.patient.user_id;
  await db.insert(consultations).values({
    userId: patient,
    type: "chat",
    state: "TX",
    status: "accepted",
    providerId: account.providerId,
    createdAt: new Date("2031-05-01T12:00:00Z"),
    acceptedAt: new Date("2031-05-01T12:01:00Z"),
  });
  const entries = [0, ...Array.from({ length: 30 }, (_, i) => i + 1)].map((daysBefore) => ({
    userId: patient,
    actorUserId: account.user_id,
    actorKind: "clinician" as const,
    action: "profile.read",
    resourceType: "profile",
    at: new Date(Date.parse("2031-06-10T08:00:00Z") - daysBefore * DAY_MS),
    count: daysBefore === 0 ? today : perDay(daysBefore),
  }));
  await db.insert(auditLog).values(entries.filter((entry) => entry.count > 0));
  return account;
}

async function flagsOf(actor: string) {
  const res = await ops.get("/api/v1/api/operations/board");
  expect(res.statusCode, res.body).toBe(200);
  return boardResponse.parse(res.json()).data.flags.filter((flag) => flag.actor_user_id === actor);
}

describe("the unusual-access thresholds from configuration", () => {
  it("flags reads above the configured factor of the configured days' median and above the configured floor", async () => {
    // 3 a day in the last 7 days, 50 a day before: the 7-day median is 3, the 30-day one would be 50.
    const usual = (daysBefore: number) => (daysBefore <= 7 ? 3 : 50);
    const busy = await clinicianReading(usual, 7);
    expect(await flagsOf(busy.user_id)).toEqual([
      {
        kind: "many_reads",
        actor_user_id: busy.user_id,
        actor_email: busy.email,
        reads_today: 7,
        patients: null,
        daily_median: 3,
      },
    ]);
    // 6 is not above 2 × 3; 5 would not be above the floor of 5 either.
    const steady = await clinicianReading(usual, 6);
    expect(await flagsOf(steady.user_id)).toEqual([]);
    const fresh = await clinicianReading(() => 0, 5);
    expect(await flagsOf(fresh.user_id)).toEqual([]);
    const freshBusier = await clinicianReading(() => 0, 6);
    expect((await flagsOf(freshBusier.user_id)).map((flag) => [flag.kind, flag.daily_median])).toEqual([
      ["many_reads", 0],
    ]);
  });
});
