import { queueResponse, visitWorkspaceResponse } from "@ambercare/contracts/console";
import {
  CONSULTATION_ERRORS,
  consultationDetailResponse,
  consultationListResponse,
  visitRecordsResponse,
} from "@ambercare/contracts/consultation";
import { INTAKE_VERSION } from "@ambercare/contracts/intake";
import { EXAMPLE_INTAKE } from "@ambercare/contracts/intake-example";
import { consultations } from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";
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
 * Stored intakes are read whatever version stored them (ADR 057): rows written straight into the
 * database, as earlier (or later) versions of Ambercare left them, read through the API by the
 * patient (their consultation, their list, their records) and by the clinician (the queue, the
 * workspace). What the stored intake does not hold is left out of the answer, never a failure.
 */

const clock = createManualClock(new Date("2026-03-10T15:00:00Z"));
const entitlements = createTestEntitlements();
let t: TestApp;
type Patient = Awaited<ReturnType<typeof registerPatient>>;
let patient: Patient;
let clinician: Awaited<ReturnType<typeof registerClinician>>;
/** A state the clinician's provider is licensed in. */
let state: string;

beforeAll(async () => {
  t = await createTestApp({ clock, entitlements, env: { RATE_LIMIT_MAX: "100000" } });
  patient = await registerPatient(t.app);
  entitlements.grant(patient.user_id, { member: true });
  clinician = await registerClinician(t, clock.now());
  await offerEveryVisitType(t.db.db, clinician.providerId);
  state = await licensedState(t.db.db, clinician.providerId);
});

afterAll(async () => {
  await t.close();
});

const get = (token: string, url: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });

/**
 * A consultation row written with SQL, as an earlier version of the API left it: `intake` is the
 * stored document, `version` its intake_version (the column's default, 1, when not given, as the
 * migration gave the rows stored before versions were kept). Accepted by the clinician's provider
 * unless `requested`.
 */
async function storedRow(
  intake: unknown,
  { version, requested = false }: { version?: number; requested?: boolean } = {},
): Promise<string> {
  const document = intake === null ? sql`null` : sql`${JSON.stringify(intake)}::jsonb`;
  const now = clock.now().toISOString();
  const result = await t.db.db.execute<{ id: string }>(sql`
    insert into consultations (user_id, provider_id, type, status, state, intake, ${
      version === undefined ? sql`` : sql`intake_version,`
    } consents_accepted_at, created_at, updated_at, accepted_at)
    values (${patient.user_id}, ${clinician.providerId}, 'chat', ${requested ? "requested" : "accepted"},
      ${state}, ${document}, ${version === undefined ? sql`` : sql`${version},`} ${now}::timestamptz,
      ${now}::timestamptz, ${now}::timestamptz, ${requested ? null : now}::timestamptz)
    returning id`);
  return result.rows[0]!.id;
}

/** The patient requests a chat visit in `state` with the example intake changed by `intake`. */
const create = (intake: Record<string, unknown>) => requestChat(t.app, patient.access_token, state, intake);

