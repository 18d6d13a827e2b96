import { randomBytes, randomUUID } from "node:crypto";
import {
  CONSOLE_ERRORS,
  consoleVisitListResponse,
  consoleVisitResponse,
  dutyStatusResponse,
  QUEUE_TOPIC,
  queueResponse,
  visitNotesResponse,
  visitStatusResponse,
  visitWorkspaceResponse,
} from "@ambercare/contracts/console";
import { auditLogResponse, type CreateConsultationRequest } from "@ambercare/contracts/consultation";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import { clinicians, liveEvents, providerLicenses, providers, users } from "@ambercare/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableKnownSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  consultationBody,
  createTestApp,
  createTestEntitlements,
  offerEveryVisitType,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const STATE = "OR";
const CONSOLE = "/api/v1/api/care-team";
const clock = createManualClock(new Date("2026-07-01T09:00:00Z"));
const entitlements = createTestEntitlements();
let t: TestApp;

type Session = { token: string; userId: string };
type Clinician = Session & { providerId: string; name: string };
/** Licensed in STATE, chat and video. */
let first: Clinician;
let second: Clinician;
/** Offers both, not licensed in STATE. */
let elsewhere: Clinician;

/** A confirmed account made a clinician of `providerId`, with the second factor on. */
async function clinicianFor(providerId: string): Promise<Clinician> {
  const account = await registerPatient(t.app);
  await t.db.db.update(users).set({ role: "clinician" }).where(eq(users.id, account.user_id));
  await t.db.db.insert(clinicians).values({ userId: account.user_id, providerId });
  await enableKnownSecondFactor(t.db.db, {
    encryptionKey: t.app.config.SECOND_FACTOR_KEY,
    userId: account.user_id,
    secret: "JBSWY3DPEHPK3PXP",
    now: clock.now(),
  });
  const [provider] = await t.db.db
    .select({
      firstName: providers.firstName,
      lastName: providers.lastName,
      credentials: providers.credentials,
    })
    .from(providers)
    .where(eq(providers.id, providerId));
  return {
    token: account.access_token,
    userId: account.user_id,
    providerId,
    name: `${provider!.firstName} ${provider!.lastName}, ${provider!.credentials}`,
  };
}

