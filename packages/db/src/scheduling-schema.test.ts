import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bookings,
  clinicianSchedules,
  clinicians,
  clinicianWeeklyHours,
  consultations,
  users,
} from "./schema.ts";
import { DEMO_BOOKING_CLINICIANS, seedDemoBooking } from "./seed-booking.ts";
import { createTestDb, type TestDb } from "./testing.ts";

/**
 * The bookings' guarantees held by the database itself (ADR 059): no two held or booked times of one
 * clinician overlap (an exclusion constraint over btree_gist, on PostgreSQL and PGlite), and a booked
 * visit that is canceled or expires gives its time back in the same statement.
 */
let db: TestDb;
let clinicianUserId: string;
let providerId: string;
let patientUserId: string;

beforeAll(async () => {
  db = await createTestDb({ seeded: true });
  const [clinician] = await db.db.select().from(clinicians).limit(1);
  clinicianUserId = clinician!.userId;
  providerId = clinician!.providerId;
  const [patient] = await db.db
    .insert(users)
    .values({ email: "booking-patient@example.org", passwordHash: "x" })
    .returning({ id: users.id });
  patientUserId = patient!.id;
});

afterAll(async () => db?.cleanup());

const range = (start: string, minutes: number) => ({
  startsAt: new Date(start),
  endsAt: new Date(new Date(start).getTime() + minutes * 60_000),
});

function insert(
  start: string,
  minutes: number,
  status: "held" | "booked" | "released" | "moved" | "canceled",
  extra: Partial<typeof bookings.$inferInsert> = {},
) {
  return db.db
    .insert(bookings)
    .values({
      patientUserId,
      clinicianUserId,
      providerId,
      type: "video",
      state: "CA",
      ...range(start, minutes),
      status,
      holdExpiresAt: new Date("2030-01-01T00:00:00Z"),
      ...extra,
    })
    .returning({ id: bookings.id });
}

/** The SQLSTATE of a failed statement, through Drizzle's wrapper. */
async function sqlState(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? (error as { code?: string }).code;
  }
}

describe("bookings", () => {
  it("refuses a held or booked time overlapping another of the same clinician", async () => {
    await insert("2030-03-04T16:00:00Z", 20, "held");
    expect(await sqlState(insert("2030-03-04T16:10:00Z", 20, "held"))).toBe("23P01");
    expect(await sqlState(insert("2030-03-04T15:50:00Z", 30, "held"))).toBe("23P01");
    // Touching ends do not overlap: [16:00, 16:20) then [16:20, 16:40).
    expect(await sqlState(insert("2030-03-04T16:20:00Z", 20, "held"))).toBeUndefined();
    expect(await sqlState(insert("2030-03-04T15:40:00Z", 20, "held"))).toBeUndefined();
  });

  it("lets given-back times overlap anything, and a released hold free its time", async () => {
    await insert("2030-03-05T16:00:00Z", 20, "released");
    await insert("2030-03-05T16:00:00Z", 20, "moved");
    await insert("2030-03-05T16:00:00Z", 20, "canceled");
    const [held] = await insert("2030-03-05T16:00:00Z", 20, "held");
    expect(await sqlState(insert("2030-03-05T16:00:00Z", 20, "held"))).toBe("23P01");
    await db.db.update(bookings).set({ status: "released" }).where(eq(bookings.id, held!.id));
    expect(await sqlState(insert("2030-03-05T16:00:00Z", 20, "held"))).toBeUndefined();
  });

  it("gives a booked visit's time back when the visit is canceled", async () => {
    const at = new Date("2030-02-01T10:00:00Z");
    const [visit] = await db.db
      .insert(consultations)
      .values({
        userId: patientUserId,
        providerId,
        type: "video",
        status: "scheduled",
        state: "CA",
        scheduledStart: new Date("2030-03-06T16:00:00Z"),
        acceptedAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: consultations.id });
    const [booked] = await insert("2030-03-06T16:00:00Z", 20, "booked", { consultationId: visit!.id });
    expect(await sqlState(insert("2030-03-06T16:00:00Z", 20, "held"))).toBe("23P01");
    await db.db
      .update(consultations)
      .set({ status: "canceled", canceledAt: at, updatedAt: at })
      .where(eq(consultations.id, visit!.id));
    const [row] = await db.db.select().from(bookings).where(eq(bookings.id, booked!.id));
    expect(row).toMatchObject({ status: "canceled", updatedAt: at });
    expect(await sqlState(insert("2030-03-06T16:00:00Z", 20, "held"))).toBeUndefined();
  });

  it("keeps a booked time's consultation and a hold's expiry", async () => {
    expect(await sqlState(insert("2030-03-07T16:00:00Z", 20, "booked"))).toBe("23514");
    expect(await sqlState(insert("2030-03-07T16:00:00Z", 20, "held", { holdExpiresAt: null }))).toBe("23514");
  });
});

describe("the demo clinicians' hours", () => {
  it("are seeded once for each demo clinician and the demo clinician, and left alone after", async () => {
    const fresh = await createTestDb({ seeded: true });
    try {
      expect(await seedDemoBooking(fresh, new Date("2027-06-01T00:00:00Z"))).toBe(
        DEMO_BOOKING_CLINICIANS.length + 1,
      );
      const zones = await fresh.db.select({ zone: clinicianSchedules.timeZone }).from(clinicianSchedules);
      expect(new Set(zones.map((row) => row.zone)).size).toBeGreaterThanOrEqual(4);
      const hours = await fresh.db.select().from(clinicianWeeklyHours);
      expect(hours.length).toBeGreaterThan(20);
      expect(await seedDemoBooking(fresh)).toBe(0);
      expect(await fresh.db.select().from(clinicianWeeklyHours)).toHaveLength(hours.length);
    } finally {
      await fresh.cleanup();
    }
  });
});
