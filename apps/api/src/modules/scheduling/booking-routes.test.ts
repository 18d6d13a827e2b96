import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { consultationResponse } from "@ambercare/contracts/consultation";
import { providerListResponse, providerResponse } from "@ambercare/contracts/provider";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import {
  agendaResponse,
  bookingResponse,
  holdResponse,
  type PutScheduleRequest,
  scheduleResponse,
  slotsResponse,
} from "@ambercare/contracts/scheduling";
import { waitingRoomResponse } from "@ambercare/contracts/waiting-room";
import {
  bookings,
  clinicians,
  consultationStatusHistory,
  consultations,
  jobs,
  liveEvents,
  providerLicenses,
  providers,
  users,
} from "@ambercare/db/schema";
import { DEMO_BOOKING_CLINICIANS, seedDemoBooking } from "@ambercare/db/seed-booking";
import { and, arrayContains, asc, desc, eq, isNull, ne, sql } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableKnownSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import { startPushServiceStandIn } from "#api/modules/notifications/push-service-stand-in.ts";
import { bookedVisitMailKey, registerBookedVisitMails } from "#api/modules/scheduling/booked-visit-mails.ts";
import { registerBookingReminders, registerNoShowCheck } from "#api/modules/scheduling/booking-reminders.ts";
import { lockClinicianBookings } from "#api/modules/scheduling/booking-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { createJobRunner } from "#api/platform/jobs.ts";
import { visitTime } from "#api/platform/mail/mail-copy.ts";
import {
  bearer,
  consultationBody,
  createTestApp,
  createTestEntitlements,
  mailFilesTo,
  offerEveryVisitType,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

/**
 * Booked visits through the API (ADR 059), on PGlite and PostgreSQL (POSTGRES_SUITES): holds racing
 * for one slot, expiry, booking through create-consultation, reschedule, the cancel cut-off, check-in,
 * missed visits, the licence at start, and the directory's availability. The clock is the test's.
 */

const STATE = "CA";
const LA = "America/Los_Angeles";
const CONSOLE = "/api/v1/api/care-team";
// Monday 2027-06-07, 08:00 in Los Angeles.
const clock = createManualClock(new Date("2027-06-07T15:00:00Z"));
const entitlements = createTestEntitlements();
/** Consultations whose payment was given back (refundVisit), in order. */
const refunded: string[] = [];
async function refundVisit(consultationId: string) {
  refunded.push(consultationId);
  return { kind: "nothing_paid" as const };
}
let t: TestApp;

type Patient = Awaited<ReturnType<typeof registerPatient>>;
type Clinician = { token: string; userId: string; providerId: string; slug: string };
let doctor: Clinician;
/** A provider with no clinician account. */
let unlinked: { id: string; slug: string };

const at = (text: string) => new Date(text);

function request(method: "GET" | "POST" | "PUT" | "DELETE", url: string, token?: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload ? { payload } : {}),
  });
}

/** A provider made to offer both types, licensed in STATE, worked by a new clinician account. */
async function clinicianFor(providerId: string): Promise<Clinician> {
  const account = await registerPatient(t.app);
  await t.db.db.update(users).set({ role: "clinician" }).where(eq(users.id, account.user_id));
  await offerEveryVisitType(t.db.db, providerId);
  await t.db.db.insert(providerLicenses).values({ providerId, state: STATE }).onConflictDoNothing();
  await t.db.db.insert(clinicians).values({ userId: account.user_id, providerId });
  await enableKnownSecondFactor(t.db.db, {
    encryptionKey: t.app.config.SECOND_FACTOR_KEY!,
    userId: account.user_id,
    secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    now: clock.now(),
  });
  const [row] = await t.db.db
    .select({ slug: providers.slug })
    .from(providers)
    .where(eq(providers.id, providerId));
  return { token: account.access_token, userId: account.user_id, providerId, slug: row!.slug };
}

async function member(): Promise<Patient> {
  const patient = await registerPatient(t.app);
  entitlements.grant(patient.user_id, { member: true });
  return patient;
}

const consultationRequest = (type: ConsultationType, holdId: string | null, providerSlug?: string) =>
  consultationBody(type, STATE, {
    hold_id: holdId,
    ...(providerSlug ? { provider_slug: providerSlug } : {}),
  });

const hold = (patient: Patient, start: string, type: ConsultationType = "video", slug = doctor.slug) =>
  request("POST", "/ambercare/bookings/holds", patient.access_token, {
    provider_slug: slug,
    type,
    state: STATE,
    start,
  });