beforeAll(async () => {
  t = await createTestApp({
    clock,
    entitlements,
    env: { RATE_LIMIT_MAX: "100000", SESSION_IDLE_MINUTES: "300" },
  });
  // Two providers licensed in STATE keep their licence there (nobody else does: the demo
  // clinician's provider is licensed everywhere), one more has none; all three offer both types.
  const pick = async (licensedHere: boolean) =>
    (
      await t.db.db.execute<{ id: string }>(sql`select p.id from providers p
        where ${licensedHere ? sql`` : sql`not`} exists (
          select 1 from provider_licenses l where l.provider_id = p.id and l.state = ${STATE})
        and not exists (select 1 from clinicians c where c.provider_id = p.id)
        order by p.slug limit ${licensedHere ? 2 : 1}`)
    ).rows.map((row) => row.id);
  const licensed = await pick(true);
  const [notLicensed] = await pick(false);
  expect(licensed).toHaveLength(2);
  await offerEveryVisitType(t.db.db, ...licensed, notLicensed!);
  await t.db.db.execute(
    sql`delete from provider_licenses where state = ${STATE} and provider_id not in (${licensed[0]}, ${licensed[1]})`,
  );
  first = await clinicianFor(licensed[0]!);
  second = await clinicianFor(licensed[1]!);
  elsewhere = await clinicianFor(notLicensed!);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const call = (method: "GET" | "POST" | "PUT", url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function patient(dateOfBirth = "1990-03-15") {
  const account = await registerPatient(t.app);
  await t.db.db.update(users).set({ dateOfBirth }).where(eq(users.id, account.user_id));
  entitlements.grant(account.user_id, { member: true });
  return account;
}

async function requestVisit(
  token: string,
  type: ConsultationType = "chat",
  intake: Partial<CreateConsultationRequest["intake"]> = {},
): Promise<string> {
  const res = await call(
    "POST",
    "/ambercare/create-consultation",
    token,
    consultationBody(
      type,
      STATE,
      {},
      {
        symptoms: ["Cough", "Fever"],
        symptoms_other: "A rash on the left arm",
        symptoms_started_on: "2026-06-28",
        ...intake,
      },
    ),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

const queueOf = async (clinician: Clinician) => {
  const res = await call("GET", `${CONSOLE}/queue`, clinician.token);
  expect(res.statusCode, res.body).toBe(200);
  return queueResponse.parse(res.json()).data;
};

const cancel = (clinician: Clinician, id: string) =>
  call("POST", `${CONSOLE}/visits/${id}/cancel`, clinician.token, { reason: "Test over" });

const queueEventsOf = (userId: string) =>
  t.db.db
    .select({ payload: liveEvents.payload })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), eq(liveEvents.topic, QUEUE_TOPIC)))
    .orderBy(liveEvents.id);

describe("the console's calls", () => {
  it("refuse a patient with 403 CLINICIAN_ONLY on every one", async () => {
    const someone = await patient();
    const id = await requestVisit(someone.access_token);
    const calls: Array<[method: "GET" | "POST", url: string, body?: object]> = [
      ["GET", `${CONSOLE}/queue`],
      ["GET", `${CONSOLE}/visits`],
      ["GET", `${CONSOLE}/visits/${id}`],
      ["POST", `${CONSOLE}/visits/${id}/accept`],
      ["POST", `${CONSOLE}/visits/${id}/start`],
      ["POST", `${CONSOLE}/visits/${id}/cancel`, { reason: "No" }],
      ["POST", `${CONSOLE}/visits/${id}/complete`, { summary: "Done" }],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(method, url, someone.access_token, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json(), url).toEqual({ error: ROLE_ERRORS.clinicianOnly, code: "CLINICIAN_ONLY" });
    }
    expect((await cancel(first, id)).statusCode).toBe(200);
  });

  it("answer bad input with 400 { error } and an unknown visit with 404", async () => {
    const unknown = randomUUID();
    const bad = await call("POST", `${CONSOLE}/visits/not-an-id/accept`, first.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty("error");
    const noReason = await call("POST", `${CONSOLE}/visits/${unknown}/cancel`, first.token, { reason: " " });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toHaveProperty("error");
    const missing = await call("GET", `${CONSOLE}/visits/${unknown}`, first.token);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "CONSULTATION_NOT_FOUND" });
  });
});

describe("the queue", () => {
  it("shows each request with its wait, type, symptoms, state and the patient's age, and not to a clinician unlicensed in the state", async () => {
    const someone = await patient("1990-07-02");
    const id = await requestVisit(someone.access_token, "video");
    clock.advance(90_000);
    const [item, ...rest] = await queueOf(first);
    expect(rest).toEqual([]);
    expect(item).toEqual({
      id,
      type: "video",
      state: STATE,
      created_at: expect.any(String),
      wait_seconds: 90,
      symptoms: ["Cough", "Fever"],
      other_symptoms: true,
      // Born 1990-07-02: 35 until the birthday tomorrow.
      patient_age: 35,
      chosen: false,
    });
    // The queue carries no name and no words of the patient's.
    expect(JSON.stringify(item)).not.toContain("rash");
    expect(await queueOf(elsewhere)).toEqual([]);

    const refused = await call("POST", `${CONSOLE}/visits/${id}/accept`, elsewhere.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "CONSULTATION_NOT_IN_QUEUE", error: expect.any(String) });
    const peek = await call("GET", `${CONSOLE}/visits/${id}`, elsewhere.token);
    expect(peek.statusCode).toBe(403);
    expect((await cancel(first, id)).statusCode).toBe(200);
  });

  it("tells the clinicians who may take a request when it is created, accepted and canceled, and nobody else", async () => {
    const someone = await patient();
    const before = (await queueEventsOf(first.userId)).length;
    const elsewhereBefore = (await queueEventsOf(elsewhere.userId)).length;
    const id = await requestVisit(someone.access_token);
    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, second.token)).statusCode).toBe(200);
    const other = await requestVisit(someone.access_token);
    const canceled = await call("POST", `/ambercare/consultations/${other}/cancel`, someone.access_token);
    expect(canceled.statusCode).toBe(200);
    const events = (await queueEventsOf(first.userId)).slice(before).map((event) => event.payload);
    expect(events).toEqual([
      { consultation_id: id, change: "created" },
      { consultation_id: id, change: "accepted" },
      { consultation_id: other, change: "created" },
      { consultation_id: other, change: "canceled" },
    ]);
    expect((await queueEventsOf(second.userId)).slice(-1)[0]?.payload).toEqual({
      consultation_id: other,
      change: "canceled",
    });
    expect((await queueEventsOf(elsewhere.userId)).length).toBe(elsewhereBefore);
    expect((await queueEventsOf(someone.user_id)).length).toBe(0);
    expect((await cancel(second, id)).statusCode).toBe(200);
  });
});

