import { randomUUID } from "node:crypto";
import {
  CONSULTATION_ERRORS,
  type CreateConsultationRequest,
  consultationDetailResponse,
  consultationListResponse,
  consultationResponse,
  visitRecordsResponse,
} from "@ambercare/contracts/consultation";
import { VISIT_RECORDS_SHOWN } from "@ambercare/contracts/consultation-limits";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import type { IntakeInput } from "@ambercare/contracts/intake";
import {
  ETHNICITIES,
  GENDERS,
  RACES,
  RELATIONSHIPS,
  TEMPERATURE_LOCATIONS,
  TRANSPORTS,
} from "@ambercare/contracts/options";
import { SYMPTOMS } from "@ambercare/contracts/symptoms";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { NO_VISIT_CREDITS, VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { auditLog, clinicians, consultations, providerLicenses, providers } from "@ambercare/db/schema";
import { and, arrayContains, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createLogCapture,
  createTestApp,
  createTestEntitlements,
  registerPatient,
  serviceToken,
  type TestApp,
} from "#api/test-support.ts";

const clock = createManualClock(new Date("2026-03-10T15:00:00Z"));
const entitlements = createTestEntitlements();
const logs = createLogCapture();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    entitlements,
    logStream: logs.stream,
    env: { RATE_LIMIT_MAX: "100000", LOG_LEVEL: "info" },
  });
});

afterAll(async () => {
  await t.close();
});

type Patient = Awaited<ReturnType<typeof registerPatient>>;

function intake(overrides: Partial<IntakeInput> = {}): IntakeInput {
  return {
    patient: "dependent",
    dependent: { relationship: "Daughter", first_name: "Mia", last_name: "Doe", date_of_birth: "2019-05-02" },
    gender: "female",
    race: "White",
    ethnicity: "Not Hispanic or Latino",
    state: "CA",
    symptoms: ["Fever", "Cough", "Sore Throat"],
    symptoms_other: "Tired since Sunday",
    symptoms_started_on: "2026-03-08",
    temperature_f: 101.3,
    temperature_location: "Mouth",
    recent_travel: false,
    transport: [],
    medications: "Children's ibuprofen",
    allergies: "Penicillin",
    ...overrides,
  };
}

function request(overrides: Partial<CreateConsultationRequest> = {}): CreateConsultationRequest {
  return {
    idempotency_key: randomUUID(),
    type: "video",
    intake: intake(),
    consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    ...overrides,
  };
}

const create = (token: string | undefined, payload: unknown) =>
  t.app.inject({
    method: "POST",
    url: "/ambercare/create-consultation",
    headers: token === undefined ? {} : bearer(token),
    payload: payload as object,
  });

