import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CONSULTATION_ERRORS, messageListResponse, messageResponse } from "@ambercare/contracts/consultation";
import { DOCUMENT_MAX_BYTES } from "@ambercare/contracts/consultation-limits";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import {
  auditLog,
  consultationMessages,
  consultations,
  liveEvents,
  medicalDocuments,
  providers,
} from "@ambercare/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLiveClient } from "#api/modules/live/live-test-client.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const clock = createManualClock(new Date("2026-03-10T15:00:00Z"));
let t: TestApp;
let liveUrl: string;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000", VISIT_FOLLOW_UP_DAYS: "7" } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  liveUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1${LIVE_API_PATH}`;
});

afterAll(async () => {
  await t.close();
});

type Patient = Awaited<ReturnType<typeof registerPatient>>;
type Clinician = Patient & { providerId: string };

/** A clinician account working as a provider no other account has (second factor on). */
const newClinician = (): Promise<Clinician> => registerClinician(t, clock.now());

/**
 * A chat visit of `patient`, accepted by `by` (a provider of its own when not given) unless the
 * fields say otherwise (the lifecycle's transitions are not under test here).
 */
async function visit(
  patient: Patient,
  fields: Partial<typeof consultations.$inferInsert> = {},
  by?: { providerId: string },
) {
  const providerId =
    by?.providerId ?? (await t.db.db.select({ id: providers.id }).from(providers).limit(1))[0]!.id;
  const [row] = await t.db.db
    .insert(consultations)
    .values({
      userId: patient.user_id,
      type: "chat",
      status: "accepted",
      providerId,
      acceptedAt: clock.now(),
      ...fields,
    })
    .returning({ id: consultations.id });
  return row!.id;
}

const PATIENT_BASE = "/ambercare/consultations";
const CONSOLE_BASE = "/api/v1/api/care-team/visits";
const path = (id: string, rest = "messages", base = PATIENT_BASE) => `${base}/${id}/${rest}`;
const send = (token: string, id: string, payload: object, base = PATIENT_BASE) =>
  t.app.inject({ method: "POST", url: path(id, "messages", base), headers: bearer(token), payload });
const list = (token: string, id: string, after?: number, base = PATIENT_BASE) =>
  t.app.inject({
    method: "GET",
    url: after === undefined ? path(id, "messages", base) : `${path(id, "messages", base)}?after=${after}`,
    headers: bearer(token),
  });
const upload = (token: string, id: string, name: string, bytes: Buffer, base = PATIENT_BASE) =>
  t.app.inject({
    method: "POST",
    url: path(id, "attachments", base),
    headers: { ...bearer(token), "content-type": "application/octet-stream", "x-file-name": name },
    payload: bytes,
  });
const receipt = (token: string, id: string, payload: object, base = PATIENT_BASE) =>
  t.app.inject({ method: "POST", url: path(id, "receipts", base), headers: bearer(token), payload });

const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n");
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 1),
]);
const EXE = Buffer.concat([Buffer.from("MZ\x90\x00"), Buffer.alloc(64, 0)]);