describe("an expired request", () => {
  it("leaves the queue, and the clinicians who may take it are told", async () => {
    const someone = await patient();
    const id = await requestVisit(someone.access_token);
    clock.advance(t.app.config.VISIT_ACCEPT_TIMEOUT * 60_000 + 1000);
    await t.app.visits.runDue();
    expect(await queueOf(first)).toEqual([]);
    expect((await queueEventsOf(first.userId)).slice(-1)[0]?.payload).toEqual({
      consultation_id: id,
      change: "expired",
    });
  });
});

describe("accepting and the visit", () => {
  it("lets one of two concurrent accepts win with 200; the other gets 409 CONSULTATION_ALREADY_TAKEN", async () => {
    const someone = await patient();
    const id = await requestVisit(someone.access_token);
    const answers = await Promise.all([
      call("POST", `${CONSOLE}/visits/${id}/accept`, first.token),
      call("POST", `${CONSOLE}/visits/${id}/accept`, second.token),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const lost = answers.find((res) => res.statusCode === 409)!;
    expect(lost.json()).toMatchObject({ code: "CONSULTATION_ALREADY_TAKEN", error: expect.any(String) });
    const won = answers.find((res) => res.statusCode === 200)!;
    expect(consoleVisitResponse.parse(won.json()).data).toMatchObject({ id, status: "accepted" });
    const winner = won === answers[0] ? first : second;
    expect(await queueOf(first)).toEqual([]);
    expect(await queueOf(second)).toEqual([]);
    expect((await cancel(winner, id)).statusCode).toBe(200);
  });

  it("opens the workspace of an accepted visit, audits each read in the patient's log with the clinician's name, and runs to completion", async () => {
    const someone = await patient("1980-01-20");
    // An earlier visit with the same provider, completed.
    const earlier = await requestVisit(someone.access_token, "chat", { symptoms: ["Headache"] });
    for (const stepName of ["accept", "start"]) {
      expect((await call("POST", `${CONSOLE}/visits/${earlier}/${stepName}`, first.token)).statusCode).toBe(
        200,
      );
    }
    const done = await call("POST", `${CONSOLE}/visits/${earlier}/complete`, first.token, {
      summary: "Rest and drink water.",
    });
    expect(done.statusCode, done.body).toBe(200);

    const id = await requestVisit(someone.access_token);
    // Not theirs yet: a request is not a visit to read.
    expect((await call("GET", `${CONSOLE}/visits/${id}`, first.token)).statusCode).toBe(403);
    const accepted = await call("POST", `${CONSOLE}/visits/${id}/accept`, first.token);
    expect(accepted.statusCode).toBe(200);
    const open = consoleVisitListResponse.parse((await call("GET", `${CONSOLE}/visits`, first.token)).json());
    expect(open.data.map((visit) => visit.id)).toEqual([id]);
    expect(open.data[0]).toMatchObject({ status: "accepted", patient_age: 46 });

    const res = await call("GET", `${CONSOLE}/visits/${id}`, first.token);
    expect(res.statusCode, res.body).toBe(200);
    const workspace = visitWorkspaceResponse.parse(res.json()).data;
    expect(workspace.visit).toMatchObject({ id, status: "accepted", patient_name: expect.any(String) });
    expect(workspace.intake).toMatchObject({
      symptoms: ["Cough", "Fever"],
      symptoms_other: "A rash on the left arm",
    });
    expect(workspace.documents).toEqual([]);
    expect(workspace.past_visits).toEqual([
      expect.objectContaining({
        id: earlier,
        status: "completed",
        symptoms: ["Headache"],
        visit_summary: "Rest and drink water.",
      }),
    ]);
    // The other clinician reads nothing of it; the refusal is in the patient's log too.
    const peek = await call("GET", `${CONSOLE}/visits/${id}`, second.token);
    expect(peek.statusCode).toBe(403);
    expect(peek.json()).toMatchObject({ code: "CONSULTATION_OTHER_CLINICIAN" });

    const log = auditLogResponse.parse(
      (await call("GET", "/ambercare/audit-log", someone.access_token)).json(),
    );
    const actionsOf = (clinician: Clinician) =>
      log.data
        .filter((row) => row.actor === "clinician" && row.actor_name === clinician.name)
        .map((row) => row.action)
        .sort();
    // The first clinician's look before accepting was refused, then the accepts of the earlier visit
    // and this one (each opens the intake to them) and the three reads.
    expect(actionsOf(first)).toEqual([
      "access.refused",
      "consultation.accept",
      "consultation.accept",
      "consultation.list",
      "consultation.read",
      "document.list",
    ]);
    expect(actionsOf(second)).toEqual(["access.refused"]);

    expect((await call("POST", `${CONSOLE}/visits/${id}/start`, first.token)).statusCode).toBe(200);
    const stranger = await call("POST", `${CONSOLE}/visits/${id}/complete`, second.token, { summary: "x" });
    expect(stranger.statusCode).toBe(403);
    const completed = await call("POST", `${CONSOLE}/visits/${id}/complete`, first.token, {
      summary: "Likely a viral cough. Rest, fluids; come back if the fever lasts past Friday.",
    });
    expect(completed.statusCode).toBe(200);
    expect(consoleVisitResponse.parse(completed.json()).data).toMatchObject({
      status: "completed",
      visit_summary: "Likely a viral cough. Rest, fluids; come back if the fever lasts past Friday.",
    });
    const again = await call("POST", `${CONSOLE}/visits/${id}/complete`, first.token, { summary: "Twice" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toHaveProperty("error");
  });

  it("lets the visit's clinician download the patient's documents listed in the workspace, audited, and nobody else", async () => {
    const someone = await patient();
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(512),
    ]);
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/ambercare/medical-records/documents",
      headers: {
        ...bearer(someone.access_token),
        "content-type": "application/octet-stream",
        "x-file-name": encodeURIComponent("rash photo.png"),
      },
      payload: png,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const documentId = (uploaded.json() as { data: { id: string } }).data.id;
    const id = await requestVisit(someone.access_token);
    const download = (token: string, document = documentId) =>
      call("GET", `${CONSOLE}/visits/${id}/documents/${document}`, token);

    // A request is not a visit to read yet.
    expect((await download(first.token)).statusCode).toBe(403);
    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, first.token)).statusCode).toBe(200);
    const workspace = visitWorkspaceResponse.parse(
      (await call("GET", `${CONSOLE}/visits/${id}`, first.token)).json(),
    );
    expect(workspace.data.documents.map((document) => document.id)).toEqual([documentId]);

    const file = await download(first.token);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    expect(file.headers["content-disposition"]).toContain("rash%20photo.png");
    expect(file.rawPayload.equals(png)).toBe(true);
    expect((await download(second.token)).statusCode).toBe(403);
    expect((await download(first.token, randomUUID())).statusCode).toBe(404);
    expect((await call("GET", `${CONSOLE}/visits/${id}/documents/not-a-uuid`, first.token)).statusCode).toBe(
      400,
    );
    const patientsCall = await call(
      "GET",
      `${CONSOLE}/visits/${id}/documents/${documentId}`,
      someone.access_token,
    );
    expect(patientsCall.statusCode).toBe(403);

    const log = auditLogResponse.parse(
      (await call("GET", "/ambercare/audit-log", someone.access_token)).json(),
    );
    expect(
      log.data.filter(
        (row) =>
          row.actor === "clinician" && row.action === "document.download" && row.actor_name === first.name,
      ),
    ).toHaveLength(1);
  });

  it("cancels a request with a reason, and the patient's visit is canceled", async () => {
    const someone = await patient();
    const id = await requestVisit(someone.access_token);
    const res = await cancel(first, id);
    expect(visitStatusResponse.parse(res.json()).data).toEqual({ id, status: "canceled" });
    expect((await cancel(first, id)).statusCode).toBe(409);
  });
});