const get = (token: string, url: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });
const post = (token: string, url: string, payload?: object) =>
  t.app.inject({ method: "POST", url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function member(): Promise<Patient> {
  const patient = await registerPatient(t.app);
  entitlements.grant(patient.user_id, { member: true });
  return patient;
}

describe("POST /ambercare/create-consultation", () => {
  it("needs a token", async () => {
    const res = await create(undefined, request());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
  });

  it("creates a member's consultation for a dependent and keeps the intake", async () => {
    const alice = await member();
    const body = request();
    const res = await create(alice.access_token, body);
    expect(res.statusCode, res.body).toBe(201);
    const { data } = consultationResponse.parse(res.json());
    expect(data).toMatchObject({
      type: "video",
      status: "requested",
      provider: null,
      state: "CA",
      patient: "dependent",
      patient_name: "Mia Doe",
      paid_with: "membership",
      rated: false,
      created_at: clock.now().toISOString(),
    });

    const detail = consultationDetailResponse.parse(
      (await get(alice.access_token, `/ambercare/consultations/${data.id}`)).json(),
    );
    expect(detail.data.intake).toEqual({ ...body.intake, travel_destination: null });
    expect(detail.data.consents_accepted_at).toBe(clock.now().toISOString());

    const list = consultationListResponse.parse(
      (await get(alice.access_token, "/ambercare/consultations")).json(),
    );
    expect(list.data.map((c) => c.id)).toEqual([data.id]);
  });

  it("answers 402 without a membership or a visit credit, and creates nothing", async () => {
    const bob = await registerPatient(t.app);
    const res = await create(bob.access_token, request());
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: CONSULTATION_ERRORS.paymentRequired,
      code: "CONSULTATION_PAYMENT_REQUIRED",
    });
    const rows = await t.db.db.select().from(consultations).where(eq(consultations.userId, bob.user_id));
    expect(rows).toEqual([]);
  });

  it("uses a one-time credit of the same type only", async () => {
    const carol = await registerPatient(t.app);
    entitlements.grant(carol.user_id, { credits: { chat: 1 } });
    const video = await create(carol.access_token, request({ type: "video" }));
    expect(video.statusCode).toBe(402);
    expect(entitlements.credits(carol.user_id)).toEqual({ ...NO_VISIT_CREDITS, chat: 1 });

    const chat = await create(carol.access_token, request({ type: "chat" }));
    expect(chat.statusCode, chat.body).toBe(201);
    expect(chat.json().data.paid_with).toBe("visit_credit");
    expect(entitlements.credits(carol.user_id)).toEqual(NO_VISIT_CREDITS);

    const again = await create(carol.access_token, request({ type: "chat" }));
    expect(again.statusCode).toBe(402);
  });

  it("consumes a credit once when the same form is submitted twice at once", async () => {
    const dave = await registerPatient(t.app);
    entitlements.grant(dave.user_id, { credits: { video: 2 } });
    const body = request();
    const answers = await Promise.all([1, 2, 3].map(() => create(dave.access_token, body)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 201]);
    const ids = new Set(answers.map((a) => a.json().data.id));
    expect(ids.size).toBe(1);
    expect(entitlements.credits(dave.user_id)).toEqual({ ...NO_VISIT_CREDITS, video: 1 });
    const rows = await t.db.db.select().from(consultations).where(eq(consultations.userId, dave.user_id));
    expect(rows).toHaveLength(1);
  });

  it("lets only one of two different forms use a single credit", async () => {
    const erin = await registerPatient(t.app);
    entitlements.grant(erin.user_id, { credits: { video: 1 } });
    const answers = await Promise.all([
      create(erin.access_token, request()),
      create(erin.access_token, request()),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 402]);
    expect(entitlements.credits(erin.user_id).video).toBe(0);
  });

  it("validates every option against the spec's lists", async () => {
    const frank = await member();
    const cases: Array<[string, Partial<IntakeInput>]> = [
      ["gender", { gender: "Male" as never }],
      ["race", { race: "Martian" as never }],
      ["ethnicity", { ethnicity: "Latino" as never }],
      ["state", { state: "PR" as never }],
      ["symptoms", { symptoms: ["Fever", "Broken Heart" as never] }],
      ["symptoms", { symptoms: [] }],
      ["symptoms", { symptoms: ["Fever", "Fever"] }],
      ["temperature_location", { temperature_location: "Toe" as never }],
      ["transport", { recent_travel: true, transport: ["Rocket" as never] }],
      [
        "dependent",
        {
          dependent: {
            relationship: "Cousin" as never,
            first_name: "A",
            last_name: "B",
            date_of_birth: "2019-01-01",
          },
        },
      ],
    ];
    for (const [field, overrides] of cases) {
      const res = await create(frank.access_token, request({ intake: intake(overrides) }));
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().error).toContain(field);
      expect(res.json().code).toBe("VALIDATION_FAILED");
    }
    // Every value of every list is accepted.
    const lists = [
      ...GENDERS.map((gender) => ({ gender })),
      ...RACES.map((race) => ({ race })),
      ...ETHNICITIES.map((ethnicity) => ({ ethnicity })),
      ...TEMPERATURE_LOCATIONS.map((temperature_location) => ({ temperature_location })),
      ...RELATIONSHIPS.map((relationship) => ({
        dependent: { relationship, first_name: "Sam", last_name: "Doe", date_of_birth: "1950-01-01" },
      })),
      { recent_travel: true, travel_destination: "Lisbon", transport: [...TRANSPORTS] },
      { symptoms: [...SYMPTOMS] },
    ] as Partial<IntakeInput>[];
    for (const overrides of lists) {
      const res = await create(frank.access_token, request({ intake: intake(overrides) }));
      expect(res.statusCode, `${JSON.stringify(overrides)}: ${res.body}`).toBe(201);
    }
    for (const state of US_STATE_CODES) {
      const res = await create(frank.access_token, request({ type: "chat", intake: intake({ state }) }));
      expect(res.statusCode, `${state}: ${res.body}`).toBe(201);
    }
  });

  it("checks the rules between fields", async () => {
    const gina = await member();
    const cases: Array<[string, Partial<IntakeInput>]> = [
      ["dependent", { dependent: null }],
      ["temperature", { temperature_location: null }],
      ["temperature_f", { temperature_f: 120 }],
      ["transport", { recent_travel: true, transport: [] }],
      ["date", { symptoms_started_on: "2026-03-11" }],
      [
        "date",
        { dependent: { relationship: "Son", first_name: "A", last_name: "B", date_of_birth: "2027-01-01" } },
      ],
    ];
    for (const [what, overrides] of cases) {
      const res = await create(gina.access_token, request({ intake: intake(overrides) }));
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatch(new RegExp(what, "i"));
      expect(["VALIDATION_FAILED", "DATE_IN_FUTURE"]).toContain(res.json().code);
    }
    const missingConsent = await create(gina.access_token, {
      ...request(),
      consents: { informed_consent: true, audio_video_recording: false, financial_communications: true },
    });
    expect(missingConsent.statusCode).toBe(400);
    expect(missingConsent.json().error).toContain("audio_video_recording");
    expect(missingConsent.json().code).toBe("VALIDATION_FAILED");
  });

  it("takes a chosen provider only where licensed, and a state only with a provider", async () => {
    const hank = await member();
    const [licence] = await t.db.db
      .select({ slug: providers.slug, id: providers.id, state: providerLicenses.state })
      .from(providers)
      .innerJoin(providerLicenses, eq(providerLicenses.providerId, providers.id))
      .where(arrayContains(providers.visitTypes, [...VISIT_TYPE_IDS]))
      .limit(1);
    const licensed = await t.db.db
      .select({ state: providerLicenses.state })
      .from(providerLicenses)
      .where(eq(providerLicenses.providerId, licence!.id));
    const elsewhere = US_STATE_CODES.find((code) => !licensed.some((row) => row.state === code))!;
    // Only a provider a clinician account works as takes requests (ADR 059).
    const account = await registerPatient(t.app);
    await t.db.db
      .insert(clinicians)
      .values({ userId: account.user_id, providerId: licence!.id })
      .onConflictDoNothing();

    const ok = await create(
      hank.access_token,
      request({ provider_slug: licence!.slug, intake: intake({ state: licence!.state as never }) }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.provider.slug).toBe(licence!.slug);

    const notLicensed = await create(
      hank.access_token,
      request({ provider_slug: licence!.slug, intake: intake({ state: elsewhere }) }),
    );
    expect(notLicensed.statusCode).toBe(422);
    expect(notLicensed.json()).toEqual({
      error: CONSULTATION_ERRORS.providerNotLicensed,
      code: "PROVIDER_NOT_LICENSED_IN_STATE",
    });

    const unknown = await create(hank.access_token, request({ provider_slug: "nobody-here" }));
    expect(unknown.statusCode).toBe(422);

    const empty = await createTestApp({ seed: false, clock, entitlements });
    try {
      const patient = await registerPatient(empty.app);
      entitlements.grant(patient.user_id, { member: true });
      const res = await empty.app.inject({
        method: "POST",
        url: "/ambercare/create-consultation",
        headers: bearer(patient.access_token),
        payload: request(),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        error: CONSULTATION_ERRORS.noProviderInState,
        code: "NO_PROVIDER_IN_STATE",
      });
    } finally {
      await empty.close();
    }
  });

  it("refuses the service account (403)", async () => {
    const res = await create(await serviceToken(t.app), request());
    expect(res.statusCode).toBe(403);
  });

  it("never writes intake answers to the log", async () => {
    const ivy = await member();
    await create(ivy.access_token, request({ intake: intake({ allergies: "Secret-allergy-marker" }) }));
    expect(logs.text()).not.toContain("Secret-allergy-marker");
    expect(logs.text()).not.toContain("Mia");
  });
});