describe("a visit's thread", () => {
  it("stores a message sent twice with the same client id once, and answers the resend with 200", async () => {
    const ana = await registerPatient(t.app);
    const id = await visit(ana);
    const clientId = randomUUID();
    const first = await send(ana.access_token, id, { body: "Her fever went up.", client_id: clientId });
    expect(first.statusCode, first.body).toBe(201);
    const again = await send(ana.access_token, id, { body: "Her fever went up.", client_id: clientId });
    expect(again.statusCode, again.body).toBe(200);
    expect(messageResponse.parse(again.json()).data).toEqual(messageResponse.parse(first.json()).data);
    const rows = await t.db.db
      .select()
      .from(consultationMessages)
      .where(eq(consultationMessages.consultationId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ clientId, seq: 1, author: "patient" });
  });

  it("numbers messages in the server's order and lists those after a sequence number", async () => {
    const ben = await registerPatient(t.app);
    const id = await visit(ben);
    const bodies = ["one", "two", "three", "four"];
    // Sent at once: the server decides the order, without gaps or repeats.
    const sent = await Promise.all(bodies.map((body) => send(ben.access_token, id, { body })));
    expect(sent.map((res) => res.statusCode)).toEqual([201, 201, 201, 201]);
    const all = messageListResponse.parse((await list(ben.access_token, id)).json()).data;
    expect(all.map((message) => message.seq)).toEqual([1, 2, 3, 4]);
    expect([...all.map((message) => message.body)].sort()).toEqual([...bodies].sort());
    const after = messageListResponse.parse((await list(ben.access_token, id, 2)).json()).data;
    expect(after.map((message) => message.seq)).toEqual([3, 4]);
    expect(after.map((message) => message.id)).toEqual(all.slice(2).map((message) => message.id));
  });

  it("keeps a retracted message's text and marks it; only its author can retract", async () => {
    const cy = await registerPatient(t.app);
    const id = await visit(cy);
    const { data } = messageResponse.parse((await send(cy.access_token, id, { body: "Wrong dose" })).json());
    const res = await t.app.inject({
      method: "POST",
      url: path(id, `messages/${data.id}/retract`),
      headers: bearer(cy.access_token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ body: "Wrong dose", retracted_at: clock.now().toISOString() });
    const thread = messageListResponse.parse((await list(cy.access_token, id)).json()).data;
    expect(thread).toHaveLength(1);
    expect(thread[0]).toMatchObject({ body: "Wrong dose", retracted_at: clock.now().toISOString() });

    const stranger = await registerPatient(t.app);
    const refused = await t.app.inject({
      method: "POST",
      url: path(id, `messages/${data.id}/retract`),
      headers: bearer(stranger.access_token),
    });
    expect(refused.statusCode).toBe(403);
    const [audited] = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, cy.user_id), eq(auditLog.action, "message.retract")));
    expect(audited).toMatchObject({ actorUserId: cy.user_id, resourceId: data.id });
  });

  it("refuses another patient's thread, read or write, and a visit that does not exist", async () => {
    const owner = await registerPatient(t.app);
    const stranger = await registerPatient(t.app);
    const id = await visit(owner);
    await send(owner.access_token, id, { body: "Private" });
    expect((await list(stranger.access_token, id)).statusCode).toBe(403);
    const write = await send(stranger.access_token, id, { body: "hi" });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ error: CONSULTATION_ERRORS.notYours, code: "CONSULTATION_NOT_YOURS" });
    expect((await upload(stranger.access_token, id, "a.pdf", PDF)).statusCode).toBe(403);
    const receipt = await t.app.inject({
      method: "POST",
      url: path(id, "receipts"),
      headers: bearer(stranger.access_token),
      payload: { receipt: "read", up_to_seq: 1 },
    });
    expect(receipt.statusCode).toBe(403);
    expect((await list(stranger.access_token, randomUUID())).statusCode).toBe(404);

    // The patient's calls refuse a clinician, and the console's calls refuse the patient.
    const doctor = await newClinician();
    const asClinician = await list(doctor.access_token, id);
    expect(asClinician.statusCode).toBe(403);
    expect(asClinician.json()).toEqual({ error: ROLE_ERRORS.patientOnly, code: "PATIENT_ONLY" });
    const asPatient = await list(owner.access_token, id, undefined, CONSOLE_BASE);
    expect(asPatient.statusCode).toBe(403);
    expect(asPatient.json()).toEqual({ error: ROLE_ERRORS.clinicianOnly, code: "CLINICIAN_ONLY" });
    expect((await send(owner.access_token, id, { body: "x" }, CONSOLE_BASE)).statusCode).toBe(403);

    const rows = await t.db.db
      .select()
      .from(consultationMessages)
      .where(eq(consultationMessages.consultationId, id));
    expect(rows.map((row) => row.body)).toEqual(["Private"]);
  });

  it("takes follow-up questions for VISIT_FOLLOW_UP_DAYS after completion, then only reads", async () => {
    const dee = await registerPatient(t.app);
    const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
    // Completed a minute less than the follow-up period ago (a session lasts less than 7 days).
    const completedAt = new Date(clock.now().getTime() - 7 * DAY_MS + 60_000);
    const id = await visit(dee, { status: "completed", providerId: provider!.id, completedAt });
    expect((await send(dee.access_token, id, { body: "One more question" })).statusCode).toBe(201);
    clock.advance(2 * 60_000);
    const late = await send(dee.access_token, id, { body: "And another" });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ error: CONSULTATION_ERRORS.threadClosed, code: "VISIT_THREAD_CLOSED" });
    const thread = messageListResponse.parse((await list(dee.access_token, id)).json()).data;
    expect(thread.map((message) => message.body)).toEqual(["One more question"]);

    const canceled = await visit(dee, { status: "canceled", canceledAt: clock.now() });
    expect((await send(dee.access_token, canceled, { body: "hello" })).json().code).toBe(
      "CONSULTATION_CANCELED",
    );
    const expired = await visit(dee, {
      status: "expired",
      providerId: null,
      acceptedAt: null,
      expiredAt: clock.now(),
    });
    expect((await send(dee.access_token, expired, { body: "hello" })).json()).toEqual({
      error: CONSULTATION_ERRORS.threadReadOnly,
      code: "VISIT_THREAD_READ_ONLY",
    });
  });

  it("opens only once a clinician accepted the visit: a request is read, not written", async () => {
    const gus = await registerPatient(t.app);
    const id = await visit(gus, { status: "requested", providerId: null, acceptedAt: null });
    const early = await send(gus.access_token, id, { body: "Anyone there?" });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: CONSULTATION_ERRORS.threadNotOpen, code: "VISIT_THREAD_NOT_OPEN" });
    expect((await upload(gus.access_token, id, "a.pdf", PDF)).statusCode).toBe(409);
    expect(messageListResponse.parse((await list(gus.access_token, id)).json()).data).toEqual([]);

    // A clinician accepts it (the lifecycle's own tests cover how): now both sides may write.
    const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
    await t.db.db
      .update(consultations)
      .set({ status: "accepted", providerId: provider!.id, acceptedAt: clock.now() })
      .where(eq(consultations.id, id));
    expect((await send(gus.access_token, id, { body: "Anyone there?" })).statusCode).toBe(201);
  });
});