describe("the visit notes", () => {
  const soap = { subjective: "Cough for 3 days", objective: "", assessment: "", plan: "" };
  const save = (clinician: Clinician, id: string, body: object) =>
    call("PUT", `${CONSOLE}/visits/${id}/notes`, clinician.token, body);

  async function acceptedVisit() {
    const someone = await patient();
    const id = await requestVisit(someone.access_token);
    expect((await call("POST", `${CONSOLE}/visits/${id}/accept`, first.token)).statusCode).toBe(200);
    return id;
  }

  it("save as the clinician types, each save on the version it read; an older version is refused, not overwritten", async () => {
    const id = await acceptedVisit();
    const saved = await save(first, id, { ...soap, version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(visitNotesResponse.parse(saved.json()).data).toMatchObject({
      ...soap,
      version: 1,
      signed_at: null,
    });
    const next = await save(first, id, { ...soap, objective: "Temp 38.2", version: 1 });
    expect(visitNotesResponse.parse(next.json()).data).toMatchObject({ objective: "Temp 38.2", version: 2 });

    // A second window still on version 1 (or a first save racing another) is told, and nothing is lost.
    for (const version of [1, 0]) {
      const stale = await save(first, id, { ...soap, plan: "from an old tab", version });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ error: CONSOLE_ERRORS.notesStale, code: "NOTES_STALE" });
    }
    const workspace = visitWorkspaceResponse.parse(
      (await call("GET", `${CONSOLE}/visits/${id}`, first.token)).json(),
    );
    expect(workspace.data.notes).toMatchObject({ objective: "Temp 38.2", plan: "", version: 2 });

    // Another clinician cannot write them; text over the limit is a 400.
    expect((await save(second, id, { ...soap, version: 2 })).statusCode).toBe(403);
    const long = await save(first, id, { ...soap, plan: "x".repeat(20_001), version: 2 });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toHaveProperty("error");
    // Text PostgreSQL cannot store (a NUL, a lone surrogate) is a 400 with a code in every field,
    // never a 500 nor a silent U+FFFD.
    for (const field of ["subjective", "objective", "assessment", "plan"]) {
      for (const bad of ["cough\u0000", "cough \ud800"]) {
        const refused = await save(first, id, { ...soap, [field]: bad, version: 2 });
        expect(refused.statusCode, `${field} ${JSON.stringify(bad)}: ${refused.body}`).toBe(400);
        expect(refused.json()).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }
    }
  });

  it("are signed by completing the visit: later changes are refused and go in signed, timed addenda", async () => {
    const id = await acceptedVisit();
    await save(first, id, { ...soap, version: 0 });
    const early = await call("POST", `${CONSOLE}/visits/${id}/addenda`, first.token, { body: "Too early" });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: "NOTES_NOT_SIGNED" });
    expect((await call("POST", `${CONSOLE}/visits/${id}/start`, first.token)).statusCode).toBe(200);
    const completed = await call("POST", `${CONSOLE}/visits/${id}/complete`, first.token, {
      summary: "A cold. Rest and fluids.",
    });
    expect(completed.statusCode).toBe(200);

    const late = await save(first, id, { ...soap, plan: "changed afterwards", version: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: CONSOLE_ERRORS.notesSigned, code: "NOTES_SIGNED" });

    clock.advance(60_000);
    const added = await call("POST", `${CONSOLE}/visits/${id}/addenda`, first.token, {
      body: "Lab result: negative.",
    });
    expect(added.statusCode, added.body).toBe(201);
    const notes = visitNotesResponse.parse(added.json()).data;
    expect(notes).toMatchObject({ subjective: soap.subjective, plan: "", signed_at: expect.any(String) });
    expect(notes.addenda).toEqual([
      {
        id: expect.any(String),
        body: "Lab result: negative.",
        signed_by: first.name,
        signed_at: clock.now().toISOString(),
      },
    ]);
  });
});