async function slots(type: ConsultationType = "video", query = ""): Promise<string[]> {
  const res = await request(
    "GET",
    `/api/v1/api/provider/${doctor.slug}/slots?type=${type}&state=${STATE}${query}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return slotsResponse.parse(res.json()).data.slots.map((slot) => slot.start);
}

/** Holds `start` and books it with a new consultation; answers the consultation id. */
async function book(patient: Patient, start: string, type: ConsultationType = "video"): Promise<string> {
  const held = await hold(patient, start, type);
  expect(held.statusCode, held.body).toBe(201);
  const created = await request(
    "POST",
    "/ambercare/create-consultation",
    patient.access_token,
    consultationRequest(type, holdResponse.parse(held.json()).data.id),
  );
  expect(created.statusCode, created.body).toBe(201);
  return consultationResponse.parse(created.json()).data.id;
}

const bookingOf = async (patient: Patient, id: string) => {
  const res = await request("GET", `/ambercare/consultations/${id}/booking`, patient.access_token);
  expect(res.statusCode, res.body).toBe(200);
  return bookingResponse.parse(res.json()).data;
};

/** What the patient's visit page says of a visit that will not take place (the waiting room's `ending`). */
const endingOf = async (patient: Patient, id: string) => {
  const res = await request("GET", `/ambercare/consultations/${id}/waiting-room`, patient.access_token);
  expect(res.statusCode, res.body).toBe(200);
  return waitingRoomResponse.parse(res.json()).data.ending;
};

const statusOf = async (id: string) =>
  (
    await t.db.db.select({ status: consultations.status }).from(consultations).where(eq(consultations.id, id))
  )[0]?.status;

const WEEK: PutScheduleRequest = {
  time_zone: LA,
  min_notice_minutes: 0,
  horizon_days: 14,
  weekly_hours: [1, 2, 3, 4, 5].map((weekday) => ({
    weekday,
    start: "09:00",
    end: "17:00",
    visit_types: ["chat", "video"] as ("chat" | "video")[],
  })),
};

beforeAll(async () => {
  t = await createTestApp({
    clock,
    entitlements: {
      ...entitlements,
      refundVisit,
    },
    env: { RATE_LIMIT_MAX: "100000", SESSION_IDLE_MINUTES: "300" },
  });
  // Two providers licensed in STATE for video without a clinician account; one gets one.
  const free = await t.db.db
    .select({ id: providers.id, slug: providers.slug })
    .from(providers)
    .innerJoin(
      providerLicenses,
      and(eq(providerLicenses.providerId, providers.id), eq(providerLicenses.state, STATE)),
    )
    .leftJoin(clinicians, eq(clinicians.providerId, providers.id))
    .where(and(isNull(clinicians.userId), arrayContains(providers.visitTypes, ["video"])))
    .orderBy(asc(providers.slug))
    .limit(2);
  doctor = await clinicianFor(free[0]!.id);
  unlinked = free[1]!;
  const put = await request("PUT", `${CONSOLE}/schedule`, doctor.token, WEEK);
  expect(put.statusCode, put.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe("the clinician's hours", () => {
  it("are read back as saved, with the clinic's slot lengths, and refused when they overlap", async () => {
    const res = await request("GET", `${CONSOLE}/schedule`, doctor.token);
    const schedule = scheduleResponse.parse(res.json()).data;
    expect(schedule).toMatchObject({
      time_zone: LA,
      min_notice_minutes: 0,
      horizon_days: 14,
      slot_minutes: { chat: 15, video: 20 },
      saved: true,
    });
    expect(schedule.weekly_hours).toHaveLength(5);
    const overlapping = await request("PUT", `${CONSOLE}/schedule`, doctor.token, {
      ...WEEK,
      weekly_hours: [
        ...WEEK.weekly_hours,
        { weekday: 1, start: "16:00", end: "18:00", visit_types: ["chat"] },
      ],
    });
    expect(overlapping.statusCode).toBe(422);
    expect(overlapping.json().code).toBe("SCHEDULE_INVALID");
    const badZone = await request("PUT", `${CONSOLE}/schedule`, doctor.token, {
      ...WEEK,
      time_zone: "Mars/Olympus",
    });
    expect(badZone.statusCode).toBe(400);
    const patient = await member();
    expect((await request("GET", `${CONSOLE}/schedule`, patient.access_token)).statusCode).toBe(403);
  });

  it("gives slots in the clinician's zone as instants, with exceptions", async () => {
    const today = await slots("video", "&days=1");
    // 09:00–17:00 PDT is 16:00–24:00 UTC, every 20 minutes.
    expect(today[0]).toBe("2027-06-07T16:00:00.000Z");
    expect(today.at(-1)).toBe("2027-06-07T23:40:00.000Z");
    expect(today).toHaveLength(24);
    const off = await request("POST", `${CONSOLE}/schedule/exceptions`, doctor.token, {
      date: "2027-06-08",
      kind: "off",
    });
    expect(off.statusCode, off.body).toBe(201);
    const tuesday = await slots("video", "&from=2027-06-08T07:00:00Z&days=1");
    expect(tuesday).toEqual([]);
    const removed = await request(
      "DELETE",
      `${CONSOLE}/schedule/exceptions/${off.json().data.id}`,
      doctor.token,
    );
    expect(removed.statusCode).toBe(204);
    expect(await slots("video", "&from=2027-06-08T07:00:00Z&days=1")).toHaveLength(24);
  });
});

describe("holding a slot", () => {
  it("gives one slot to exactly one of 20 patients holding it at once", async () => {
    const patients = await Promise.all(Array.from({ length: 20 }, () => member()));
    // Concurrent inserts of overlapping rows can deadlock in the exclusion constraint's check (a
    // 500 after a second's wait on PostgreSQL): the race is run four more times first, each round
    // on a slot of its own, so that holds not taking turns per clinician are more likely seen failing.
    for (const time of ["20:00", "20:20", "20:40", "21:00"]) {
      const other = `2027-06-09T${time}:00.000Z`;
      const round = await Promise.all(patients.map((patient) => hold(patient, other)));
      const codes = round.map((res) => res.statusCode).sort();
      expect(codes, round.map((res) => `${res.statusCode} ${res.body.slice(0, 120)}`).join("\n")).toEqual([
        201,
        ...Array(19).fill(409),
      ]);
    }
    const start = "2027-06-07T18:00:00.000Z";
    const answers = await Promise.all(patients.map((patient) => hold(patient, start)));
    const codes = answers.map((res) => res.statusCode).sort();
    const told = answers.map((res) => `${res.statusCode} ${res.body.slice(0, 120)}`).join("\n");
    expect(
      codes.filter((code) => code === 201),
      told,
    ).toHaveLength(1);
    expect(
      codes.filter((code) => code === 409),
      told,
    ).toHaveLength(19);
    for (const res of answers.filter((answer) => answer.statusCode === 409)) {
      expect(res.json().code).toBe("SLOT_HELD");
    }
    const [{ n }] = (
      await t.db.db.execute<{ n: number }>(
        sql`select count(*)::int as n from bookings where starts_at = ${start}::timestamptz and status in ('held', 'booked')`,
      )
    ).rows as [{ n: number }];
    expect(n).toBe(1);
    expect(await slots()).not.toContain(start);
  });

  // PGlite runs one statement at a time on one connection, so only PostgreSQL can show the wait.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "takes the clinician's lock before holding, booking or moving a visit, so one clinician's bookings take turns",
    async () => {
      /** Sends `call` while this test holds the clinician's lock: it must wait for the lock. */
      async function waitsForTheLock(what: string, call: () => ReturnType<typeof request>, status = 201) {
        let answered = false;
        const pending = await t.db.db.transaction(async (tx) => {
          await lockClinicianBookings(tx, doctor.userId);
          const answer = call().finally(() => {
            answered = true;
          });
          await new Promise((resolve) => setTimeout(resolve, 500));
          expect(answered, `${what} answered while its clinician's lock was held`).toBe(false);
          return { answer };
        });
        const res = await pending.answer;
        expect(res.statusCode, res.body).toBe(status);
        return res;
      }
      const patient = await member();
      const held = await waitsForTheLock("a hold", () => hold(patient, "2027-06-09T21:20:00.000Z"));
      const created = await waitsForTheLock("booking a hold", () =>
        request(
          "POST",
          "/ambercare/create-consultation",
          patient.access_token,
          consultationRequest("video", holdResponse.parse(held.json()).data.id),
        ),
      );
      const id = consultationResponse.parse(created.json()).data.id;
      const later = await hold(patient, "2027-06-09T21:40:00.000Z");
      expect(later.statusCode, later.body).toBe(201);
      const moved = await waitsForTheLock(
        "moving a visit to a held time",
        () =>
          request("POST", `/ambercare/consultations/${id}/reschedule`, patient.access_token, {
            hold_id: holdResponse.parse(later.json()).data.id,
          }),
        200,
      );
      expect(bookingResponse.parse(moved.json()).data).toMatchObject({ start: "2027-06-09T21:40:00.000Z" });
    },
  );

  it("frees the slot when the hold expires", async () => {
    const [first, second] = [await member(), await member()];
    const start = "2027-06-07T18:20:00.000Z";
    expect((await hold(first, start)).statusCode).toBe(201);
    const refused = await hold(second, start);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("SLOT_HELD");
    clock.advance(10 * 60_000);
    try {
      expect(await slots()).toContain(start);
      const taken = await hold(second, start);
      expect(taken.statusCode, taken.body).toBe(201);
      const rows = await t.db.db
        .select({ status: bookings.status })
        .from(bookings)
        .where(eq(bookings.startsAt, at(start)))
        .orderBy(asc(bookings.createdAt));
      expect(rows.map((row) => row.status)).toEqual(["released", "held"]);
    } finally {
      clock.advance(-10 * 60_000);
    }
  });

  it("refuses a time outside the hours, a provider without a clinician, and another state", async () => {
    const patient = await member();
    const between = await hold(patient, "2027-06-07T18:10:00.000Z");
    expect(between.statusCode).toBe(422);
    expect(between.json().code).toBe("OUTSIDE_HOURS");
    const night = await hold(patient, "2027-06-08T06:00:00.000Z");
    expect(night.json().code).toBe("OUTSIDE_HOURS");
    const nobody = await hold(patient, "2027-06-07T18:00:00.000Z", "video", unlinked.slug);
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json().code).toBe("NOT_TAKING_VISITS");
    const noSlots = await request("GET", `/api/v1/api/provider/${unlinked.slug}/slots?type=video`);
    expect(noSlots.json().code).toBe("NOT_TAKING_VISITS");
    const request_ = await request(
      "POST",
      "/ambercare/create-consultation",
      patient.access_token,
      consultationRequest("video", null, unlinked.slug),
    );
    expect(request_.statusCode).toBe(409);
    expect(request_.json().code).toBe("NOT_TAKING_VISITS");
    const otherState = await request("POST", "/ambercare/bookings/holds", patient.access_token, {
      provider_slug: doctor.slug,
      type: "video",
      state: "AK",
      start: "2027-06-07T20:00:00.000Z",
    });
    const licensedInAlaska = (
      await t.db.db
        .select()
        .from(providerLicenses)
        .where(and(eq(providerLicenses.providerId, doctor.providerId), eq(providerLicenses.state, "AK")))
    ).length;
    if (!licensedInAlaska) expect(otherState.json().code).toBe("PROVIDER_NOT_LICENSED_IN_STATE");
  });
});

