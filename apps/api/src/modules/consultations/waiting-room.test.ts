import { randomUUID } from "node:crypto";
import type { CreateConsultationRequest } from "@ambercare/contracts/consultation";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import {
  DEFAULT_MINUTES_PER_PLACE,
  VISIT_STATUS_TOPIC,
  waitingRoomResponse,
} from "@ambercare/contracts/waiting-room";
import { clinicians, liveEvents, providers } from "@ambercare/db/schema";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClinicianActor } from "#api/modules/consultations/visit-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  createTestEntitlements,
  parseMail,
  registerPatient,
  startSmtpServer,
  type TestApp,
} from "#api/test-support.ts";

/** A state only this file's requests use, so each line holds exactly the requests made here. */
const STATE = "VT";
const TIMEOUT_MINUTES = 30;
const clock = createManualClock(new Date("2026-08-03T09:00:00Z"));
const entitlements = createTestEntitlements();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
/** The demo clinician's provider: licensed in every state, chat and video. */
let casey: ClinicianActor;

type Patient = Awaited<ReturnType<typeof registerPatient>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    clock,
    entitlements,
    env: {
      RATE_LIMIT_MAX: "100000",
      SMTP_URL: smtp.url,
      WEB_URL: "http://web.test",
      SESSION_IDLE_MINUTES: "300",
      VISIT_ACCEPT_TIMEOUT: String(TIMEOUT_MINUTES),
    },
  });
  const [provider] = await t.db.db
    .select({ id: providers.id })
    .from(providers)
    .where(eq(providers.slug, DEMO_CLINICIAN.provider_slug));
  // The demo clinician's own account, so that the events meant for the provider's clinician reach it.
  const [account] = await t.db.db
    .select({ userId: clinicians.userId })
    .from(clinicians)
    .where(eq(clinicians.providerId, provider!.id));
  casey = { userId: account!.userId, providerId: provider!.id };
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function member(locale: "en" | "bg" = "en"): Promise<Patient> {
  const patient = await registerPatient(t.app, { locale });
  entitlements.grant(patient.user_id, { member: true });
  return patient;
}

