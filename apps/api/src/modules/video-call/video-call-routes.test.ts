import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { callSetupResponse } from "@ambercare/contracts/video-call";
import { auditLog, consultations, liveEvents, providers } from "@ambercare/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIVE_FRAME_BURST } from "#api/modules/live/live-routes.ts";
import { openLiveClient } from "#api/modules/live/live-test-client.ts";
import { createVideoCallService, splitForRelay } from "#api/modules/video-call/video-call-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const clock = createManualClock(new Date("2026-03-10T15:00:00Z"));
const TURN_SECRET = "turn-shared-secret-0123456789";
let t: TestApp;
let liveUrl: string;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: {
      RATE_LIMIT_MAX: "100000",
      TURN_URLS: "turn:127.0.0.1:3478?transport=udp, turn:127.0.0.1:3478?transport=tcp",
      TURN_SECRET,
      TURN_CREDENTIAL_TTL_S: "600",
    },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  liveUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1${LIVE_API_PATH}`;
});

afterAll(async () => {
  await t.close();
});

type Patient = Awaited<ReturnType<typeof registerPatient>>;

/** A video visit of `patient` accepted by `by`'s provider unless the fields say otherwise. */
async function videoVisit(
  patient: Patient,
  by: { providerId: string },
  fields: Partial<typeof consultations.$inferInsert> = {},
) {
  const [row] = await t.db.db
    .insert(consultations)
    .values({
      userId: patient.user_id,
      type: "video",
      status: "accepted",
      providerId: by.providerId,
      acceptedAt: clock.now(),
      ...fields,
    })
    .returning({ id: consultations.id });
  return row!.id;
}

/** The visit is over (completed now): its call is no longer open. */
async function completeVisit(id: string) {
  await t.db.db
    .update(consultations)
    .set({ status: "completed", completedAt: clock.now() })
    .where(eq(consultations.id, id));
}

/** The call's history as [side, event] pairs, oldest first. */
async function callHistory(id: string) {
  return (await t.app.videoCalls.history(id)).map((row) => [row.side, row.event]);
}

const PATIENT_BASE = "/ambercare/consultations";
const CONSOLE_BASE = "/api/v1/api/care-team/visits";
const getSetup = (token: string, id: string, base = PATIENT_BASE) =>
  t.app.inject({ method: "GET", url: `${base}/${id}/call`, headers: bearer(token) });
const callEvent = (token: string, id: string, event: string, base = PATIENT_BASE, extra: object = {}) =>
  t.app.inject({
    method: "POST",
    url: `${base}/${id}/call/events`,
    headers: bearer(token),
    payload: { event, ...extra },
  });
const refusals = async (ownerUserId: string, actorUserId: string) =>
  t.db.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.userId, ownerUserId),
        eq(auditLog.actorUserId, actorUserId),
        eq(auditLog.action, "access.refused"),
      ),
    );

const openPage = async (token: string) => {
  const client = await openLiveClient(liveUrl, { authorization: `Bearer ${token}` });
  client.send({ type: "resume", after: null });
  expect(await client.next()).toMatchObject({ type: "resumed" });
  return client;
};

describe("the call's setup", () => {
  it("hands each participant short-lived TURN credentials that verify with the shared secret", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);

    const mine = await getSetup(patient.access_token, id);
    expect(mine.statusCode).toBe(200);
    const setup = callSetupResponse.parse(mine.json()).data;
    expect(setup).toMatchObject({ consultation_id: id, side: "patient", polite: true, open: true });
    expect(setup.recorded).toBe(false);
    expect(setup.ice_transport_policy).toBe("all");
    const [turn] = setup.ice_servers;
    expect(turn!.urls).toEqual(["turn:127.0.0.1:3478?transport=udp", "turn:127.0.0.1:3478?transport=tcp"]);
    const expiry = Math.floor(clock.now().getTime() / 1000) + 600;
    expect(turn!.username).toBe(`${expiry}:${patient.user_id}`);
    expect(turn!.credential).toBe(createHmac("sha1", TURN_SECRET).update(turn!.username!).digest("base64"));
    expect(setup.credentials_expire_at).toBe(new Date(expiry * 1000).toISOString());

    const theirs = callSetupResponse.parse(
      (await getSetup(doctor.access_token, id, CONSOLE_BASE)).json(),
    ).data;
    expect(theirs).toMatchObject({ side: "clinician", polite: false, open: true });
    expect(theirs.ice_servers[0]!.username).toBe(`${expiry}:${doctor.user_id}`);

    // A later request gets credentials that last from then: expired ones are never handed out.
    clock.advance(120_000);
    const later = callSetupResponse.parse((await getSetup(patient.access_token, id)).json()).data;
    expect(later.ice_servers[0]!.username).toBe(`${expiry + 120}:${patient.user_id}`);
  });

  it("uses host and STUN candidates only without TURN", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);
    const calls = createVideoCallService({
      db: t.db.db,
      clock,
      ice: {
        turnUrls: undefined,
        turnSecret: undefined,
        ttlSeconds: 600,
        stunUrls: ["stun:127.0.0.1:3478"],
        policy: "all",
      },
      live: t.app.live,
      visits: t.app.visits,
      checkInOpensMinutes: 15,
    });
    const viewer = {
      side: "patient" as const,
      userId: patient.user_id,
      providerId: null,
      audit: async () => {},
    };
    const setup = await calls.setup(viewer, id);
    expect(setup.ice_servers).toEqual([{ urls: ["stun:127.0.0.1:3478"] }]);
    expect(setup.credentials_expire_at).toBeNull();
  });

  it("is refused to anyone outside the visit, and to a chat visit", async () => {
    const patient = await registerPatient(t.app);
    const outsider = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const otherDoctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);

    const refused = await getSetup(outsider.access_token, id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "CONSULTATION_NOT_YOURS" });
    expect(await refusals(patient.user_id, outsider.user_id)).toHaveLength(1);
    const otherClinician = await getSetup(otherDoctor.access_token, id, CONSOLE_BASE);
    expect(otherClinician.statusCode).toBe(403);
    expect(otherClinician.json()).toMatchObject({ code: "CONSULTATION_OTHER_CLINICIAN" });
    expect((await getSetup(patient.access_token, id, CONSOLE_BASE)).statusCode).toBe(403);
    expect((await getSetup(patient.access_token, "6b0d4c1e-1d5e-4c52-9a57-2d0f2f0f0f0f")).statusCode).toBe(
      404,
    );
    expect((await getSetup(patient.access_token, "not-a-uuid")).statusCode).toBe(400);

    const chat = await videoVisit(patient, doctor, { type: "chat" });
    const notVideo = await getSetup(patient.access_token, chat);
    expect(notVideo.statusCode).toBe(409);
    expect(notVideo.json()).toMatchObject({ code: "VISIT_NOT_VIDEO" });
    // While the patient waits, the device check works: the call is not open yet.
    const waiting = await videoVisit(patient, doctor, {
      status: "requested",
      providerId: null,
      acceptedAt: null,
    });
    expect(callSetupResponse.parse((await getSetup(patient.access_token, waiting)).json()).data.open).toBe(
      false,
    );
  });
});

describe("the call's signalling", () => {
  it("relays descriptions (in parts) and candidates between the two participants only, storing nothing", async () => {
    const patient = await registerPatient(t.app);
    const outsider = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);
    const [patientPage, doctorPage, outsiderPage] = await Promise.all([
      openPage(patient.access_token),
      openPage(doctor.access_token),
      openPage(outsider.access_token),
    ]);
    const stored = async () =>
      (await t.db.db.select({ n: sql<number>`count(*)::int` }).from(liveEvents))[0]?.n;
    const storedBefore = await stored();

    // An offer the size of Chrome's audio and video offer, lines ending in CRLF as SDP does.
    const sdp = Array.from({ length: 160 }, (_, line) => `a=candidate-like-line-${line} ${"x".repeat(30)}`)
      .join("\r\n")
      .concat("\r\n");
    doctorPage.send({
      type: "visit.call.signal",
      consultation_id: id,
      signal: { kind: "description", description: { type: "offer", sdp } },
    });
    const parts: Array<{ part: number; parts: number; sdp: string; message_id: string }> = [];
    do {
      const frame = (await patientPage.next()) as { topic: string; payload: (typeof parts)[number] & object };
      expect(frame.topic).toBe("visit.call.signal");
      expect(frame.payload).toMatchObject({ consultation_id: id, from: "clinician", kind: "description" });
      expect(JSON.stringify(frame.payload).length).toBeLessThanOrEqual(2048);
      parts.push(frame.payload);
    } while (parts.length < parts[0]!.parts);
    expect(parts.length).toBeGreaterThan(1);
    expect(new Set(parts.map((part) => part.message_id)).size).toBe(1);
    expect(
      parts
        .sort((a, b) => a.part - b.part)
        .map((part) => part.sdp)
        .join(""),
    ).toBe(sdp);

    const candidate = {
      candidate: "candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host",
      sdpMid: "0",
      sdpMLineIndex: 0,
    };
    patientPage.send({
      type: "visit.call.signal",
      consultation_id: id,
      signal: { kind: "candidate", candidate },
    });
    expect(await doctorPage.next()).toEqual({
      topic: "visit.call.signal",
      payload: { consultation_id: id, from: "patient", kind: "candidate", candidate },
    });
    patientPage.send({
      type: "visit.call.signal",
      consultation_id: id,
      signal: { kind: "media", muted: true, camera_off: false, reconnecting: false },
    });
    expect(await doctorPage.next()).toEqual({
      topic: "visit.call.signal",
      payload: {
        consultation_id: id,
        from: "patient",
        kind: "media",
        muted: true,
        camera_off: false,
        reconnecting: false,
      },
    });
    // The patient's page closes without hanging up: the clinician is told at once.
    patientPage.send({ type: "visit.call.signal", consultation_id: id, signal: { kind: "away" } });
    expect(await doctorPage.next()).toEqual({
      topic: "visit.call.signal",
      payload: { consultation_id: id, from: "patient", kind: "away" },
    });

    // A patient of another visit is refused, nobody hears them, and the attempt is in the log.
    outsiderPage.send({ type: "visit.call.signal", consultation_id: id, signal: { kind: "hello" } });
    expect(await outsiderPage.next()).toEqual({
      type: "visit.call.refused",
      consultation_id: id,
      status: 403,
      code: "CONSULTATION_NOT_YOURS",
    });
    expect(await patientPage.quietFor(150)).toEqual([]);
    expect(await doctorPage.quietFor(50)).toEqual([]);
    expect(await refusals(patient.user_id, outsider.user_id)).toHaveLength(1);

    expect(await stored()).toBe(storedBefore);
    await Promise.all([patientPage.close(), doctorPage.close(), outsiderPage.close()]);
  });

  it("writes a burst of refused signals about another patient's visit as one entry with a count in that patient's log", async () => {
    const patient = await registerPatient(t.app);
    const outsider = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);
    const outsiderPage = await openPage(outsider.access_token);
    for (let i = 0; i < 300; i += 1) {
      outsiderPage.send({ type: "visit.call.signal", consultation_id: id, signal: { kind: "hello" } });
    }
    // Past the socket's burst the frames are dropped: one RATE_LIMITED error says so.
    await expect
      .poll(() => outsiderPage.frames.some((f) => (f as { code?: string }).code === "RATE_LIMITED"))
      .toBe(true);
    const answered = () =>
      outsiderPage.frames.filter((f) => (f as { type?: string }).type === "visit.call.refused").length;
    // The socket's burst, less the `resume` the page began with.
    await expect.poll(answered).toBeGreaterThanOrEqual(LIVE_FRAME_BURST - 1);
    await outsiderPage.quietFor(300);
    const rows = await refusals(patient.user_id, outsider.user_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.count).toBe(answered());
    expect(answered()).toBeLessThan(300);
    await outsiderPage.close();
  });

  it("goes nowhere once the visit is over, and refuses a malformed frame", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor, { status: "completed", completedAt: clock.now() });
    const [patientPage, doctorPage] = await Promise.all([
      openPage(patient.access_token),
      openPage(doctor.access_token),
    ]);
    patientPage.send({ type: "visit.call.signal", consultation_id: id, signal: { kind: "hello" } });
    expect(await patientPage.next()).toMatchObject({
      type: "visit.call.refused",
      status: 409,
      code: "CALL_NOT_OPEN",
    });
    expect(await doctorPage.quietFor(150)).toEqual([]);
    patientPage.send({
      type: "visit.call.signal",
      consultation_id: id,
      signal: { kind: "description", description: { type: "offer", sdp: "x".repeat(13_000) } },
    });
    expect(await patientPage.next()).toEqual({
      type: "error",
      code: "INVALID_FRAME",
      frame_type: "visit.call.signal",
    });
    await Promise.all([patientPage.close(), doctorPage.close()]);
  });
});

describe("starting the call", () => {
  it("begins an accepted visit and rings the patient's waiting room; only the visit's clinician may", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const otherDoctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);
    const patientPage = await openPage(patient.access_token);
    const start = (token: string) =>
      t.app.inject({ method: "POST", url: `${CONSOLE_BASE}/${id}/call/start`, headers: bearer(token) });

    expect((await start(patient.access_token)).statusCode).toBe(403);
    expect((await start(otherDoctor.access_token)).statusCode).toBe(403);
    const started = await start(doctor.access_token);
    expect(started.statusCode).toBe(200);
    expect(started.json().data).toMatchObject({ id, status: "in_progress" });
    const topics = [
      (await patientPage.next()) as { topic: string; payload: object },
      (await patientPage.next()) as { topic: string; payload: object },
    ];
    expect(topics).toContainEqual(
      expect.objectContaining({
        topic: "visit.status",
        payload: { consultation_id: id, status: "in_progress" },
      }),
    );
    expect(topics).toContainEqual(
      expect.objectContaining({ topic: "visit.call.ring", payload: { consultation_id: id } }),
    );

    // Ringing again while in progress calls back a patient who dropped out.
    expect((await start(doctor.access_token)).statusCode).toBe(200);
    expect(await patientPage.next()).toMatchObject({ topic: "visit.call.ring" });
    await patientPage.close();

    const chat = await videoVisit(patient, doctor, { type: "chat" });
    const refused = await t.app.inject({
      method: "POST",
      url: `${CONSOLE_BASE}/${chat}/call/start`,
      headers: bearer(doctor.access_token),
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "VISIT_NOT_VIDEO" });
  });
});

describe("the call's history", () => {
  it("records joins, leaves and rejoins of both sides in the visit's history and the patient's access log", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const outsider = await registerPatient(t.app);
    const id = await videoVisit(patient, doctor);
    const before = clock.now().toISOString();

    const joined = await callEvent(patient.access_token, id, "join");
    expect(joined.statusCode).toBe(200);
    expect(joined.json().data).toEqual({ consultation_id: id, side: "patient", event: "join", at: before });
    clock.advance(1_000);
    expect((await callEvent(doctor.access_token, id, "join", CONSOLE_BASE)).statusCode).toBe(200);
    clock.advance(30_000);
    expect((await callEvent(patient.access_token, id, "reconnect")).statusCode).toBe(200);
    expect((await callEvent(outsider.access_token, id, "join")).statusCode).toBe(403);
    expect((await callEvent(patient.access_token, id, "dance")).statusCode).toBe(400);

    await completeVisit(id);
    const lateJoin = await callEvent(patient.access_token, id, "join");
    expect(lateJoin.statusCode).toBe(409);
    expect(lateJoin.json()).toMatchObject({ code: "CALL_NOT_OPEN" });
    clock.advance(1_000);
    expect((await callEvent(doctor.access_token, id, "leave", CONSOLE_BASE)).statusCode).toBe(200);

    expect(await callHistory(id)).toEqual([
      ["patient", "join"],
      ["clinician", "join"],
      ["patient", "reconnect"],
      ["clinician", "leave"],
    ]);

    const logged = await t.db.db
      .select({ action: auditLog.action, actorKind: auditLog.actorKind, resourceId: auditLog.resourceId })
      .from(auditLog)
      .where(and(eq(auditLog.userId, patient.user_id), sql`${auditLog.action} like 'call.%'`))
      .orderBy(auditLog.at, auditLog.id);
    expect(logged).toEqual([
      { action: "call.join", actorKind: "patient", resourceId: id },
      { action: "call.join", actorKind: "clinician", resourceId: id },
      { action: "call.reconnect", actorKind: "patient", resourceId: id },
      { action: "call.leave", actorKind: "clinician", resourceId: id },
    ]);
    // The patient's access log names the clinician who joined.
    const page = await t.app.inject({
      method: "GET",
      url: "/ambercare/audit-log",
      headers: bearer(patient.care.access_token),
    });
    expect(page.statusCode).toBe(200);
    const [provider] = await t.db.db.select().from(providers).where(eq(providers.id, doctor.providerId));
    expect(JSON.stringify(page.json())).toContain(provider!.lastName);
  });
});

describe("a page that went away while its live link was down", () => {
  it("has its going away told to the other side by the API, while the call is open", async () => {
    const patient = await registerPatient(t.app);
    const doctor = await registerClinician(t, clock.now());
    const id = await videoVisit(patient, doctor);
    const [patientPage, doctorPage] = await Promise.all([
      openPage(patient.access_token),
      openPage(doctor.access_token),
    ]);
    try {
      // A plain leave (the page told the other side itself, or hung up) is relayed to nobody.
      expect((await callEvent(patient.access_token, id, "leave")).statusCode).toBe(200);
      expect(await doctorPage.quietFor(300)).toEqual([]);

      // A leave with `away`: the clinician's pages hear it as the patient page's own signal.
      const patientAway = await callEvent(patient.access_token, id, "leave", PATIENT_BASE, { away: true });
      expect(patientAway.statusCode).toBe(200);
      expect(patientAway.json().data).toMatchObject({ side: "patient", event: "leave" });
      expect(await doctorPage.next()).toMatchObject({
        topic: "visit.call.signal",
        payload: { consultation_id: id, from: "patient", kind: "away" },
      });
      // The clinician's side, the other way round; the sender hears nothing of its own.
      expect(
        (await callEvent(doctor.access_token, id, "leave", CONSOLE_BASE, { away: true })).statusCode,
      ).toBe(200);
      expect(await patientPage.next()).toMatchObject({
        topic: "visit.call.signal",
        payload: { consultation_id: id, from: "clinician", kind: "away" },
      });
      expect(await doctorPage.quietFor(300)).toEqual([]);

      // `away` goes with a leave only.
      const joinAway = await callEvent(patient.access_token, id, "join", PATIENT_BASE, { away: true });
      expect(joinAway.statusCode).toBe(400);
      expect(joinAway.json()).toHaveProperty("error");

      // Once the visit is over there is no call to come back to: the leave is written, nothing told.
      await completeVisit(id);
      expect(
        (await callEvent(patient.access_token, id, "leave", PATIENT_BASE, { away: true })).statusCode,
      ).toBe(200);
      expect(await doctorPage.quietFor(300)).toEqual([]);
      expect(await callHistory(id)).toEqual([
        ["patient", "leave"],
        ["patient", "leave"],
        ["clinician", "leave"],
        ["patient", "leave"],
      ]);
    } finally {
      await Promise.all([patientPage.close(), doctorPage.close()]);
    }
  });
});

describe("splitting a description for the relay", () => {
  it("keeps every part's JSON under the relay's limit and loses nothing", () => {
    const text = `${"\u0001".repeat(900)}${"v=0\r\n".repeat(700)}`;
    const parts = splitForRelay(text);
    expect(parts.join("")).toBe(text);
    for (const part of parts) expect(JSON.stringify(part).length).toBeLessThanOrEqual(1500);
  });
});