describe("on and off duty", () => {
  const duty = (clinician: Clinician, onDuty?: boolean) =>
    onDuty === undefined
      ? call("GET", `${CONSOLE}/duty`, clinician.token)
      : call("PUT", `${CONSOLE}/duty`, clinician.token, { on_duty: onDuty });
  const directoryEntry = async (providerId: string) => {
    const [row] = await t.db.db
      .select({ slug: providers.slug })
      .from(providers)
      .where(eq(providers.id, providerId));
    const res = await t.app.inject({ method: "GET", url: `/api/v1/api/provider/${row!.slug}` });
    return res.json().data as { available_today: boolean; expected_wait_minutes: number | null };
  };

  it("is the clinician's to switch; the directory shows their provider available with the expected wait", async () => {
    const someone = await patient();
    expect((await call("PUT", `${CONSOLE}/duty`, someone.access_token, { on_duty: true })).statusCode).toBe(
      403,
    );
    expect(dutyStatusResponse.parse((await duty(elsewhere)).json()).data).toEqual({
      on_duty: false,
      since: null,
      expected_wait_minutes: null,
    });
    expect(await directoryEntry(elsewhere.providerId)).toMatchObject({
      available_today: false,
      expected_wait_minutes: null,
    });

    const on = dutyStatusResponse.parse((await duty(elsewhere, true)).json()).data;
    expect(on).toEqual({ on_duty: true, since: clock.now().toISOString(), expected_wait_minutes: 5 });
    expect(await directoryEntry(elsewhere.providerId)).toMatchObject({
      available_today: true,
      expected_wait_minutes: 5,
    });

    // One request accepted 2 minutes after it came, two waiting: (2 + 1) × 2 minutes.
    const [licence] = await t.db.db
      .select({ state: providerLicenses.state })
      .from(providerLicenses)
      .where(eq(providerLicenses.providerId, elsewhere.providerId))
      .limit(1);
    const there = { state: licence!.state as typeof STATE };
    const taken = await requestVisit(someone.access_token, "chat", there);
    clock.advance(120_000);
    expect((await call("POST", `${CONSOLE}/visits/${taken}/accept`, elsewhere.token)).statusCode).toBe(200);
    const waiting = [
      await requestVisit(someone.access_token, "chat", there),
      await requestVisit(someone.access_token, "video", there),
    ];
    expect(dutyStatusResponse.parse((await duty(elsewhere)).json()).data.expected_wait_minutes).toBe(6);
    expect((await directoryEntry(elsewhere.providerId)).expected_wait_minutes).toBe(6);

    const off = dutyStatusResponse.parse((await duty(elsewhere, false)).json()).data;
    expect(off).toEqual({ on_duty: false, since: null, expected_wait_minutes: null });
    expect(await directoryEntry(elsewhere.providerId)).toMatchObject({ available_today: false });
    for (const id of [taken, ...waiting]) expect((await cancel(elsewhere, id)).statusCode).toBe(200);
  });
});