async function requestVisit(patient: Patient, type: ConsultationType = "chat"): Promise<string> {
  const payload = {
    idempotency_key: randomUUID(),
    type,
    intake: {
      patient: "self",
      gender: "male",
      race: "Asian",
      ethnicity: "Not Hispanic or Latino",
      state: STATE,
      symptoms: ["Headache"],
      symptoms_started_on: "2026-08-01",
      recent_travel: false,
    },
    consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
  } as CreateConsultationRequest;
  const res = await t.app.inject({
    method: "POST",
    url: "/ambercare/create-consultation",
    headers: bearer(patient.access_token),
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  clock.advance(1000);
  return res.json().data.id;
}

async function waitingRoom(patient: Patient, id: string) {
  const res = await t.app.inject({
    method: "GET",
    url: `/ambercare/consultations/${id}/waiting-room`,
    headers: bearer(patient.access_token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return waitingRoomResponse.parse(res.json()).data;
}

const positionOf = async (patient: Patient, id: string) => (await waitingRoom(patient, id)).line;

/** The visit.status events a patient's pages were sent, oldest first. */
async function statusEvents(userId: string) {
  const rows = await t.db.db
    .select({ payload: liveEvents.payload })
    .from(liveEvents)
    .where(and(eq(liveEvents.userId, userId), eq(liveEvents.topic, VISIT_STATUS_TOPIC)))
    .orderBy(asc(liveEvents.id));
  return rows.map((row) => row.payload);
}

async function summaryMailsTo(email: string) {
  await t.app.mailer.drain();
  return smtp.received
    .filter((mail) => mail.to.includes(email))
    .map((mail) => parseMail(mail.raw))
    .filter((mail) => /summary|резюме/i.test(mail.headers.get("subject") ?? ""));
}

describe("GET /ambercare/consultations/:id/waiting-room", () => {
  it("gives each waiting request its place in its line (type and state) and a wait of the default minutes per place", async () => {
    const [ann, ben, cleo] = [await member(), await member(), await member()];
    const first = await requestVisit(ann);
    const second = await requestVisit(ben);
    const video = await requestVisit(cleo, "video");
    const third = await requestVisit(cleo);

    expect(await positionOf(ann, first)).toMatchObject({
      position: 1,
      estimated_wait_minutes: DEFAULT_MINUTES_PER_PLACE,
    });
    expect(await positionOf(ben, second)).toMatchObject({
      position: 2,
      estimated_wait_minutes: 2 * DEFAULT_MINUTES_PER_PLACE,
    });
    expect(await positionOf(cleo, third)).toMatchObject({
      position: 3,
      estimated_wait_minutes: 3 * DEFAULT_MINUTES_PER_PLACE,
    });
    // A video request waits in a line of its own.
    expect(await positionOf(cleo, video)).toMatchObject({ position: 1 });
    const room = await waitingRoom(ann, first);
    expect(room.consultation).toMatchObject({ id: first, status: "requested" });
    expect(room.clinician).toBeNull();
    expect(room.line?.expires_at).toBe(
      new Date(Date.parse(room.consultation.created_at) + TIMEOUT_MINUTES * 60_000).toISOString(),
    );

    // The first one is accepted after 2 minutes: everyone moves up, and a place now takes 2 minutes.
    clock.advance(2 * 60_000 - 4000);
    await t.app.visits.accept(casey, first);
    expect(await positionOf(ben, second)).toMatchObject({ position: 1, estimated_wait_minutes: 2 });
    expect(await positionOf(cleo, third)).toMatchObject({ position: 2, estimated_wait_minutes: 4 });
    // A canceled request leaves the line.
    await t.app.inject({
      method: "POST",
      url: `/ambercare/consultations/${second}/cancel`,
      headers: bearer(ben.access_token),
    });
    expect(await positionOf(cleo, third)).toMatchObject({ position: 1, estimated_wait_minutes: 2 });

    // The estimate never promises a wait beyond the request's expiry.
    clock.advance((TIMEOUT_MINUTES - 3) * 60_000);
    const late = await positionOf(cleo, video);
    expect(late?.estimated_wait_minutes).toBeLessThanOrEqual(3);
    expect(late?.estimated_wait_minutes).toBeGreaterThanOrEqual(1);

    await t.app.visits.cancelByClinician(casey, third, "Test over");
    await t.app.visits.cancelByClinician(casey, video, "Test over");
    await t.app.visits.cancelByClinician(casey, first, "Test over");
  });

  it("shows who accepted the visit, and no line once it is no longer waiting", async () => {
    const patient = await member();
    const id = await requestVisit(patient);
    await t.app.visits.accept(casey, id);
    const room = await waitingRoom(patient, id);
    expect(room.line).toBeNull();
    expect(room.consultation.status).toBe("accepted");
    expect(room.clinician).toEqual({
      first_name: DEMO_CLINICIAN.first_name,
      last_name: DEMO_CLINICIAN.last_name,
      credentials: "MD",
      photo: null,
    });
    await t.app.visits.cancelByClinician(casey, id, "Test over");
  });

  it("refuses another patient's visit (403), an unknown one (404), a bad id (400) and no token (401)", async () => {
    const owner = await member();
    const other = await member();
    const id = await requestVisit(owner);
    const get = (token: string | null, visit: string) =>
      t.app.inject({
        method: "GET",
        url: `/ambercare/consultations/${visit}/waiting-room`,
        headers: token ? bearer(token) : {},
      });
    const foreign = await get(other.access_token, id);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: "CONSULTATION_NOT_YOURS" });
    expect(foreign.body).not.toContain(STATE);
    expect((await get(other.access_token, randomUUID())).statusCode).toBe(404);
    expect((await get(other.access_token, "not-a-uuid")).statusCode).toBe(400);
    expect((await get(null, id)).statusCode).toBe(401);
    await t.app.visits.cancelByClinician(casey, id, "Test over");
  });
});

describe("a visit's status changes reach the patient's pages", () => {
  it("publishes every change to the patient, and to the clinician once they accepted, in the change's transaction", async () => {
    const patient = await member();
    const id = await requestVisit(patient);
    await t.app.visits.accept(casey, id);
    await t.app.visits.start(casey, id);
    // A refused change publishes nothing.
    await expect(t.app.visits.start(casey, id)).rejects.toMatchObject({ status: 409 });
    await t.app.visits.complete(casey, id, "Fluids and rest.");
    expect(await statusEvents(patient.user_id)).toEqual([
      { consultation_id: id, status: "accepted" },
      { consultation_id: id, status: "in_progress" },
      { consultation_id: id, status: "completed" },
    ]);
    // The clinician's workspace hears of the changes from the accept on (their other tabs, and a
    // patient's cancel below).
    const caseyEventsOf = async (visitId: string) =>
      (await statusEvents(casey.userId)).filter(
        (event) => (event as { consultation_id: string }).consultation_id === visitId,
      );
    expect(await caseyEventsOf(id)).toEqual([
      { consultation_id: id, status: "accepted" },
      { consultation_id: id, status: "in_progress" },
      { consultation_id: id, status: "completed" },
    ]);

    const canceling = await member();
    const canceled = await requestVisit(canceling);
    const res = await t.app.inject({
      method: "POST",
      url: `/ambercare/consultations/${canceled}/cancel`,
      headers: bearer(canceling.access_token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const expiring = await requestVisit(canceling);
    clock.advance(TIMEOUT_MINUTES * 60_000);
    await t.app.visits.runDue();
    expect(await statusEvents(canceling.user_id)).toEqual([
      { consultation_id: canceled, status: "canceled" },
      { consultation_id: expiring, status: "expired" },
    ]);
    // Requests nobody accepted never reached a clinician's workspace.
    expect(await caseyEventsOf(canceled)).toEqual([]);
    expect(await caseyEventsOf(expiring)).toEqual([]);

    // The patient cancels a visit the clinician has accepted: the clinician's workspace hears it.
    const accepted = await requestVisit(canceling);
    await t.app.visits.accept(casey, accepted);
    const cancel = await t.app.inject({
      method: "POST",
      url: `/ambercare/consultations/${accepted}/cancel`,
      headers: bearer(canceling.access_token),
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await caseyEventsOf(accepted)).toEqual([
      { consultation_id: accepted, status: "accepted" },
      { consultation_id: accepted, status: "canceled" },
    ]);
  });
});

describe("the summary-ready e-mail", () => {
  it("is sent once when the visit completes, in the patient's language, text and HTML, without the summary", async () => {
    for (const locale of ["en", "bg"] as const) {
      const patient = await member(locale);
      const id = await requestVisit(patient);
      await t.app.visits.accept(casey, id);
      await t.app.visits.start(casey, id);
      expect(await summaryMailsTo(patient.email)).toEqual([]);
      await t.app.visits.complete(casey, id, "Secret-ish advice: drink water.");
      await expect(t.app.visits.complete(casey, id, "Again")).rejects.toMatchObject({ status: 409 });
      const mails = await summaryMailsTo(patient.email);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      const link = `http://web.test/my-profile/consultations/${id}`;
      expect(mail!.headers.get("subject")).toBe(
        locale === "en"
          ? "Your visit summary is ready — Ambercare"
          : "Резюмето от прегледа Ви е готово — Ambercare",
      );
      expect(mail!.text).toContain(link);
      expect(mail!.html).toContain(`href="${link}"`);
      expect(mail!.html).toContain(`lang="${locale}"`);
      expect(`${mail!.text}${mail!.html}`).not.toContain("drink water");
    }
  });
});

describe("rating the provider after the visit", () => {
  it("changes the provider's rating in find-a-doctor", async () => {
    const directory = async () => {
      const res = await t.app.inject({
        method: "GET",
        url: `/api/v1/api/provider?q=${DEMO_CLINICIAN.last_name}&state=${STATE}&per_page=50`,
      });
      expect(res.statusCode, res.body).toBe(200);
      const entry = res.json().data.find((p: { slug: string }) => p.slug === DEMO_CLINICIAN.provider_slug);
      return entry.rating as { average: number; count: number };
    };
    const before = await directory();
    const patient = await member();
    const id = await requestVisit(patient);
    await t.app.visits.accept(casey, id);
    await t.app.visits.start(casey, id);
    await t.app.visits.complete(casey, id, "All good.");
    const room = await waitingRoom(patient, id);
    expect(room.consultation).toMatchObject({
      status: "completed",
      rated: false,
      visit_summary: "All good.",
    });
    const rated = await t.app.inject({
      method: "POST",
      url: "/ambercare/submit-rating",
      headers: bearer(patient.access_token),
      payload: { user_id: patient.user_id, consultation_id: id, stars: 1, comment: null },
    });
    expect(rated.statusCode, rated.body).toBe(201);
    expect((await waitingRoom(patient, id)).consultation.rated).toBe(true);
    const after = await directory();
    expect(after.count).toBe(before.count + 1);
    expect(after.average).not.toBe(before.average);
  });
});