/** The intake as the patient's own consultation and their records show it. */
async function patientReads(id: string) {
  const res = await get(patient.access_token, `/ambercare/consultations/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  const detail = consultationDetailResponse.parse(res.json()).data;
  const records = await get(patient.access_token, "/ambercare/medical-records/visits");
  expect(records.statusCode, records.body).toBe(200);
  const record = visitRecordsResponse.parse(records.json()).data.find((visit) => visit.id === id);
  expect(record).toEqual(detail);
  const list = await get(patient.access_token, "/ambercare/consultations");
  expect(list.statusCode, list.body).toBe(200);
  const listed = consultationListResponse.parse(list.json()).data.find((visit) => visit.id === id);
  return { detail, listed: listed! };
}

/** The intake as the clinician's workspace shows it. */
async function clinicianReads(id: string) {
  const res = await get(clinician.access_token, `/api/v1/api/care-team/visits/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return visitWorkspaceResponse.parse(res.json()).data;
}

/** An intake as version 1 stored it: every question answered, for a dependent. */
const FIRST_VERSION = EXAMPLE_INTAKE;

describe("stored intakes of every version", () => {
  it("reads a consultation stored before intake versions were kept, for the patient and the clinician", async () => {
    const id = await storedRow(FIRST_VERSION);
    const [row] = await t.db.db
      .select({ version: consultations.intakeVersion })
      .from(consultations)
      .where(eq(consultations.id, id));
    expect(row!.version).toBe(1);

    const { detail, listed } = await patientReads(id);
    expect(detail.intake).toEqual(FIRST_VERSION);
    expect(listed).toMatchObject({ patient: "dependent", patient_name: "Mia Doe" });
    const workspace = await clinicianReads(id);
    expect(workspace.intake).toEqual(FIRST_VERSION);
    expect(workspace.visit.patient_name).toBe("Mia Doe");
  });

  it("leaves out, as not asked, the questions a stored intake does not hold", async () => {
    // Stored before race, ethnicity, the other symptoms, the temperature, the transport and the
    // medications were asked: their answers are not there at all.
    const {
      race: _race,
      ethnicity: _ethnicity,
      symptoms_other: _other,
      temperature_f: _temperature,
      temperature_location: _where,
      transport: _transport,
      medications: _medications,
      ...older
    } = FIRST_VERSION;
    const id = await storedRow(older, { version: 1 });
    const { detail } = await patientReads(id);
    expect(detail.intake).toEqual(older);
    for (const question of ["race", "ethnicity", "symptoms_other", "transport", "medications"]) {
      expect(detail.intake, question).not.toHaveProperty(question);
    }
    expect((await clinicianReads(id)).intake).toEqual(older);

    // Waiting in the queue, it shows its symptoms and no words of the patient's.
    const waiting = await storedRow({ ...older, symptoms: ["Headache"] }, { requested: true });
    const queue = queueResponse.parse(
      (await get(clinician.access_token, "/api/v1/api/care-team/queue")).json(),
    );
    expect(queue.data.find((visit) => visit.id === waiting)).toMatchObject({
      symptoms: ["Headache"],
      other_symptoms: false,
    });
  });

  it("reads an intake holding answers this version does not know (a later version's), leaving them out", async () => {
    const later = {
      ...FIRST_VERSION,
      pregnant: false,
      dependent: { ...FIRST_VERSION.dependent, nickname: "Mimi" },
    };
    for (const version of [1, INTAKE_VERSION + 1]) {
      const id = await storedRow(later, { version });
      const { detail } = await patientReads(id);
      expect(detail.intake).toEqual(FIRST_VERSION);
      expect((await clinicianReads(id)).intake).toEqual(FIRST_VERSION);
    }
  });

  it("leaves out answers that no longer read, and reads a consultation whose intake was erased", async () => {
    const id = await storedRow({
      ...FIRST_VERSION,
      gender: "Martian",
      symptoms: ["Fever", "Broken Heart"],
      temperature_f: "hot",
    });
    const { detail } = await patientReads(id);
    const { gender: _gender, symptoms: _symptoms, temperature_f: _temperature, ...readable } = FIRST_VERSION;
    expect(detail.intake).toEqual(readable);
    expect((await clinicianReads(id)).intake).toEqual(readable);

    for (const document of [null, "not an intake", [1, 2]]) {
      const erased = await storedRow(document);
      const read = await patientReads(erased);
      expect(read.detail.intake).toEqual({});
      expect(read.listed).toMatchObject({ patient: "self", patient_name: null });
      expect((await clinicianReads(erased)).intake).toEqual({});
    }
  });

  it("stores a new intake with the current version", async () => {
    const res = await create({});
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.db.db
      .select({ version: consultations.intakeVersion })
      .from(consultations)
      .where(eq(consultations.id, res.json().data.id));
    expect(row!.version).toBe(INTAKE_VERSION);
  });
});

describe("the request's intake stays strict", () => {
  it("refuses bad answers with 400 and the rule's message", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pregnant: false }, 'Invalid body field "intake": Unrecognized key: "pregnant"'],
      [
        { dependent: null },
        'Invalid body field "intake.dependent": A dependent needs relationship, name and date of birth',
      ],
      [
        { patient: "self" },
        'Invalid body field "intake.dependent": Leave dependent empty for your own visit',
      ],
      [
        { temperature_location: null },
        'Invalid body field "intake.temperature_location": Give the temperature together with where it was measured',
      ],
      [{ transport: [] }, 'Invalid body field "intake.transport": Choose how you travelled'],
      [
        { recent_travel: false },
        'Invalid body field "intake.recent_travel": Travel details need recent_travel true',
      ],
      [
        { symptoms: ["Fever", "Fever"] },
        'Invalid body field "intake.symptoms": Each symptom may be chosen once',
      ],
      [
        { transport: ["Flight", "Flight"] },
        'Invalid body field "intake.transport": Each means of transport may be chosen once',
      ],
    ];
    for (const [intake, error] of cases) {
      const res = await create(intake);
      expect(res.statusCode, JSON.stringify(intake)).toBe(400);
      expect(res.json(), JSON.stringify(intake)).toEqual({ error, code: "VALIDATION_FAILED" });
    }
    const missing = await create({ gender: undefined, symptoms_started_on: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(
      /^Invalid body field "intake.gender": .*; Invalid body field "intake.symptoms_started_on"/,
    );
  });

  it("refuses a date in the future (400 DATE_IN_FUTURE)", async () => {
    for (const intake of [
      { symptoms_started_on: "2026-03-11" },
      { dependent: { ...FIRST_VERSION.dependent, date_of_birth: "2026-03-11" } },
    ]) {
      const res = await create(intake);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: CONSULTATION_ERRORS.futureDate, code: "DATE_IN_FUTURE" });
    }
  });
});