describe("files in a visit's thread", () => {
  it("stores a file by its content as the patient's document and sends it with a message", async () => {
    const eve = await registerPatient(t.app);
    const id = await visit(eve);
    // A PDF named .png is stored as the PDF it is.
    const res = await upload(eve.access_token, id, "scan.png", PDF);
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json().data;
    expect(file).toMatchObject({ content_type: "application/pdf", file_name: "scan.png", size: PDF.length });
    const [stored] = await t.db.db.select().from(medicalDocuments).where(eq(medicalDocuments.id, file.id));
    expect(stored).toMatchObject({ userId: eve.user_id, consultationId: id });
    expect(readdirSync(join(t.dataDir, "uploads"))).toContain(stored!.storageKey);

    const sent = await send(eve.access_token, id, { body: "The lab report", attachment_ids: [file.id] });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data.attachments).toEqual([
      { id: file.id, file_name: "scan.png", content_type: "application/pdf", size: PDF.length },
    ]);
    const download = await t.app.inject({
      method: "GET",
      url: path(id, `attachments/${file.id}`),
      headers: bearer(eve.access_token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.rawPayload.equals(PDF)).toBe(true);

    // A file is sent once, and only in the visit it was uploaded to.
    const twice = await send(eve.access_token, id, { body: "Again", attachment_ids: [file.id] });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().code).toBe("ATTACHMENT_NOT_FOUND");
    const other = await visit(eve);
    const png = (await upload(eve.access_token, id, "photo.png", PNG)).json().data;
    const elsewhere = await send(eve.access_token, other, { body: "Photo", attachment_ids: [png.id] });
    expect(elsewhere.statusCode).toBe(422);
  });

  it("refuses an executable and a file over 10 MB with a code", async () => {
    const fay = await registerPatient(t.app);
    const id = await visit(fay);
    const exe = await upload(fay.access_token, id, "report.pdf", EXE);
    expect(exe.statusCode).toBe(415);
    expect(exe.json()).toEqual({
      error: CONSULTATION_ERRORS.documentType,
      code: "DOCUMENT_TYPE_UNSUPPORTED",
    });
    const big = await upload(
      fay.access_token,
      id,
      "big.pdf",
      Buffer.concat([PDF, Buffer.alloc(DOCUMENT_MAX_BYTES + 1 - PDF.length)]),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toEqual(expect.any(String));
    expect(big.json().error).toEqual(expect.any(String));
    const rows = await t.db.db
      .select()
      .from(medicalDocuments)
      .where(eq(medicalDocuments.userId, fay.user_id));
    expect(rows).toEqual([]);
  });
});

describe("the clinician's side", () => {
  /** The live events rows written since `since` (ids), per recipient and topic. */
  async function eventsAfter(since: number) {
    const rows = await t.db.db
      .select({
        id: liveEvents.id,
        userId: liveEvents.userId,
        topic: liveEvents.topic,
        payload: liveEvents.payload,
      })
      .from(liveEvents)
      .where(sql`${liveEvents.id} > ${since}`)
      .orderBy(liveEvents.id);
    return rows;
  }
  async function lastEventId(): Promise<number> {
    const [row] = await t.db.db
      .select({ id: sql<number>`coalesce(max(${liveEvents.id}), 0)::int` })
      .from(liveEvents);
    return Number(row?.id ?? 0);
  }

  it("lets the clinician who accepted the visit read and answer; receipts and events reach both sides", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await newClinician();
    const id = await visit(patient, {}, doctor);
    const before = await lastEventId();
    const question = messageResponse.parse(
      (await send(patient.access_token, id, { body: "Is it serious?" })).json(),
    ).data;

    const read = await list(doctor.access_token, id, undefined, CONSOLE_BASE);
    expect(read.statusCode, read.body).toBe(200);
    expect(messageListResponse.parse(read.json()).data.map((message) => message.body)).toEqual([
      "Is it serious?",
    ]);
    // The clinician's read is in the patient's access log under the clinician's name.
    const [audited] = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, patient.user_id), eq(auditLog.actorUserId, doctor.user_id)));
    expect(audited).toMatchObject({ action: "message.list", actorKind: "clinician", resourceId: id });

    const answered = await send(doctor.access_token, id, { body: "No. Rest and fluids." }, CONSOLE_BASE);
    expect(answered.statusCode, answered.body).toBe(201);
    const answer = messageResponse.parse(answered.json()).data;
    expect(answer).toMatchObject({ author: "provider", seq: 2 });

    const acknowledged = await receipt(patient.access_token, id, { receipt: "read", up_to_seq: 2 });
    expect(acknowledged.json().data).toEqual({ receipt: "read", up_to_seq: 2, updated: 1 });
    const thread = messageListResponse.parse((await list(patient.access_token, id)).json()).data;
    // The patient's receipt marks the clinician's message only, never the patient's own.
    expect(thread.find((m) => m.id === question.id)).toMatchObject({ read_at: null, delivered_at: null });
    expect(thread.find((m) => m.id === answer.id)).toMatchObject({
      read_at: clock.now().toISOString(),
      delivered_at: clock.now().toISOString(),
    });

    // Each write is one event per participant, ids only.
    const events = await eventsAfter(before);
    const summary = events.map((event) => [event.userId, event.topic, event.payload]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [
          doctor.user_id,
          "visit.message",
          { consultation_id: id, message_id: question.id, seq: 1, change: "created" },
        ],
        [
          patient.user_id,
          "visit.message",
          { consultation_id: id, message_id: answer.id, seq: 2, change: "created" },
        ],
        [
          doctor.user_id,
          "visit.receipt",
          { consultation_id: id, receipt: "read", up_to_seq: 2, by: "patient" },
        ],
      ]),
    );
    expect(events).toHaveLength(6);
  });

  it("says in the message's event that it brought files, so the workspace reads its documents again", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await newClinician();
    const id = await visit(patient, {}, doctor);
    const file = (await upload(patient.access_token, id, "rash.png", PNG)).json().data;
    const before = await lastEventId();
    const sent = await send(patient.access_token, id, { body: "A photo", attachment_ids: [file.id] });
    expect(sent.statusCode, sent.body).toBe(201);
    const events = await eventsAfter(before);
    expect(events.find((event) => event.userId === doctor.user_id)).toMatchObject({
      topic: "visit.message",
      payload: { consultation_id: id, change: "created", attachments: 1 },
    });
  });

  it("refuses a clinician the visits their provider did not accept (403) and unknown ones (404)", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await newClinician();
    const other = await newClinician();
    const id = await visit(patient, {}, doctor);
    await send(patient.access_token, id, { body: "For my doctor only" });
    for (const call of [
      () => list(other.access_token, id, undefined, CONSOLE_BASE),
      () => send(other.access_token, id, { body: "Hello" }, CONSOLE_BASE),
      () => upload(other.access_token, id, "a.pdf", PDF, CONSOLE_BASE),
      () => receipt(other.access_token, id, { receipt: "read", up_to_seq: 1 }, CONSOLE_BASE),
    ]) {
      const res = await call();
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: CONSULTATION_ERRORS.otherClinician,
        code: "CONSULTATION_OTHER_CLINICIAN",
      });
    }
    expect((await list(other.access_token, randomUUID(), undefined, CONSOLE_BASE)).statusCode).toBe(404);
    // A request that chose this clinician's provider is not theirs to read until they accept it.
    const chosen = await visit(patient, { status: "requested", acceptedAt: null }, doctor);
    expect((await list(doctor.access_token, chosen, undefined, CONSOLE_BASE)).statusCode).toBe(403);
    // The refused attempts are in the patient's log (a burst on one visit is one entry that counts
    // them, audit-log.ts); the thread is unchanged.
    const refused = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, patient.user_id), eq(auditLog.action, "access.refused")));
    expect(refused.reduce((attempts, row) => attempts + row.count, 0)).toBeGreaterThanOrEqual(4);
    const rows = await t.db.db
      .select()
      .from(consultationMessages)
      .where(eq(consultationMessages.consultationId, id));
    expect(rows.map((row) => row.body)).toEqual(["For my doctor only"]);
  });

  it("lets the clinician send a file, kept as the patient's document, and download the patient's", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await newClinician();
    const id = await visit(patient, { status: "in_progress", startedAt: clock.now() }, doctor);
    const uploaded = await upload(doctor.access_token, id, "plan.pdf", PDF, CONSOLE_BASE);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const file = uploaded.json().data;
    const [stored] = await t.db.db.select().from(medicalDocuments).where(eq(medicalDocuments.id, file.id));
    expect(stored).toMatchObject({ userId: patient.user_id, consultationId: id });
    const sent = await send(
      doctor.access_token,
      id,
      { body: "Your plan", attachment_ids: [file.id] },
      CONSOLE_BASE,
    );
    expect(sent.statusCode).toBe(201);
    const download = await t.app.inject({
      method: "GET",
      url: path(id, `attachments/${file.id}`),
      headers: bearer(patient.access_token),
    });
    expect(download.rawPayload.equals(PDF)).toBe(true);
    const byDoctor = await t.app.inject({
      method: "GET",
      url: path(id, `attachments/${file.id}`, CONSOLE_BASE),
      headers: bearer(doctor.access_token),
    });
    expect(byDoctor.statusCode).toBe(200);
    const actions = await t.db.db
      .select({ action: auditLog.action, kind: auditLog.actorKind })
      .from(auditLog)
      .where(and(eq(auditLog.userId, patient.user_id), eq(auditLog.actorUserId, doctor.user_id)));
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: "document.upload", kind: "clinician" },
        { action: "message.create", kind: "clinician" },
        { action: "document.download", kind: "clinician" },
      ]),
    );
  });
});