describe("a booked visit", () => {
  it("is a scheduled consultation with its provider, and its slot is taken", async () => {
    const patient = await member();
    const start = "2027-06-07T19:00:00.000Z";
    const id = await book(patient, start);
    const visit = await request("GET", `/ambercare/consultations/${id}`, patient.access_token);
    expect(visit.json().data).toMatchObject({
      status: "scheduled",
      scheduled_start: start,
      checked_in_at: null,
      provider: { slug: doctor.slug },
    });
    expect(await bookingOf(patient, id)).toMatchObject({
      start,
      end: "2027-06-07T19:20:00.000Z",
      clinician_time_zone: LA,
      free_cancel_until: "2027-06-07T17:00:00.000Z",
      check_in_opens_at: "2027-06-07T18:45:00.000Z",
      sequence: 0,
      // At 15:00: before the window, and before the 2-hour cut-off.
      check_in_open: false,
      free_to_change: true,
    });
    expect(await slots()).not.toContain(start);
    const history = await t.db.db
      .select({ from: consultationStatusHistory.fromStatus, to: consultationStatusHistory.toStatus })
      .from(consultationStatusHistory)
      .where(eq(consultationStatusHistory.consultationId, id));
    expect(history).toEqual([{ from: null, to: "scheduled" }]);
    const agenda = await request("GET", `${CONSOLE}/agenda`, doctor.token);
    expect(agendaResponse.parse(agenda.json()).data.map((item) => item.consultation_id)).toContain(id);
  });

  it("is not booked from an expired hold", async () => {
    const patient = await member();
    const held = await hold(patient, "2027-06-07T19:20:00.000Z");
    clock.advance(11 * 60_000);
    try {
      const created = await request(
        "POST",
        "/ambercare/create-consultation",
        patient.access_token,
        consultationRequest("video", held.json().data.id),
      );
      expect(created.statusCode).toBe(409);
      expect(created.json().code).toBe("HOLD_EXPIRED");
      expect(
        await t.db.db.select().from(consultations).where(eq(consultations.userId, patient.user_id)),
      ).toEqual([]);
    } finally {
      clock.advance(-11 * 60_000);
    }
  });

  it("keeps its old time until the new one is booked when rescheduled", async () => {
    const patient = await member();
    const first = "2027-06-07T19:40:00.000Z";
    const later = "2027-06-07T20:40:00.000Z";
    const id = await book(patient, first);
    const newHold = await hold(patient, later);
    expect(newHold.statusCode).toBe(201);
    // Held but not yet moved: both times are taken, the visit is still at the first.
    expect(await slots()).not.toContain(first);
    expect(await slots()).not.toContain(later);
    expect((await bookingOf(patient, id)).start).toBe(first);

    // A hold that expired moves nothing.
    clock.advance(11 * 60_000);
    const expired = await request("POST", `/ambercare/consultations/${id}/reschedule`, patient.access_token, {
      hold_id: newHold.json().data.id,
    });
    clock.advance(-11 * 60_000);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().code).toBe("HOLD_EXPIRED");
    expect((await bookingOf(patient, id)).start).toBe(first);
    expect(await slots()).not.toContain(first);

    const again = await hold(patient, later);
    expect(again.statusCode, again.body).toBe(201);
    const moved = await request("POST", `/ambercare/consultations/${id}/reschedule`, patient.access_token, {
      hold_id: again.json().data.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(bookingResponse.parse(moved.json()).data).toMatchObject({ start: later, sequence: 1 });
    expect(await slots()).toContain(first);
    expect(await slots()).not.toContain(later);
    const rows = await t.db.db
      .select({ status: bookings.status, sequence: bookings.sequence })
      .from(bookings)
      .where(eq(bookings.consultationId, id))
      .orderBy(asc(bookings.sequence));
    expect(rows).toEqual([
      { status: "moved", sequence: 0 },
      { status: "booked", sequence: 1 },
    ]);
  });

  it("is canceled free before the cut-off (the credit comes back) and refused after it", async () => {
    const patient = await registerPatient(t.app);
    entitlements.grant(patient.user_id, { credits: { video: 2 } });
    const early = await book(patient, "2027-06-07T21:00:00.000Z");
    const soon = await book(patient, "2027-06-07T16:40:00.000Z");
    expect(entitlements.credits(patient.user_id).video).toBe(0);

    const canceled = await request("POST", `/ambercare/consultations/${early}/cancel`, patient.access_token);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().data.status).toBe("canceled");
    expect(entitlements.credits(patient.user_id).video).toBe(1);
    expect(await slots()).toContain("2027-06-07T21:00:00.000Z");

    // 16:40 is less than 2 hours away at 15:00.
    const late = await request("POST", `/ambercare/consultations/${soon}/cancel`, patient.access_token);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe("TOO_LATE_TO_CANCEL");
    expect(await statusOf(soon)).toBe("scheduled");
    expect(entitlements.credits(patient.user_id).video).toBe(1);
  });

  it("is refunded in full when the clinician cancels it, and its time is free again", async () => {
    const patient = await member();
    const start = "2027-06-07T21:20:00.000Z";
    const id = await book(patient, start);
    const res = await request("POST", `${CONSOLE}/visits/${id}/cancel`, doctor.token, {
      reason: "Called away",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf(id)).toBe("canceled");
    expect(refunded).toContain(id);
    expect(await endingOf(patient, id)).toEqual({ by: "clinician", reason: "Called away", refund: null });
    expect(await slots()).toContain(start);
    const [row] = await t.db.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.consultationId, id));
    expect(row?.status).toBe("canceled");
  });

  it("is checked in to from 15 minutes before its start, and started by its clinician", async () => {
    const patient = await member();
    const start = "2027-06-07T17:00:00.000Z";
    const id = await book(patient, start);
    const checkIn = () => request("POST", `/ambercare/consultations/${id}/check-in`, patient.access_token);
    const startVisit = () => request("POST", `${CONSOLE}/visits/${id}/start`, doctor.token);
    clock.set(at("2027-06-07T16:44:00Z"));
    try {
      // What the moment allows is the API's clock's to say (the pages show what it says).
      expect(await bookingOf(patient, id)).toMatchObject({ check_in_open: false, free_to_change: false });
      const early = await checkIn();
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe("CHECK_IN_NOT_OPEN");
      // The minutes before the start that check-in opens, as configured: the pages say them.
      expect(early.json().details).toEqual({ minutes: 15 });
      expect((await startVisit()).json().code).toBe("CHECK_IN_NOT_OPEN");
      clock.set(at("2027-06-07T16:46:00Z"));
      expect(await bookingOf(patient, id)).toMatchObject({ check_in_open: true, free_to_change: false });
      const ok = await checkIn();
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.checked_in_at).toBe("2027-06-07T16:46:00.000Z");
      const agenda = agendaResponse.parse((await request("GET", `${CONSOLE}/agenda`, doctor.token)).json());
      expect(agenda.data.find((item) => item.consultation_id === id)?.checked_in_at).toBe(
        "2027-06-07T16:46:00.000Z",
      );
      const started = await startVisit();
      expect(started.statusCode, started.body).toBe(200);
      expect(await statusOf(id)).toBe("in_progress");
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
    }
  });

  it("has its call's device check for both sides from check-in, before its clinician starts it", async () => {
    const patient = await member();
    const start = "2027-06-07T16:20:00.000Z";
    const id = await book(patient, start);
    const clinicianSetup = () => request("GET", `${CONSOLE}/visits/${id}/call`, doctor.token);
    const patientSetup = () => request("GET", `/ambercare/consultations/${id}/call`, patient.access_token);
    clock.set(at("2027-06-07T16:04:00Z"));
    try {
      const [clinicianEarly, patientEarly] = [await clinicianSetup(), await patientSetup()];
      for (const early of [clinicianEarly, patientEarly]) {
        expect(early.statusCode, early.body).toBe(409);
        expect(early.json().code).toBe("CHECK_IN_NOT_OPEN");
      }
      // When check-in opens, for the page to say: to the clinician, in the zone of their hours.
      const opensAt = new Date(at(start).getTime() - t.app.config.CHECK_IN_OPENS_MINUTES * 60_000);
      expect(clinicianEarly!.json().details).toEqual({ opens_at: opensAt.toISOString(), time_zone: LA });
      expect(patientEarly!.json().details).toEqual({ opens_at: opensAt.toISOString() });
      clock.set(at("2027-06-07T16:05:00Z"));
      const clinician = await clinicianSetup();
      expect(clinician.statusCode, clinician.body).toBe(200);
      expect(clinician.json().data).toMatchObject({
        consultation_id: id,
        side: "clinician",
        open: false,
        ice_servers: expect.any(Array),
      });
      const own = await patientSetup();
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().data).toMatchObject({ side: "patient", open: false });
      // Testing the devices starts nothing: the visit waits for its clinician's start.
      expect(await statusOf(id)).toBe("scheduled");
      const stranger = await member();
      const refused = await request("GET", `/ambercare/consultations/${id}/call`, stranger.access_token);
      expect(refused.statusCode).toBe(403);
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
    }
  });

  it("is a video call its clinician starts from 15 minutes before, ringing the patient's waiting room", async () => {
    const patient = await member();
    const start = "2027-06-07T18:40:00.000Z";
    const id = await book(patient, start);
    const [free] = await t.db.db
      .select({ id: providers.id })
      .from(providers)
      .leftJoin(clinicians, eq(clinicians.providerId, providers.id))
      .where(and(isNull(clinicians.userId), ne(providers.id, unlinked.id)))
      .orderBy(desc(providers.slug))
      .limit(1);
    const other = await clinicianFor(free!.id);
    const startCall = (clinician: Clinician) =>
      request("POST", `${CONSOLE}/visits/${id}/call/start`, clinician.token);
    /** The live events the patient's pages got about this visit (stored for a page that resumes). */
    const patientEvents = async () =>
      (
        await t.db.db
          .select({ topic: liveEvents.topic, payload: liveEvents.payload })
          .from(liveEvents)
          .where(eq(liveEvents.userId, patient.user_id))
          .orderBy(asc(liveEvents.id))
      ).filter((event) => event.payload.consultation_id === id);
    clock.set(at("2027-06-07T18:24:00Z"));
    try {
      const early = await startCall(doctor);
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe("CHECK_IN_NOT_OPEN");
      clock.set(at("2027-06-07T18:26:00Z"));
      const refused = await startCall(other);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe("CONSULTATION_OTHER_CLINICIAN");
      expect(await statusOf(id)).toBe("scheduled");
      expect((await patientEvents()).map((event) => event.topic)).not.toContain("visit.call.ring");

      const started = await startCall(doctor);
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().data).toMatchObject({ id, status: "in_progress" });
      expect(await statusOf(id)).toBe("in_progress");
      expect(await patientEvents()).toEqual(
        expect.arrayContaining([
          { topic: "visit.status", payload: expect.objectContaining({ status: "in_progress" }) },
          { topic: "visit.call.ring", payload: { consultation_id: id } },
        ]),
      );
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
    }
  });

  it("is marked missed by its clinician only 10 minutes after its start without a check-in", async () => {
    const patient = await member();
    const id = await book(patient, "2027-06-07T17:20:00.000Z");
    const missed = () => request("POST", `${CONSOLE}/visits/${id}/missed`, doctor.token);
    clock.set(at("2027-06-07T17:29:00Z"));
    try {
      const early = await missed();
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe("NOT_MISSED_YET");
      // The grace as configured, for the web to word: no copy of the figure anywhere else.
      expect(early.json().details).toEqual({ minutes: t.app.config.NO_SHOW_GRACE_MINUTES });
      clock.set(at("2027-06-07T17:30:00Z"));
      const ok = await missed();
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.status).toBe("missed");
      expect(refunded).not.toContain(id);
      const other = await member();
      expect((await request("POST", `${CONSOLE}/visits/${id}/missed`, other.access_token)).statusCode).toBe(
        403,
      );
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
    }
  });

  it("is not started, but canceled and refunded, when the licence lapsed before its start", async () => {
    const patient = await member();
    const id = await book(patient, "2027-06-07T17:40:00.000Z");
    await t.db.db
      .delete(providerLicenses)
      .where(and(eq(providerLicenses.providerId, doctor.providerId), eq(providerLicenses.state, STATE)));
    clock.set(at("2027-06-07T17:38:00Z"));
    try {
      const res = await request("POST", `${CONSOLE}/visits/${id}/start`, doctor.token);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe("PROVIDER_NOT_LICENSED_IN_STATE");
      expect(await statusOf(id)).toBe("canceled");
      expect(refunded).toContain(id);
      // The patient's page: the clinic canceled it, because of the licence (the history's cause).
      expect(await endingOf(patient, id)).toEqual({
        by: "system",
        reason: null,
        cause: "licence_lapsed",
        refund: null,
      });
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
      await t.db.db.insert(providerLicenses).values({ providerId: doctor.providerId, state: STATE });
    }
  });
});