/** A clinician accepted the request (the lifecycle's own tests cover how): its chat is open. */
async function accepted(id: string) {
  const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
  await t.db.db
    .update(consultations)
    .set({ status: "accepted", providerId: provider!.id, acceptedAt: clock.now() })
    .where(eq(consultations.id, id));
}

describe("consultations of a patient", () => {
  it("403 on another patient's consultation, messages and cancel", async () => {
    const owner = await member();
    const other = await member();
    const { data } = (await create(owner.access_token, request())).json();
    for (const [method, url] of [
      ["GET", `/ambercare/consultations/${data.id}`],
      ["POST", `/ambercare/consultations/${data.id}/cancel`],
      ["GET", `/ambercare/consultations/${data.id}/messages`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(other.access_token) });
      expect(res.statusCode, url).toBe(403);
    }
    const write = await post(other.access_token, `/ambercare/consultations/${data.id}/messages`, {
      body: "hi",
    });
    expect(write.statusCode).toBe(403);
    expect((await get(other.access_token, "/ambercare/consultations")).json().data).toEqual([]);
    expect((await get(other.access_token, `/ambercare/consultations/${randomUUID()}`)).statusCode).toBe(404);
  });

  it("cancels a request not yet started and returns its credit; never twice", async () => {
    const jo = await registerPatient(t.app);
    entitlements.grant(jo.user_id, { credits: { video: 1 } });
    const { data } = (await create(jo.access_token, request())).json();
    expect(entitlements.credits(jo.user_id).video).toBe(0);
    const cancel = await post(jo.access_token, `/ambercare/consultations/${data.id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data).toMatchObject({ status: "canceled", canceled_at: clock.now().toISOString() });
    expect(entitlements.credits(jo.user_id).video).toBe(1);
    const again = await post(jo.access_token, `/ambercare/consultations/${data.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(entitlements.credits(jo.user_id).video).toBe(1);
  });

  it("does not cancel a started or completed consultation", async () => {
    const kim = await member();
    const { data } = (await create(kim.access_token, request())).json();
    const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
    await t.db.db
      .update(consultations)
      .set({ status: "in_progress", providerId: provider!.id, startedAt: clock.now() })
      .where(eq(consultations.id, data.id));
    const res = await post(kim.access_token, `/ambercare/consultations/${data.id}/cancel`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: CONSULTATION_ERRORS.notCancelable,
      code: "CONSULTATION_NOT_CANCELABLE",
    });
  });

  it("keeps a thread per consultation that the patient writes to once a clinician accepted it", async () => {
    const lee = await member();
    const { data } = (await create(lee.access_token, request())).json();
    const early = await post(lee.access_token, `/ambercare/consultations/${data.id}/messages`, {
      body: "Hi",
    });
    expect(early.statusCode).toBe(409);
    await accepted(data.id);
    const write = await post(lee.access_token, `/ambercare/consultations/${data.id}/messages`, {
      body: "  Her fever went up.  ",
    });
    expect(write.statusCode, write.body).toBe(201);
    expect(write.json().data).toMatchObject({
      author: "patient",
      body: "Her fever went up.",
      consultation_id: data.id,
    });
    const blank = await post(lee.access_token, `/ambercare/consultations/${data.id}/messages`, {
      body: "   ",
    });
    expect(blank.statusCode).toBe(400);
    const thread = (await get(lee.access_token, `/ambercare/consultations/${data.id}/messages`)).json();
    expect(thread.data.map((m: { body: string }) => m.body)).toEqual(["Her fever went up."]);
  });

  it("audits every read and write of health data with who, when and from where", async () => {
    const max = await member();
    const { data } = (await create(max.access_token, request())).json();
    await get(max.access_token, "/ambercare/consultations");
    await get(max.access_token, `/ambercare/consultations/${data.id}`);
    await accepted(data.id);
    await post(max.access_token, `/ambercare/consultations/${data.id}/messages`, { body: "Thanks" });
    await get(max.access_token, `/ambercare/consultations/${data.id}/messages`);
    await post(max.access_token, `/ambercare/consultations/${data.id}/cancel`);

    const rows = await t.db.db.select().from(auditLog).where(eq(auditLog.userId, max.user_id));
    expect(rows.map((row) => row.action).sort()).toEqual(
      [
        "consultation.cancel",
        "consultation.create",
        "consultation.list",
        "consultation.read",
        "message.create",
        "message.list",
      ].sort(),
    );
    for (const row of rows) {
      expect(row).toMatchObject({
        actorUserId: max.user_id,
        actorKind: "patient",
        ip: "127.0.0.1",
        at: clock.now(),
      });
    }

    const res = await get(max.access_token, "/ambercare/audit-log");
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBe(6);
    expect(res.json().data[0]).toMatchObject({ actor: "self", ip: "127.0.0.1" });

    const other = await member();
    expect((await get(other.access_token, "/ambercare/audit-log")).json().data).toEqual([]);
  });
});

describe("GET /ambercare/medical-records/visits", () => {
  it("needs a patient's own token", async () => {
    expect((await t.app.inject({ method: "GET", url: "/ambercare/medical-records/visits" })).statusCode).toBe(
      401,
    );
  });

  it("gives the patient's recent visits with their intake, newest first, without canceled ones, each read audited", async () => {
    const ann = await member();
    const first = (await create(ann.access_token, request())).json().data;
    clock.advance(60_000);
    const canceled = (await create(ann.access_token, request())).json().data;
    await post(ann.access_token, `/ambercare/consultations/${canceled.id}/cancel`);
    clock.advance(60_000);
    const latest = (
      await create(ann.access_token, request({ intake: intake({ allergies: "Latex" }) }))
    ).json().data;
    const someoneElse = await member();
    await create(someoneElse.access_token, request());

    const res = await get(ann.access_token, "/ambercare/medical-records/visits");
    expect(res.statusCode, res.body).toBe(200);
    const body = visitRecordsResponse.parse(res.json());
    expect(body.data.map((visit) => visit.id)).toEqual([latest.id, first.id]);
    expect(body.meta.total).toBe(2);
    expect(body.data[0]?.intake.allergies).toBe("Latex");
    // The same records as opening each visit on its own.
    const one = (await get(ann.access_token, `/ambercare/consultations/${first.id}`)).json().data;
    expect(body.data[1]).toEqual(one);

    const reads = await t.db.db
      .select({ resourceId: auditLog.resourceId, count: auditLog.count })
      .from(auditLog)
      .where(and(eq(auditLog.userId, ann.user_id), eq(auditLog.action, "consultation.read")));
    // Two from the records call, one from opening the first visit: the patient's own second read of
    // it within the minute counts on its entry (audit-log.ts).
    expect(reads.flatMap((row) => Array(row.count).fill(row.resourceId)).sort()).toEqual(
      [latest.id, first.id, first.id].sort(),
    );
  });

  it(`shows at most ${VISIT_RECORDS_SHOWN} visits`, async () => {
    const bo = await member();
    for (let i = 0; i <= VISIT_RECORDS_SHOWN; i++) {
      clock.advance(1_000);
      await create(bo.access_token, request());
    }
    const body = (await get(bo.access_token, "/ambercare/medical-records/visits")).json();
    expect(body.data).toHaveLength(VISIT_RECORDS_SHOWN);
  });
});

describe("with the real membership module (no entitlements injected)", () => {
  let real: TestApp;
  beforeAll(async () => {
    real = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000", WEB_URL: "http://web.test" } });
  });
  afterAll(async () => {
    await real.close();
  });

  const call = (token: string, url: string, payload: object) =>
    real.app.inject({ method: "POST", url, headers: bearer(token), payload });
  const card = {
    card_number: "4242 4242 4242 4242",
    exp_month: "12",
    exp_year: "2040",
    cvc: "123",
    name: "Real Member",
  };

  async function pay(token: string, checkoutUrl: string) {
    const id = checkoutUrl.split("/").pop();
    const paid = await call(token, `/ambercare/checkout/${id}/pay`, card);
    expect(paid.statusCode, paid.body).toBe(200);
  }

  it("takes a bought one-time visit once, gives it back on cancel, and admits a trialing member", async () => {
    const patient = await registerPatient(real.app);
    const token = patient.access_token;
    expect((await call(token, "/ambercare/create-consultation", request())).statusCode).toBe(402);

    const order = await call(token, "/ambercare/visit-checkout/", {
      user_id: patient.user_id,
      plan: "ppv_video",
    });
    expect(order.statusCode, order.body).toBe(200);
    await pay(token, order.json().data.checkout_url);
    const first = await call(token, "/ambercare/create-consultation", request());
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.paid_with).toBe("visit_credit");
    expect((await call(token, "/ambercare/create-consultation", request())).statusCode).toBe(402);

    const canceled = await call(token, `/ambercare/consultations/${first.json().data.id}/cancel`, {});
    expect(canceled.statusCode, canceled.body).toBe(200);
    const again = await call(token, "/ambercare/create-consultation", request());
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.paid_with).toBe("visit_credit");

    const trial = await call(token, "/ambercare/subscription-checkout/", {
      user_id: patient.user_id,
      interval: "month",
    });
    expect(trial.statusCode, trial.body).toBe(200);
    await pay(token, trial.json().data.checkout_url);
    const asMember = await call(token, "/ambercare/create-consultation", request({ type: "chat" }));
    expect(asMember.statusCode, asMember.body).toBe(201);
    expect(asMember.json().data.paid_with).toBe("membership");
  });
});
