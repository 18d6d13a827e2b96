import type { AddressInfo } from "node:net";
import { QUEUE_TOPIC } from "@ambercare/contracts/console";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { BOARD_TOPIC, boardResponse } from "@ambercare/contracts/operations-board";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import { auditLog, clinicians, consultations, providers } from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLiveClient } from "#api/modules/live/live-test-client.ts";
import { BOARD_DUTY_CHANGE } from "#api/modules/operations/board-service.ts";
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

  it("tells an operator's open board to read itself again when a clinician goes off or on duty", async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: "127.0.0.1" });
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1${LIVE_API_PATH}`;
    const socket = await openLiveClient(url, bearer(operator.access_token));
    socket.send({ type: "resume", after: null });
    expect(await socket.next()).toMatchObject({ type: "resumed" });
    const duty = (onDuty: boolean) =>
      t.app.inject({
        method: "PUT",
        url: "/api/v1/api/care-team/duty",
        headers: bearer(clinician.access_token),
        payload: { on_duty: onDuty },
      });

    expect((await duty(false)).statusCode).toBe(200);
    expect(await socket.next()).toMatchObject({ topic: BOARD_TOPIC, payload: { after: BOARD_DUTY_CHANGE } });
    expect((await board()).on_duty).toEqual([]);

    expect((await duty(true)).statusCode).toBe(200);
    expect(await socket.next()).toMatchObject({ topic: BOARD_TOPIC, payload: { after: BOARD_DUTY_CHANGE } });
    expect((await board()).on_duty.map((one) => one.on_duty_since)).toEqual([clock.now().toISOString()]);
    await socket.close();
  });
});

describe("unusual-access flags", () => {
  /** `count` entries (one row: a coalesced burst) of `actor` in `patient`'s records at `iso`. */
  const read = (actor: string, patient: string, iso: string, count = 1) =>
    t.db.db.insert(auditLog).values({
      userId: patient,
      actorUserId: actor,
      actorKind: "clinician",
      action: "profile.read",
      resourceType: "profile",
      at: at(iso),
      count,
    });
  /** A clinician with a visit of `patient` (so reading that patient's records is expected). */
  async function clinicianOf(patient: string) {
    const account = await registerClinician(t, clock.now());
    await t.db.db.insert(consultations).values({
      userId: patient,
      type: "chat",
      state: "TX",
      status: "accepted",
      providerId: account.providerId,
      createdAt: at("2031-05-01T12:00:00Z"),
      acceptedAt: at("2031-05-01T12:01:00Z"),
    });
    return account;
  }
  /** One row of `count` entries on each of the 30 days before today. */
  async function usualDays(actor: string, patient: string, count: number) {
    for (let day = 1; day <= 30; day++) {
      await read(
        actor,
        patient,
        new Date(Date.parse("2031-06-10T12:00:00Z") - day * 86_400_000).toISOString(),
        count,
      );
    }
  }
  const flag = (
    kind: "no_visit" | "many_reads",
    account: { user_id: string; email: string },
    figures: { reads_today: number; patients: number | null; daily_median: number | null },
  ) => ({ kind, actor_user_id: account.user_id, actor_email: account.email, ...figures });
  const flagsOf = async (actor: string) =>
    (await board()).flags.filter((flag) => flag.actor_user_id === actor);

  it("flags a clinician who reads the records of a patient they have no visit with, today only", async () => {
    const stranger = (await registerPatient(t.app)).user_id;
    await read(clinician.user_id, patientId, "2031-06-10T08:00:00Z");
    await read(clinician.user_id, patientId, "2031-06-10T08:05:00Z");
    expect(await flagsOf(clinician.user_id)).toEqual([]);
    // Yesterday's read of the stranger is not today's.
    await read(clinician.user_id, stranger, "2031-06-09T23:59:59Z");
    expect(await flagsOf(clinician.user_id)).toEqual([]);
    await read(clinician.user_id, stranger, "2031-06-10T09:00:00Z");
    await read(clinician.user_id, stranger, "2031-06-10T09:01:00Z", 4);
    expect(await flagsOf(clinician.user_id)).toEqual([
      flag("no_visit", clinician, { reads_today: 5, patients: 1, daily_median: null }),
    ]);
  });

  it("flags reads far above a clinician's usual day: over 3 times the 30-day median and over the floor", async () => {
    const busy = await clinicianOf(patientId);
    await usualDays(busy.user_id, patientId, 5);
    // 16 is above 3 × 5 but not above the floor of 20.
    await read(busy.user_id, patientId, "2031-06-10T08:00:00Z", 16);
    expect(await flagsOf(busy.user_id)).toEqual([]);
    await read(busy.user_id, patientId, "2031-06-10T09:00:00Z", 9);
    expect(await flagsOf(busy.user_id)).toEqual([
      flag("many_reads", busy, { reads_today: 25, patients: null, daily_median: 5 }),
    ]);
    // 25 is above the floor but not above 3 × 10: a clinician who reads a lot every day is not flagged.
    const steady = await clinicianOf(patientId);
    await usualDays(steady.user_id, patientId, 10);
    await read(steady.user_id, patientId, "2031-06-10T08:00:00Z", 25);
    expect(await flagsOf(steady.user_id)).toEqual([]);
    // A new clinician's usual day is 0: above the floor is unusual.
    const fresh = await clinicianOf(patientId);
    await read(fresh.user_id, patientId, "2031-06-10T08:00:00Z", 21);
    expect((await flagsOf(fresh.user_id)).map((flag) => [flag.kind, flag.daily_median])).toEqual([
      ["many_reads", 0],
    ]);
  });
});
