import type { AddressInfo } from "node:net";
import { QUEUE_TOPIC } from "@ambercare/contracts/console";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { BOARD_TOPIC, boardResponse } from "@ambercare/contracts/operations-board";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import { clinicians, consultations, providers } from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLiveClient } from "#api/modules/live/live-test-client.ts";
import { operationsTestApp } from "#api/modules/operations/operations-test-support.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, registerClinician, registerPatient, type TestApp } from "#api/test-support.ts";

const BOARD = "/api/v1/api/operations/board";
const clock = createManualClock(new Date("2031-06-10T10:00:00Z"));
let t: TestApp;
let operator: { user_id: string; access_token: string };
let get: Awaited<ReturnType<typeof operationsTestApp>>["get"];
let patientId: string;
/** The clinician on duty, whose provider has the visits under way and booked. */
let clinician: Awaited<ReturnType<typeof registerClinician>>;
const ids: Record<string, string> = {};

const at = (iso: string) => new Date(iso);

async function visit(name: string, values: Partial<typeof consultations.$inferInsert>) {
  const [row] = await t.db.db
    .insert(consultations)
    .values({ userId: patientId, type: "chat", state: "TX", ...values })
    .returning({ id: consultations.id });
  ids[name] = row!.id;
}

/** A visit booked on 1 June for `start` with the clinician's provider. */
const booked = (name: string, start: string, values: Partial<typeof consultations.$inferInsert> = {}) =>
  visit(name, {
    createdAt: at("2031-06-01T12:00:00Z"),
    status: "scheduled",
    providerId: clinician.providerId,
    scheduledStart: at(start),
    ...values,
  });

async function board(token = operator.access_token) {
  const res = await get(BOARD, token);
  expect(res.statusCode, res.body).toBe(200);
  return boardResponse.parse(res.json()).data;
}