describe("the typing indicator", () => {
  const open = async (token: string) => {
    const client = await openLiveClient(liveUrl, { authorization: `Bearer ${token}` });
    client.send({ type: "resume", after: null });
    expect(await client.next()).toMatchObject({ type: "resumed" });
    return client;
  };

  it("reaches the other participant's open page and is never stored", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await newClinician();
    const outsider = await registerPatient(t.app);
    const id = await visit(patient, {}, doctor);
    const [patientPage, doctorPage, outsiderPage] = await Promise.all([
      open(patient.access_token),
      open(doctor.access_token),
      open(outsider.access_token),
    ]);
    const stored = async () =>
      (await t.db.db.select({ n: sql<number>`count(*)::int` }).from(liveEvents))[0]?.n;
    const storedBefore = await stored();

    patientPage.send({ type: "visit.typing", consultation_id: id, typing: true });
    expect(await doctorPage.next()).toEqual({
      topic: "visit.typing",
      payload: { consultation_id: id, side: "patient", typing: true },
    });
    doctorPage.send({ type: "visit.typing", consultation_id: id, typing: false });
    expect(await patientPage.next()).toEqual({
      topic: "visit.typing",
      payload: { consultation_id: id, side: "clinician", typing: false },
    });
    // Someone outside the visit is neither told nor heard.
    outsiderPage.send({ type: "visit.typing", consultation_id: id, typing: true });
    expect(await outsiderPage.quietFor(200)).toEqual([]);
    expect(await patientPage.quietFor(100)).toEqual([]);
    expect(await doctorPage.quietFor(100)).toEqual([]);

    expect(await stored()).toBe(storedBefore);
    // A page that comes back later gets no replay of it.
    await doctorPage.close();
    const again = await openLiveClient(liveUrl, { authorization: `Bearer ${doctor.access_token}` });
    again.send({ type: "resume", after: 0 });
    expect(
      (await again.quietFor(300)).filter((frame) => (frame as { topic?: string }).topic === "visit.typing"),
    ).toEqual([]);
    await Promise.all([patientPage.close(), outsiderPage.close(), again.close()]);
  });

  it("goes nowhere once the thread is closed, and refuses a malformed frame", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await newClinician();
    const id = await visit(patient, { status: "canceled", canceledAt: clock.now() }, doctor);
    const [patientPage, doctorPage] = await Promise.all([
      open(patient.access_token),
      open(doctor.access_token),
    ]);
    patientPage.send({ type: "visit.typing", consultation_id: id, typing: true });
    expect(await doctorPage.quietFor(200)).toEqual([]);
    patientPage.send({ type: "visit.typing", consultation_id: "not-a-visit", typing: true });
    expect(await patientPage.next()).toEqual({
      type: "error",
      code: "INVALID_FRAME",
      frame_type: "visit.typing",
    });
    await Promise.all([patientPage.close(), doctorPage.close()]);
  });
});