describe("the directory", () => {
  it("shows the next free slot and taking visits only for providers with a clinician", async () => {
    t.app.scheduling.availability.invalidate();
    const res = await request("GET", `/api/v1/api/provider/${doctor.slug}`);
    const provider = providerResponse.parse(res.json()).data;
    expect(provider).toMatchObject({ taking_visits: true, available_today: true });
    expect(provider.next_available).toBe((await slots("chat"))[0]);
    const other = providerResponse.parse(
      (await request("GET", `/api/v1/api/provider/${unlinked.slug}`)).json(),
    ).data;
    expect(other).toMatchObject({ taking_visits: false, available_today: false, next_available: null });
    const list = providerListResponse.parse(
      (await request("GET", "/api/v1/api/provider?available_today=true&per_page=50")).json(),
    );
    expect(list.data.map((card) => card.slug)).toContain(doctor.slug);
    expect(list.data.every((card) => card.taking_visits)).toBe(true);
  });

  it("shows the demo clinicians' next free times once the demo hours are seeded", async () => {
    await seedDemoBooking(t.db, clock.now());
    // New providers: the directory's copy is reloaded (the API seeds before it starts).
    await t.app.providerDirectory.refresh();
    t.app.scheduling.availability.invalidate();
    for (const clinician of DEMO_BOOKING_CLINICIANS) {
      const res = await request("GET", `/api/v1/api/provider/${clinician.slug}`);
      const provider = providerResponse.parse(res.json()).data;
      expect(provider.taking_visits, clinician.slug).toBe(true);
      expect(provider.next_available, clinician.slug).not.toBeNull();
      const type = clinician.types[0]!;
      const free = await request(
        "GET",
        `/api/v1/api/provider/${clinician.slug}/slots?type=${type}&state=${clinician.states[0]}`,
      );
      const body = slotsResponse.parse(free.json()).data;
      expect(body.time_zone).toBe(clinician.timeZone);
      expect(body.slots.length, clinician.slug).toBeGreaterThan(0);
    }
  });
});