beforeAll(async () => {
  let patient: { user_id: string };
  ({ t, operator, patient, get } = await operationsTestApp(clock));
  patientId = patient.user_id;
  clinician = await registerClinician(t, clock.now());
  // The demo data's clinicians are off duty: only this one is on.
  await t.db.db.update(clinicians).set({ onDutySince: null });
  await t.db.db
    .update(clinicians)
    .set({ onDutySince: at("2031-06-10T08:00:00Z") })
    .where(eq(clinicians.userId, clinician.user_id));
  const providerId = clinician.providerId;
  // Waiting for 15 minutes (an alert) and for 5 (not yet).
  await visit("waitingLong", { createdAt: at("2031-06-10T09:45:00Z") });
  await visit("waitingShort", { createdAt: at("2031-06-10T09:55:00Z"), type: "video" });
  // Under way: one accepted, one started.
  await visit("accepted", {
    createdAt: at("2031-06-10T09:20:00Z"),
    status: "accepted",
    providerId,
    acceptedAt: at("2031-06-10T09:30:00Z"),
  });
  await visit("started", {
    createdAt: at("2031-06-10T09:00:00Z"),
    status: "in_progress",
    providerId,
    acceptedAt: at("2031-06-10T09:01:00Z"),
    startedAt: at("2031-06-10T09:02:00Z"),
  });
  // Booked today: 09:50 not started (10 minutes late, the patient checked in), 11:00 later on,
  // 08:00 started; a canceled one and yesterday's are not today's board.
  await booked("late", "2031-06-10T09:50:00Z", { checkedInAt: at("2031-06-10T09:45:00Z") });
  await booked("later", "2031-06-10T11:00:00Z");
  await booked("bookedStarted", "2031-06-10T08:00:00Z", {
    status: "in_progress",
    checkedInAt: at("2031-06-10T07:58:00Z"),
    acceptedAt: at("2031-06-01T12:00:00Z"),
    startedAt: at("2031-06-10T08:01:00Z"),
  });
  await booked("canceled", "2031-06-10T12:00:00Z", {
    status: "canceled",
    canceledAt: at("2031-06-09T12:00:00Z"),
  });
  await booked("yesterday", "2031-06-09T12:00:00Z");
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("today's board", () => {
  it("shows what waits and for how long, what is under way, today's booked visits and who is on duty", async () => {
    const data = await board();
    expect(data).toMatchObject({
      now: "2031-06-10T10:00:00.000Z",
      day: "2031-06-10",
      settings: { waiting_alert_minutes: 10, late_alert_minutes: 5 },
    });
    expect(data.waiting.map((visit) => [visit.id, visit.type, visit.waiting_seconds])).toEqual([
      [ids.waitingLong, "chat", 900],
      [ids.waitingShort, "video", 300],
    ]);
    expect(data.in_progress.map((visit) => visit.id).sort()).toEqual(
      [ids.accepted, ids.started, ids.bookedStarted].sort(),
    );
    expect(data.booked_today.map((visit) => [visit.id, visit.status, visit.checked_in_at])).toEqual([
      [ids.bookedStarted, "in_progress", "2031-06-10T07:58:00.000Z"],
      [ids.late, "scheduled", "2031-06-10T09:45:00.000Z"],
      [ids.later, "scheduled", null],
    ]);
    const [provider] = await t.db.db
      .select({ name: sql<string>`${providers.firstName} || ' ' || ${providers.lastName}` })
      .from(providers)
      .where(eq(providers.id, clinician.providerId));
    expect(data.on_duty).toEqual([
      {
        user_id: clinician.user_id,
        email: clinician.email,
        provider_name: expect.stringContaining(provider!.name),
        on_duty_since: "2031-06-10T08:00:00.000Z",
      },
    ]);
    // No intake, no patient: the board names visits by id only.
    expect(JSON.stringify(data)).not.toContain(patientId);
  });

  it("raises an alert for a patient waiting past the threshold and a clinician late for a booked visit, on the API's clock", async () => {
    const data = await board();
    expect(data.alerts).toEqual([
      { kind: "patient_waiting", consultation_id: ids.waitingLong, minutes: 15 },
      {
        kind: "clinician_late",
        consultation_id: ids.late,
        provider_name: expect.any(String),
        minutes: 10,
        checked_in: true,
      },
    ]);
    // Five minutes on, the second request has waited 10 minutes too; at 11:05 the next visit is late.
    clock.advance(5 * 60_000);
    const later = await board();
    expect(later.alerts.filter((alert) => alert.kind === "patient_waiting")).toEqual([
      { kind: "patient_waiting", consultation_id: ids.waitingLong, minutes: 20 },
      { kind: "patient_waiting", consultation_id: ids.waitingShort, minutes: 10 },
    ]);
    clock.set(new Date("2031-06-10T11:05:00Z"));
    const lateAgain = await board();
    expect(
      lateAgain.alerts
        .filter((alert) => alert.kind === "clinician_late")
        .map((alert) => alert.consultation_id),
    ).toEqual([ids.late, ids.later]);
    clock.set(new Date("2031-06-10T10:00:00Z"));
  });

  it("refuses patients and clinicians with 403 OPERATOR_ONLY", async () => {
    const patient = await registerPatient(t.app);
    for (const token of [patient.access_token, clinician.access_token]) {
      const res = await t.app.inject({ method: "GET", url: BOARD, headers: bearer(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: ROLE_ERRORS.operatorOnly, code: "OPERATOR_ONLY" });
    }
    expect((await t.app.inject({ method: "GET", url: BOARD })).statusCode).toBe(401);
  });

  it("tells an operator's open board to read itself again when the queue changes, and a clinician nothing more", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1${LIVE_API_PATH}`;
    const open = async (token: string) => {
      const client = await openLiveClient(url, bearer(token));
      client.send({ type: "resume", after: null });
      expect(await client.next()).toMatchObject({ type: "resumed" });
      return client;
    };
    const operatorSocket = await open(operator.access_token);
    const clinicianSocket = await open(clinician.access_token);
    await t.app.live.publish([clinician.user_id], QUEUE_TOPIC, { consultation_id: ids.waitingLong });
    expect(await operatorSocket.next()).toMatchObject({
      topic: BOARD_TOPIC,
      payload: { after: QUEUE_TOPIC },
    });
    expect(await clinicianSocket.next()).toMatchObject({ topic: QUEUE_TOPIC });
    expect(await clinicianSocket.quietFor(200)).toEqual([]);
    // A topic that changes no visit (typing) leaves the board alone.
    await t.app.live.publish([clinician.user_id], "visit.typing", {});
    expect(await operatorSocket.quietFor(200)).toEqual([]);
    await Promise.all([operatorSocket.close(), clinicianSocket.close()]);
  });
});
