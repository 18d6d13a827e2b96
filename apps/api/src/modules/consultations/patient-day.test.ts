import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { queueResponse } from "@ambercare/contracts/console";
import { CONSULTATION_ERRORS } from "@ambercare/contracts/consultation";
import { EXAMPLE_INTAKE } from "@ambercare/contracts/intake-example";
import { providerLicenses, users } from "@ambercare/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licensedState, requestChat } from "#api/modules/consultations/intake-test-support.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  createTestEntitlements,
  offerEveryVisitType,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

/**
 * A patient's today is the day in their profile's time zone, else the clinic's (CLINIC_TIME_ZONE,
 * here New York), never UTC's: the dates they give may not be after it and their age counts to it.
 * At 02:00 UTC on 3 May it is still 2 May, 22:00, in New York and already 3 May, 05:00, in Sofia.
 */

const NOW = new Date("2031-05-03T02:00:00Z");
const clock = createManualClock(NOW);
const entitlements = createTestEntitlements();
let t: TestApp;
let clinician: Awaited<ReturnType<typeof registerClinician>>;
let state: string;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    entitlements,
    env: { RATE_LIMIT_MAX: "100000", CLINIC_TIME_ZONE: "America/New_York" },
  });
  clinician = await registerClinician(t, clock.now());
  // The provider is picked at random: it takes every visit type and its licence is in force on NOW
  // (2031), whatever the seed gave it, or the queue rightly leaves the chat requests out.
  await offerEveryVisitType(t.db.db, clinician.providerId);
  state = await licensedState(t.db.db, clinician.providerId);
  await t.db.db
    .update(providerLicenses)
    .set({ expiresOn: null })
    .where(and(eq(providerLicenses.providerId, clinician.providerId), eq(providerLicenses.state, state)));
});

afterAll(async () => {
  await t.close();
});

/** A member whose profile has `zone` (none when null). */
async function patientIn(zone: string | null) {
  const patient = await registerPatient(t.app);
  entitlements.grant(patient.user_id, { member: true });
  await t.db.db.update(users).set({ timeZone: zone }).where(eq(users.id, patient.user_id));
  return patient;
}

type Patient = Awaited<ReturnType<typeof patientIn>>;

const create = (patient: Patient, intake: Record<string, unknown>) =>
  requestChat(t.app, patient.access_token, state, intake);

const updateUser = (patient: Patient, fields: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: "/ambercare/update-user",
    headers: bearer(patient.access_token),
    payload: { user_id: patient.user_id, ...fields },
  });

const FUTURE = { error: CONSULTATION_ERRORS.futureDate, code: "DATE_IN_FUTURE" };

describe("a patient's today", () => {
  it("refuses symptoms started on 3 May while it is still 2 May in the patient's New York", async () => {
    for (const patient of [await patientIn("America/New_York"), await patientIn(null)]) {
      const tomorrow = await create(patient, { symptoms_started_on: "2031-05-03" });
      expect(tomorrow.statusCode, tomorrow.body).toBe(400);
      expect(tomorrow.json()).toEqual(FUTURE);
      const born = await create(patient, {
        dependent: { ...EXAMPLE_INTAKE.dependent, date_of_birth: "2031-05-03" },
      });
      expect(born.statusCode, born.body).toBe(400);
      expect(born.json()).toEqual(FUTURE);
      const today = await create(patient, { symptoms_started_on: "2031-05-02" });
      expect(today.statusCode, today.body).toBe(201);
    }
  });

  it("takes 3 May from a patient in Sofia at 01:30 there, while UTC is still at 2 May, 22:30", async () => {
    const patient = await patientIn("Europe/Sofia");
    clock.set(new Date("2031-05-02T22:30:00Z"));
    try {
      const today = await create(patient, { symptoms_started_on: "2031-05-03" });
      expect(today.statusCode, today.body).toBe(201);
      const tomorrow = await create(patient, { symptoms_started_on: "2031-05-04" });
      expect(tomorrow.json()).toEqual(FUTURE);
    } finally {
      clock.set(NOW);
    }
  });

  it("refuses a birth date of 3 May in New York, in the zone the same request sets or the profile's", async () => {
    const FUTURE_BIRTH = { error: AUTH_ERRORS.dateOfBirthInFuture, code: "DATE_OF_BIRTH_IN_FUTURE" };
    const stored = await patientIn("America/New_York");
    const refused = await updateUser(stored, { date_of_birth: "2031-05-03" });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual(FUTURE_BIRTH);
    expect((await updateUser(stored, { date_of_birth: "2031-05-02" })).statusCode).toBe(200);

    const moving = await patientIn("Europe/Sofia");
    const sent = await updateUser(moving, { date_of_birth: "2031-05-03", time_zone: "America/New_York" });
    expect(sent.json()).toEqual(FUTURE_BIRTH);
    const there = await updateUser(moving, { date_of_birth: "2031-05-03" });
    expect(there.statusCode, there.body).toBe(200);
  });

  it("counts an age to the patient's today: 29 in New York until its 3 May starts, 30 in Sofia", async () => {
    const ages: Record<string, number | null> = {};
    for (const zone of ["America/New_York", "Europe/Sofia"]) {
      const patient = await patientIn(zone);
      const res = await create(patient, {
        dependent: { ...EXAMPLE_INTAKE.dependent, date_of_birth: "2001-05-03" },
        symptoms_started_on: "2031-05-01",
      });
      expect(res.statusCode, res.body).toBe(201);
      const queue = queueResponse.parse(
        (
          await t.app.inject({
            method: "GET",
            url: "/api/v1/api/care-team/queue",
            headers: bearer(clinician.access_token),
          })
        ).json(),
      );
      ages[zone] = queue.data.find((visit) => visit.id === res.json().data.id)?.patient_age ?? null;
    }
    expect(ages).toEqual({ "America/New_York": 29, "Europe/Sofia": 30 });
  });
});