describe("the reminders of a booked visit", () => {
  // Tuesday 2027-06-08, 10:00 in Los Angeles and onwards; the clock stays on Monday morning.
  const TUESDAY = ["17:00", "17:20", "17:40", "18:00", "18:20"].map((time) => `2027-06-08T${time}:00.000Z`);
  const minutesBefore = (start: string, minutes: number) => new Date(at(start).getTime() - minutes * 60_000);
  const reminders = (patient: Patient) =>
    mailFilesTo(t.app.config.DATA_DIR, patient.email).filter((mail) =>
      /Reminder|Напомняне/.test(mail.headers.get("subject") ?? ""),
    );

  it("is e-mailed once at each time before the visit, in the patient's language and zone", async () => {
    const patient = await member();
    await t.db.db
      .update(users)
      .set({ locale: "bg", timeZone: "Europe/Sofia" })
      .where(eq(users.id, patient.user_id));
    const id = await book(patient, TUESDAY[0]!);

    await t.app.jobs.runDue(new Date(minutesBefore(TUESDAY[0]!, 1440).getTime() - 60_000));
    expect(reminders(patient)).toHaveLength(0);
    await t.app.jobs.runDue(minutesBefore(TUESDAY[0]!, 1440));
    const [first, ...others] = reminders(patient);
    expect(others).toHaveLength(0);
    // 10:00 in Los Angeles is 20:00 in Sofia, written in Bulgarian with the zone.
    expect(first!.headers.get("subject")).toContain("Напомняне");
    expect(first!.text).toContain("8 юни 2027 г. в 20:00 ч. Гринуич+3");
    expect(first!.html).toContain("20:00");
    expect(first!.text).toContain(`/my-profile/consultations/${id}`);
    await t.app.jobs.runDue(minutesBefore(TUESDAY[0]!, 1440));
    expect(reminders(patient)).toHaveLength(1);

    await t.app.jobs.runDue(minutesBefore(TUESDAY[0]!, 60));
    expect(reminders(patient)).toHaveLength(2);
    await t.app.jobs.runDue(minutesBefore(TUESDAY[0]!, 30));
    expect(reminders(patient)).toHaveLength(2);
  });

  it("is not sent for a canceled visit, nor for the old time of a moved one", async () => {
    const canceling = await member();
    const canceled = await book(canceling, TUESDAY[1]!);
    const res = await request("POST", `/ambercare/consultations/${canceled}/cancel`, canceling.access_token);
    expect(res.statusCode, res.body).toBe(200);

    const moving = await member();
    const id = await book(moving, TUESDAY[2]!);
    const held = await hold(moving, TUESDAY[3]!);
    expect(held.statusCode, held.body).toBe(201);
    const moved = await request("POST", `/ambercare/consultations/${id}/reschedule`, moving.access_token, {
      hold_id: held.json().data.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);

    // The old time's reminders are due first, and are no-ops.
    await t.app.jobs.runDue(minutesBefore(TUESDAY[2]!, 60));
    expect(reminders(canceling)).toHaveLength(0);
    expect(reminders(moving)).toHaveLength(1);
    expect(reminders(moving)[0]!.text).toContain("11:00 AM PDT");
    await t.app.jobs.runDue(minutesBefore(TUESDAY[3]!, 60));
    expect(reminders(canceling)).toHaveLength(0);
    const sent = reminders(moving);
    expect(sent).toHaveLength(2);
    // The patient has no zone of their own: the clinician's is used.
    for (const mail of sent) expect(mail.text).toContain("Tuesday, June 8, 2027 at 11:00 AM PDT");
    expect(sent.some((mail) => mail.text.includes("10:40"))).toBe(false);
  });

  it("is sent once by two runners at once, and once by a runner that starts after its time", async () => {
    const patient = await member();
    await book(patient, TUESDAY[4]!);
    /** Another API process on the same database: a runner of its own with the reminders' handler. */
    const otherProcess = () => {
      const runner = createJobRunner({ db: t.db.db, clock, log: t.app.log });
      registerBookingReminders(runner, {
        db: t.db.db,
        mailer: t.app.mailer,
        productName: t.app.config.PRODUCT_NAME,
        consultationsUrl: "http://web.test/my-profile/consultations",
      });
      return runner;
    };

    const dayBefore = minutesBefore(TUESDAY[4]!, 1440);
    await Promise.all([t.app.jobs.runDue(dayBefore), otherProcess().runDue(dayBefore)]);
    expect(reminders(patient)).toHaveLength(1);

    // The hour-before reminder's time passes with no process up; one started 20 minutes later sends
    // it once, and nothing runs it again.
    const restarted = otherProcess();
    await restarted.runDue(minutesBefore(TUESDAY[4]!, 40));
    expect(reminders(patient)).toHaveLength(2);
    await restarted.runDue(minutesBefore(TUESDAY[4]!, 30));
    await t.app.jobs.runDue(minutesBefore(TUESDAY[4]!, 30));
    expect(reminders(patient)).toHaveLength(2);
    const keys = await t.db.db
      .select({ key: jobs.dedupeKey, doneAt: jobs.doneAt })
      .from(jobs)
      .where(
        sql`${jobs.dedupeKey} like ${"booking.reminder:%"} and ${jobs.payload}->>'startsAt' = ${TUESDAY[4]}`,
      );
    expect(keys.map((row) => row.key.split(":").slice(2).join(":")).sort()).toEqual(["0:1440", "0:60"]);
    expect(keys.every((row) => row.doneAt !== null)).toBe(true);
  });
});

describe("the web push of a booked visit", () => {
  it("tells the patient's device an hour and ten minutes before, generically", async () => {
    const push = await startPushServiceStandIn();
    try {
      const start = "2027-06-08T19:00:00.000Z";
      const before = (minutes: number) => new Date(at(start).getTime() - minutes * 60_000);
      const patient = await member();
      const phone = push.browser();
      const added = await request("POST", "/ambercare/notifications/devices", patient.access_token, {
        ...phone.subscription,
        label: "Phone",
      });
      expect(added.statusCode, added.body).toBe(201);
      const id = await book(patient, start);

      await t.app.jobs.runDue(before(61));
      expect(phone.messages()).toHaveLength(0);
      await t.app.jobs.runDue(before(60));
      await t.app.jobs.runDue(before(10));
      await t.app.jobs.runDue(before(5));
      const texts = phone.messages().map((message) => JSON.parse(phone.decrypt(message.body)));
      expect(texts.map((text) => text.body)).toEqual([
        "Your visit starts in 60 minutes.",
        "Your visit starts in 10 minutes.",
      ]);
      expect(texts[0].url).toBe(`/my-profile/consultations/${id}`);
    } finally {
      await push.close();
    }
  });
});

describe("the calendar e-mails of a booked visit", () => {
  /** The `.ics` attachments of the messages written to `email`, oldest first, parsed by ical.js. */
  function invitations(email: string) {
    const directory = join(t.app.config.DATA_DIR, "mail");
    return readdirSync(directory)
      .filter((name) => name.endsWith(".eml"))
      .sort()
      .map((name) => readFileSync(join(directory, name), "utf8").replaceAll("\r\n", "\n"))
      .filter((raw) => raw.includes(`\nTo: ${email}\n`))
      .flatMap((raw) => {
        const part =
          /Content-Type: text\/calendar[^\n]*(?:\n[ \t][^\n]*)*\n((?:[^\n]+\n)*)\n([\s\S]*?)\n--/.exec(raw);
        if (!part) return [];
        const body = part[1]!.includes("base64")
          ? Buffer.from(part[2]!.replaceAll(/\s/g, ""), "base64").toString("utf8")
          : part[2]!
              .replaceAll("=\n", "")
              .replaceAll(/=([0-9A-F]{2})/g, (_m, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              );
        const calendar = new ICAL.Component(ICAL.parse(body));
        const event = calendar.getFirstSubcomponent("vevent")!;
        return [
          {
            method: calendar.getFirstPropertyValue("method"),
            uid: event.getFirstPropertyValue("uid"),
            sequence: event.getFirstPropertyValue("sequence"),
            start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
            text: raw,
          },
        ];
      });
  }

  it("carry an invitation on booking, an update on a move and a cancel on cancel", async () => {
    const patient = await member();
    const first = "2027-06-09T17:00:00.000Z";
    const later = "2027-06-09T18:00:00.000Z";
    const id = await book(patient, first);
    await t.app.jobs.runDue(clock.now());
    const held = await hold(patient, later);
    const moved = await request("POST", `/ambercare/consultations/${id}/reschedule`, patient.access_token, {
      hold_id: held.json().data.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await t.app.jobs.runDue(clock.now());
    const canceled = await request("POST", `/ambercare/consultations/${id}/cancel`, patient.access_token);
    expect(canceled.statusCode, canceled.body).toBe(200);
    await t.app.jobs.runDue(clock.now());
    await t.app.jobs.runDue(clock.now());

    const sent = invitations(patient.email);
    expect(sent.map(({ method, uid, sequence, start }) => ({ method, uid, sequence, start }))).toEqual([
      { method: "REQUEST", uid: expect.stringMatching(new RegExp(`^${id}@`)), sequence: 0, start: first },
      { method: "REQUEST", uid: sent[0]!.uid, sequence: 1, start: later },
      { method: "CANCEL", uid: sent[0]!.uid, sequence: 1, start: later },
    ]);
    const subjects = mailFilesTo(t.app.config.DATA_DIR, patient.email).map((mail) =>
      mail.headers.get("subject"),
    );
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringContaining("is booked for Wednesday, June 9, 2027 at 10:00 AM PDT"),
        expect.stringContaining("moved to Wednesday, June 9, 2027 at 11:00 AM PDT"),
        expect.stringContaining("on Wednesday, June 9, 2027 at 11:00 AM PDT is canceled"),
      ]),
    );
    expect(sent[0]!.text).toContain(`/my-profile/consultations/${id}`);
  });
});

describe("a booked visit's calendar file", () => {
  it("is the visit's event with the invitation's UID, for its patient only, and gone once canceled", async () => {
    const patient = await member();
    const other = await member();
    const first = "2027-06-10T17:00:00.000Z";
    const later = "2027-06-10T18:00:00.000Z";
    const id = await book(patient, first);
    const url = `/ambercare/consultations/${id}/calendar`;
    const read = async (lang = "en") => {
      const res = await request("GET", `${url}?lang=${lang}`, patient.access_token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/calendar/);
      expect(res.headers["content-disposition"]).toContain("attachment");
      const calendar = new ICAL.Component(ICAL.parse(res.body));
      const event = calendar.getFirstSubcomponent("vevent")!;
      return {
        method: calendar.getFirstPropertyValue("method"),
        uid: event.getFirstPropertyValue("uid"),
        sequence: event.getFirstPropertyValue("sequence"),
        start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
        summary: String(event.getFirstPropertyValue("summary")),
        attendees: event.getAllProperties("attendee").length,
      };
    };
    expect(await read()).toMatchObject({
      method: "PUBLISH",
      uid: expect.stringMatching(new RegExp(`^${id}@`)),
      sequence: 0,
      start: first,
      attendees: 0,
    });
    expect((await read("bg")).summary).not.toBe((await read("en")).summary);
    expect((await request("GET", url, other.access_token)).statusCode).toBe(403);
    expect((await request("GET", `${url}?lang=xx`, patient.access_token)).statusCode).toBe(400);

    const held = await hold(patient, later);
    const moved = await request("POST", `/ambercare/consultations/${id}/reschedule`, patient.access_token, {
      hold_id: held.json().data.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await read()).toMatchObject({ sequence: 1, start: later });

    const canceled = await request("POST", `/ambercare/consultations/${id}/cancel`, patient.access_token);
    expect(canceled.statusCode, canceled.body).toBe(200);
    const gone = await request("GET", url, patient.access_token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe("NOT_FOUND");
  });
});

describe("a booked visit its clinician never starts", () => {
  it("is canceled by the system and refunded after the grace, unless it was marked missed", async () => {
    const patient = await member();
    const start = "2027-06-10T17:00:00.000Z";
    const id = await book(patient, start);
    const noShow = await member();
    const missedAt = "2027-06-10T18:00:00.000Z";
    const missedId = await book(noShow, missedAt);
    const after = (minutes: number, from = start) => new Date(at(from).getTime() + minutes * 60_000);

    await t.app.jobs.runDue(after(9));
    expect(await statusOf(id)).toBe("scheduled");
    await t.app.jobs.runDue(after(10));
    expect(await statusOf(id)).toBe("canceled");
    expect(refunded).toContain(id);
    // The patient's page says the clinic canceled it because its clinician never started, not "you".
    // Days on, the runner's sweep has ended the patient's session: the service the route calls.
    const patientCaller = {
      auth: {
        userId: patient.user_id,
        role: "patient",
        isServiceAccount: false,
        surface: "care",
        providerId: null,
        secondFactorEnabled: false,
        tokenHash: "",
      },
      ip: null,
    } as const;
    expect((await t.app.consultations.waitingRoom(patientCaller, id)).ending).toEqual({
      by: "system",
      reason: null,
      cause: "clinician_never_started",
      refund: null,
    });
    await t.app.mailer.drain();
    const mail = mailFilesTo(t.app.config.DATA_DIR, patient.email);
    expect(mail.map((message) => message.headers.get("subject"))).toEqual(
      expect.arrayContaining([expect.stringMatching(/was canceled/)]),
    );
    expect(mail.some((message) => message.text.includes("You can request a new consultation"))).toBe(true);

    // The clinician marked the other visit missed: the check leaves it so.
    clock.set(after(10, missedAt));
    try {
      // Three days on, the console's session has expired: the service the route calls.
      await t.app.scheduling.bookings.markMissed(
        { userId: doctor.userId, providerId: doctor.providerId },
        missedId,
      );
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
    }
    await t.app.jobs.runDue(after(10, missedAt));
    expect(await statusOf(missedId)).toBe("missed");
    expect(refunded).not.toContain(missedId);
  });
});

describe("the e-mails of a booked visit that did not take place", () => {
  // Friday 2027-06-11, in the doctor's hours (09:00–17:00 in Los Angeles).
  const FRIDAY = ["16:00", "17:00", "18:00", "19:00"].map((time) => `2027-06-11T${time}:00.000Z`);
  const after = (from: string, minutes: number) => new Date(at(from).getTime() + minutes * 60_000);

  async function patientIn(locale: "en" | "bg", timeZone: string): Promise<Patient> {
    const patient = await member();
    await t.db.db.update(users).set({ locale, timeZone }).where(eq(users.id, patient.user_id));
    return patient;
  }

  async function mailOf(patient: Patient, subject: RegExp) {
    await t.app.mailer.drain();
    return mailFilesTo(t.app.config.DATA_DIR, patient.email).filter((mail) =>
      subject.test(mail.headers.get("subject") ?? ""),
    );
  }

  /** The offered times of a message: "• <time> with <provider>" and the link to book it. */
  const offersIn = (text: string) =>
    [...text.matchAll(/^• (.+) (?:with|при) (.+)\n(\S+)$/gm)].map((match) => ({
      time: match[1]!,
      provider: match[2]!,
      link: new URL(match[3]!),
    }));

  /**
   * Each offered time is a free slot of its provider as the public slots answer it now, written in
   * the patient's language and zone, earliest first; the doctor's first free time is among them
   * unless three earlier ones were offered, or the doctor canceled the visit (`canceledByDoctor`):
   * then none is the doctor's.
   */
  /** `byDoctor`: the visit did not take place because of its doctor, who is then not offered again. */
  async function expectTrueOffers(text: string, locale: "en" | "bg", zone: string, byDoctor = false) {
    const offers = offersIn(text);
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.length).toBeLessThanOrEqual(3);
    const starts: number[] = [];
    for (const offer of offers) {
      expect(offer.link.pathname).toBe("/consultation/book");
      expect(offer.link.searchParams.get("type")).toBe("video");
      expect(offer.link.searchParams.get("state")).toBe(STATE);
      const slug = offer.link.searchParams.get("provider");
      const res = await request("GET", `/api/v1/api/provider/${slug}/slots?type=video&state=${STATE}`);
      expect(res.statusCode, res.body).toBe(200);
      const free = slotsResponse.parse(res.json()).data.slots.map((slot) => new Date(slot.start));
      const slot = free.find((start) => visitTime(start, locale, zone) === offer.time);
      expect(slot, `${offer.time} is not a free time of ${slug}`).toBeDefined();
      starts.push(slot!.getTime());
    }
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    if (byDoctor) {
      expect(offers.map((offer) => offer.link.searchParams.get("provider"))).not.toContain(doctor.slug);
      return;
    }
    const doctorFirst = at((await slots())[0]!).getTime();
    if (offers.length < 3 || doctorFirst < starts.at(-1)!) expect(starts).toContain(doctorFirst);
  }

  it("tells the patient their clinician never started, with the money back and times to rebook", async () => {
    const patient = await patientIn("bg", "Europe/Sofia");
    const id = await book(patient, FRIDAY[0]!);
    await t.app.jobs.runDue(after(FRIDAY[0]!, 9));
    expect(await mailOf(patient, /не я започна навреме/)).toHaveLength(0);
    await t.app.jobs.runDue(after(FRIDAY[0]!, 10));
    expect(await statusOf(id)).toBe("canceled");
    const sent = await mailOf(patient, /не я започна навреме/);
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail!.text).toContain(visitTime(at(FRIDAY[0]!), "bg", "Europe/Sofia"));
    expect(mail!.text).toContain("членството Ви");
    expect(mail!.text).not.toContain("трябваше да отмени");
    // The doctor who never started is not offered again, though their own times are among the nearest.
    const nearest = await t.app.scheduling.schedules.nearestFree({ type: "video", state: STATE, limit: 3 });
    expect(nearest.map((offer) => offer.providerSlug)).toContain(doctor.slug);
    await expectTrueOffers(mail!.text, "bg", "Europe/Sofia", true);
    expect(mail!.html).toContain('<html lang="bg">');
    // The job run again later (a restart) writes nothing more.
    await t.app.jobs.runDue(after(FRIDAY[0]!, 60));
    await t.app.visits.settlePending();
    expect(await mailOf(patient, /не я започна навреме/)).toHaveLength(1);
  });

  it("offers the nearest free times when the clinician cancels, but not when the patient does", async () => {
    const patient = await patientIn("en", LA);
    const id = await book(patient, FRIDAY[1]!);
    // The console's session has expired at the test's clock by now: the service the route calls.
    const canceled = await t.app.visits.cancelByClinician(
      { userId: doctor.userId, providerId: doctor.providerId },
      id,
      "Called away",
    );
    expect(canceled.status).toBe("canceled");
    // The e-mail is a job queued with the cancel (ADR 060), due at once.
    expect(await mailOf(patient, /was canceled/)).toHaveLength(0);
    await t.app.jobs.runDue(clock.now());
    const sent = await mailOf(patient, /was canceled/);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("the clinician had to cancel your video consultation");
    expect(sent[0]!.text).not.toContain("did not start");
    // The doctor's own free times are among the nearest of anyone's; the one who canceled is not offered.
    const nearest = await t.app.scheduling.schedules.nearestFree({ type: "video", state: STATE, limit: 3 });
    expect(nearest.map((offer) => offer.providerSlug)).toContain(doctor.slug);
    await expectTrueOffers(sent[0]!.text, "en", LA, true);
    expect(sent[0]!.text).toContain("/consultation/book?type=video&state=CA");

    const canceling = await patientIn("en", LA);
    const own = await book(canceling, FRIDAY[2]!);
    const mine = await request("POST", `/ambercare/consultations/${own}/cancel`, canceling.access_token);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(await endingOf(canceling, own)).toEqual({ by: "patient", reason: null, refund: null });
    await t.app.jobs.runDue(after(FRIDAY[2]!, 10));
    const all = await mailOf(canceling, /./);
    expect(all.some((mail) => offersIn(mail.text).length > 0)).toBe(false);
    expect(all.some((mail) => /had to cancel|did not start/.test(mail.text))).toBe(false);
  });

  it("tells the patient a visit was marked missed, what that means, and how to book again", async () => {
    const patient = await patientIn("en", "Europe/Sofia");
    const id = await book(patient, FRIDAY[3]!);
    clock.set(after(FRIDAY[3]!, 10));
    try {
      expect(await mailOf(patient, /marked missed/)).toHaveLength(0);
      // Days on, the console's session has expired: the service the route calls.
      await t.app.scheduling.bookings.markMissed(
        { userId: doctor.userId, providerId: doctor.providerId },
        id,
      );
      expect(await statusOf(id)).toBe("missed");
      await t.app.jobs.runDue(clock.now());
      const sent = await mailOf(patient, /marked missed/);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.headers.get("subject")).toContain(visitTime(at(FRIDAY[3]!), "en", "Europe/Sofia"));
      expect(sent[0]!.text).toContain("counts as used");
      expect(sent[0]!.text).toContain(`within ${t.app.config.NO_SHOW_GRACE_MINUTES} minutes of its start`);
      expect(sent[0]!.text).toContain("Book a new time:");
      await expectTrueOffers(sent[0]!.text, "en", "Europe/Sofia");
      await expect(
        t.app.scheduling.bookings.markMissed({ userId: doctor.userId, providerId: doctor.providerId }, id),
      ).rejects.toMatchObject({ code: "CONSULTATION_TRANSITION_REFUSED" });
      await t.app.jobs.runDue(after(FRIDAY[3]!, 10));
      expect(await mailOf(patient, /marked missed/)).toHaveLength(1);
      expect(await mailOf(patient, /was canceled/)).toHaveLength(0);
      expect(refunded).not.toContain(id);
    } finally {
      clock.set(at("2027-06-07T15:00:00Z"));
    }
  });

  it("is a job of the change: written once by two runners at once and once after a restart", async () => {
    // Friday 13:00 and 14:00 in Los Angeles.
    const [first, second] = ["2027-06-11T20:00:00.000Z", "2027-06-11T21:00:00.000Z"];
    /** Another API process on the same database, with the no-show check and these e-mails. */
    const otherProcess = () => {
      const runner = createJobRunner({ db: t.db.db, clock, log: t.app.log });
      registerNoShowCheck(runner, t.app.scheduling.bookings);
      registerBookedVisitMails(runner, {
        db: t.db.db,
        mail: t.app.visits.mail,
        rebookFor: (id, exceptItsClinician) => t.app.scheduling.bookings.rebookFor(id, exceptItsClinician),
        refund: refundVisit,
      });
      return runner;
    };
    const jobOf = async (key: string) =>
      (
        await t.db.db
          .select({ attempts: jobs.attempts, doneAt: jobs.doneAt })
          .from(jobs)
          .where(eq(jobs.dedupeKey, key))
      )[0];

    const waiting = await patientIn("en", LA);
    const neverStarted = await book(waiting, first!);
    const due = after(first!, 10);
    await Promise.all([t.app.jobs.runDue(due), otherProcess().runDue(due)]);
    expect(await statusOf(neverStarted)).toBe("canceled");
    expect(await mailOf(waiting, /did not start/)).toHaveLength(1);
    expect(await jobOf(bookedVisitMailKey(neverStarted, "visit-not-started"))).toMatchObject({
      attempts: 1,
      doneAt: expect.any(Date),
    });
    // The cause is a code of the history, not its reason's text.
    const [history] = await t.db.db
      .select({ cause: consultationStatusHistory.cause, actorKind: consultationStatusHistory.actorKind })
      .from(consultationStatusHistory)
      .where(eq(consultationStatusHistory.consultationId, neverStarted))
      .orderBy(desc(consultationStatusHistory.id))
      .limit(1);
    expect(history).toEqual({ cause: "clinician_never_started", actorKind: "system" });
    await t.app.visits.settlePending();
    expect(await mailOf(waiting, /did not start|was canceled/)).toHaveLength(1);

    // The clinician cancels; the process stops before the e-mail's job runs. The job was committed
    // with the cancel, so a process started later writes it, once.
    const canceledPatient = await patientIn("bg", "Europe/Sofia");
    const canceled = await book(canceledPatient, second!);
    await t.app.visits.cancelByClinician(
      { userId: doctor.userId, providerId: doctor.providerId },
      canceled,
      "Called away",
    );
    const key = bookedVisitMailKey(canceled, "visit-canceled");
    expect(await jobOf(key)).toMatchObject({ attempts: 0, doneAt: null });
    expect(await mailOf(canceledPatient, /беше отменена/)).toHaveLength(0);
    const restarted = otherProcess();
    await restarted.runDue(new Date(clock.now().getTime() + 60_000));
    await t.app.jobs.runDue(new Date(clock.now().getTime() + 120_000));
    const sent = await mailOf(canceledPatient, /беше отменена/);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("трябваше да отмени");
    expect(await jobOf(key)).toMatchObject({ attempts: 1, doneAt: expect.any(Date) });
  });
});
