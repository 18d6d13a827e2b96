import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CONSULTATION_ERRORS, messageListResponse, messageResponse } from "@ambercare/contracts/consultation";
import { DOCUMENT_MAX_BYTES } from "@ambercare/contracts/consultation-limits";
import type { Executor } from "@ambercare/db/client";
import {
  auditLog,
  consultationMessages,
  consultations,
  medicalDocuments,
  providers,
} from "@ambercare/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import { createMedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import { createVisitChatService } from "#api/modules/consultations/visit-chat-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const clock = createManualClock(new Date("2026-03-10T15:00:00Z"));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000", VISIT_FOLLOW_UP_DAYS: "7" } });
});

afterAll(async () => {
  await t.close();
});

type Patient = Awaited<ReturnType<typeof registerPatient>>;

/** A chat visit of `patient` in the given status (the lifecycle's transitions are not under test here). */
async function visit(patient: Patient, fields: Partial<typeof consultations.$inferInsert> = {}) {
  const [row] = await t.db.db
    .insert(consultations)
    .values({ userId: patient.user_id, type: "chat", status: "requested", ...fields })
    .returning({ id: consultations.id });
  return row!.id;
}

const path = (id: string, rest = "messages") => `/ambercare/consultations/${id}/${rest}`;
const send = (token: string, id: string, payload: object) =>
  t.app.inject({ method: "POST", url: path(id), headers: bearer(token), payload });
const list = (token: string, id: string, after?: number) =>
  t.app.inject({
    method: "GET",
    url: after === undefined ? path(id) : `${path(id)}?after=${after}`,
    headers: bearer(token),
  });
const upload = (token: string, id: string, name: string, bytes: Buffer) =>
  t.app.inject({
    method: "POST",
    url: path(id, "attachments"),
    headers: { ...bearer(token), "content-type": "application/octet-stream", "x-file-name": name },
    payload: bytes,
  });

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

describe("the clinician's side (clinician accounts given through the service's seam)", () => {
  type Published = { recipients: readonly string[]; topic: string; payload: Record<string, unknown> };

  async function setUp() {
    const patient = await registerPatient(t.app);
    const clinician = await registerPatient(t.app);
    const outsider = await registerPatient(t.app);
    const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
    const published: Published[] = [];
    const chat = createVisitChatService({
      db: t.db.db,
      clock,
      followUpDays: 7,
      documents: createMedicalDocumentService({ db: t.db.db, clock, dataDir: t.dataDir }),
      clinicians: {
        providerIdOf: async (userId) => (userId === clinician.user_id ? provider!.id : null),
        userIdsOf: async (providerId) => (providerId === provider!.id ? [clinician.user_id] : []),
      },
      events: {
        async publish(recipients, topic, payload, _tx?: Executor) {
          published.push({ recipients, topic, payload });
        },
      },
    });
    const as = (user: Patient) => ({
      auth: { userId: user.user_id, isServiceAccount: false } as AuthContext,
      ip: "203.0.113.9",
    });
    return { patient, clinician, outsider, provider: provider!, published, chat, as };
  }

  it("lets the visit's clinician read and answer once accepted; receipts reach the writer only", async () => {
    const { patient, clinician, outsider, provider, published, chat, as } = await setUp();
    const id = await visit(patient, { providerId: provider.id });
    const { message: question } = await chat.send(as(patient), id, { body: "Is it serious?" });
    // Still requested: nobody has taken the visit on, so nobody is told and the clinician may not read.
    expect(published.at(-1)?.recipients).toEqual([]);
    await expect(chat.list(as(clinician), id)).rejects.toMatchObject({ status: 403 });

    await t.db.db.update(consultations).set({ status: "in_progress" }).where(eq(consultations.id, id));
    const read = await chat.list(as(clinician), id);
    expect(read.map((message) => message.body)).toEqual(["Is it serious?"]);
    const [audited] = await t.db.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, patient.user_id), eq(auditLog.actorUserId, clinician.user_id)));
    expect(audited).toMatchObject({ action: "message.list", actorKind: "provider", resourceId: id });

    const { message: answer } = await chat.send(as(clinician), id, { body: "No. Rest and fluids." });
    expect(answer).toMatchObject({ author: "provider", seq: 2 });
    expect(published.at(-1)).toEqual({
      recipients: [patient.user_id],
      topic: "visit.message",
      payload: { consultation_id: id, message_id: answer.id, seq: 2, change: "created" },
    });

    const receipt = await chat.acknowledge(as(patient), id, { receipt: "read", up_to_seq: 2 });
    expect(receipt.updated).toBe(1);
    expect(published.at(-1)).toEqual({
      recipients: [clinician.user_id],
      topic: "visit.receipt",
      payload: { consultation_id: id, receipt: "read", up_to_seq: 2 },
    });
    const thread = await chat.list(as(patient), id);
    // The patient's receipt marks the clinician's message only, never the patient's own.
    expect(thread.find((m) => m.id === question.id)).toMatchObject({ read_at: null, delivered_at: null });
    expect(thread.find((m) => m.id === answer.id)).toMatchObject({
      read_at: clock.now().toISOString(),
      delivered_at: clock.now().toISOString(),
    });
    expect(published.every((event) => !event.recipients.includes(outsider.user_id))).toBe(true);
    await expect(chat.list(as(outsider), id)).rejects.toMatchObject({ status: 403 });
    expect(await chat.typingRecipients(patient.user_id, id)).toEqual([clinician.user_id]);
    expect(await chat.typingRecipients(outsider.user_id, id)).toEqual([]);
  });
});
