import { randomUUID } from "node:crypto";
import type { CreateConsultationRequest } from "@ambercare/contracts/consultation";
import { CHOSEN_PROVIDER_MINUTES } from "@ambercare/contracts/consultation-limits";
import { invoicesResponse } from "@ambercare/contracts/membership";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { clinicians, consultations, invoices, providerLicenses, providers } from "@ambercare/db/schema";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClinicianActor } from "#api/modules/consultations/visit-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  offerEveryVisitType,
  parseMail,
  registerPatient,
  startSmtpServer,
  type TestApp,
} from "#api/test-support.ts";

const STATE = "TX";
const clock = createManualClock(new Date("2026-06-01T12:00:00Z"));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
/** Licensed in STATE, chat and video. */
let first: ClinicianActor & { slug: string };
let second: ClinicianActor & { slug: string };
/** Licensed in STATE, chat only. */
let chatOnly: ClinicianActor;
/** Offers both, not licensed in STATE. */
let elsewhere: ClinicianActor;

type Patient = Awaited<ReturnType<typeof registerPatient>>;

const post = (token: string, url: string, payload: object = {}) =>
  t.app.inject({ method: "POST", url, headers: bearer(token), payload });

/**
 * Clinician accounts come with the care team; here the actor's user is a registered account linked
 * to the provider (a provider without a clinician account takes no request).
 */
async function clinician(providerId: string): Promise<ClinicianActor> {
  const userId = (await registerPatient(t.app)).user_id;
  await t.db.db.insert(clinicians).values({ userId, providerId }).onConflictDoNothing();
  return { userId, providerId };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    clock,
    // Patients stay signed in across the clock jumps of the expiry tests.
    env: {
      RATE_LIMIT_MAX: "100000",
      SMTP_URL: smtp.url,
      WEB_URL: "http://web.test",
      SESSION_IDLE_MINUTES: "300",
    },
  });
  const licensed = await t.db.db
    .select({ id: providers.id, slug: providers.slug })
    .from(providers)
    .innerJoin(providerLicenses, eq(providerLicenses.providerId, providers.id))
    .where(eq(providerLicenses.state, STATE))
    .orderBy(providers.slug)
    .limit(3);
  const [notLicensed] = await t.db.db
    .select({ id: providers.id })
    .from(providers)
    .where(
      sql`not exists (select 1 from ${providerLicenses} where ${providerLicenses.providerId} = ${providers.id} and ${providerLicenses.state} = ${STATE})`,
    )
    .limit(1);
  expect(licensed).toHaveLength(3);
  expect(notLicensed).toBeDefined();
  const ids = [...licensed.map((p) => p.id), notLicensed!.id];
  await offerEveryVisitType(t.db.db, ...ids);
  await t.db.db
    .update(providers)
    .set({ visitTypes: ["chat"] })
    .where(eq(providers.id, licensed[2]!.id));
  // No other provider may take the test's requests: the queues below then hold only them.
  await t.db.db
    .delete(providerLicenses)
    .where(
      and(
        eq(providerLicenses.state, STATE),
        ne(providerLicenses.providerId, licensed[0]!.id),
        ne(providerLicenses.providerId, licensed[1]!.id),
        ne(providerLicenses.providerId, licensed[2]!.id),
      ),
    );
  first = { ...(await clinician(licensed[0]!.id)), slug: licensed[0]!.slug };
  second = { ...(await clinician(licensed[1]!.id)), slug: licensed[1]!.slug };
  chatOnly = await clinician(licensed[2]!.id);
  elsewhere = await clinician(notLicensed!.id);
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function request(type: ConsultationType, providerSlug?: string): CreateConsultationRequest {
  return {
    idempotency_key: randomUUID(),
    type,
    ...(providerSlug ? { provider_slug: providerSlug } : {}),
    intake: {
      patient: "self",
      gender: "female",
      race: "White",
      ethnicity: "Not Hispanic or Latino",
      state: STATE,
      symptoms: ["Cough"],
      symptoms_started_on: "2026-05-30",
      recent_travel: false,
    },
    consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
  } as CreateConsultationRequest;
}

const card = {
  card_number: "4242 4242 4242 4242",
  exp_month: "12",
  exp_year: "2040",
  cvc: "123",
  name: "Pat",
};

async function pay(patient: Patient, url: string, payload: object) {
  const order = await post(patient.access_token, url, { user_id: patient.user_id, ...payload });
  expect(order.statusCode, order.body).toBe(200);
  const id = String(order.json().data.checkout_url).split("/").pop();
  const paid = await post(patient.access_token, `/ambercare/checkout/${id}/pay`, card);
  expect(paid.statusCode, paid.body).toBe(200);
}

async function member(locale: "en" | "bg" = "en"): Promise<Patient> {
  const patient = await registerPatient(t.app, { locale });
  await pay(patient, "/ambercare/subscription-checkout", { interval: "month" });
  return patient;
}

async function requestVisit(
  patient: Patient,
  type: ConsultationType,
  providerSlug?: string,
): Promise<string> {
  const res = await post(patient.access_token, "/ambercare/create-consultation", request(type, providerSlug));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

const queueIds = async (actor: ClinicianActor) =>
  (await t.app.visits.queueFor(actor.providerId)).map((v) => v.id);

/** The visit e-mails a patient received (not the welcome message of their registration), oldest first. */
async function mailsTo(email: string) {
  await t.app.mailer.drain();
  return smtp.received
    .filter((mail) => mail.to.includes(email))
    .map((mail) => parseMail(mail.raw))
    .filter((mail) => /consultation|консултация/.test(mail.headers.get("subject") ?? ""));
}

describe("a clinician's queue", () => {
  it("lists requests licensed in the state and of a type offered, oldest first", async () => {
    const patient = await member();
    const chat = await requestVisit(patient, "chat");
    clock.advance(1000);
    const video = await requestVisit(patient, "video");
    expect(await queueIds(first)).toEqual([chat, video]);
    expect(await queueIds(chatOnly)).toEqual([chat]);
    expect(await queueIds(elsewhere)).toEqual([]);
    await expect(t.app.visits.accept(elsewhere, chat)).rejects.toMatchObject({
      status: 403,
      code: "CONSULTATION_NOT_IN_QUEUE",
    });
    await expect(t.app.visits.accept(chatOnly, video)).rejects.toMatchObject({
      status: 403,
      code: "CONSULTATION_NOT_IN_QUEUE",
    });
    // Leave the queues empty for the next test.
    await t.app.visits.cancelByClinician(first, chat, "Test over");
    await t.app.visits.cancelByClinician(first, video, "Test over");
  });

  it(`gives a request that chose a provider to that provider alone for ${CHOSEN_PROVIDER_MINUTES} minutes`, async () => {
    const patient = await member();
    const chosen = await requestVisit(patient, "chat", first.slug);
    expect(await t.app.visits.queueFor(first.providerId)).toEqual([
      expect.objectContaining({ id: chosen, chosen: true, state: STATE, type: "chat" }),
    ]);
    expect(await queueIds(second)).toEqual([]);
    await expect(t.app.visits.accept(second, chosen)).rejects.toMatchObject({
      code: "CONSULTATION_NOT_IN_QUEUE",
    });
    clock.advance(CHOSEN_PROVIDER_MINUTES * 60_000 - 1000);
    expect(await queueIds(second)).toEqual([]);
    clock.advance(1000);
    expect(await t.app.visits.queueFor(second.providerId)).toEqual([
      expect.objectContaining({ id: chosen, chosen: false }),
    ]);
    const accepted = await t.app.visits.accept(second, chosen);
    expect(accepted).toMatchObject({ status: "accepted", provider: { id: second.providerId } });
    expect(await queueIds(first)).toEqual([]);
    await t.app.visits.cancelByClinician(second, chosen, "Test over");
  });
});

describe("accepting, starting and completing", () => {
  it("lets exactly one of two concurrent accepts win; the other is told it is taken", async () => {
    const patient = await member();
    const id = await requestVisit(patient, "video");
    const results = await Promise.allSettled([
      t.app.visits.accept(first, id),
      t.app.visits.accept(second, id),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({
      status: 409,
      code: "CONSULTATION_ALREADY_TAKEN",
    });
    const winner = results[0]!.status === "fulfilled" ? first : second;
    const [row] = await t.db.db.select().from(consultations).where(eq(consultations.id, id));
    expect(row).toMatchObject({ status: "accepted", providerId: winner.providerId, acceptedAt: clock.now() });
    const history = await t.app.visits.history(id);
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.actorKind, h.actorUserId])).toEqual([
      [null, "requested", "patient", patient.user_id],
      ["requested", "accepted", "clinician", winner.userId],
    ]);
    // Once taken, it is taken: a later accept gets the same answer.
    await expect(t.app.visits.accept(winner === first ? second : first, id)).rejects.toMatchObject({
      code: "CONSULTATION_ALREADY_TAKEN",
    });
  });

  it("runs accept → start → complete for the visit's own clinician only, with the summary", async () => {
    const patient = await member();
    const id = await requestVisit(patient, "chat");
    await t.app.visits.accept(first, id);
    await expect(t.app.visits.start(second, id)).rejects.toMatchObject({
      status: 403,
      code: "CONSULTATION_OTHER_CLINICIAN",
    });
    await expect(t.app.visits.complete(first, id, "Too early")).rejects.toMatchObject({
      status: 409,
      code: "CONSULTATION_TRANSITION_REFUSED",
    });
    clock.advance(60_000);
    expect(await t.app.visits.start(first, id)).toMatchObject({
      status: "in_progress",
      started_at: clock.now().toISOString(),
    });
    // The patient may no longer cancel, and neither may the clinician.
    const cancel = await post(patient.access_token, `/ambercare/consultations/${id}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ code: "CONSULTATION_NOT_CANCELABLE" });
    await expect(t.app.visits.cancelByClinician(first, id, "Changed my mind")).rejects.toMatchObject({
      status: 409,
    });
    await expect(t.app.visits.complete(first, id, "  ")).rejects.toMatchObject({ status: 400 });
    clock.advance(60_000);
    const done = await t.app.visits.complete(first, id, "Rest and fluids; see a doctor if the fever lasts.");
    expect(done).toMatchObject({
      status: "completed",
      visit_summary: "Rest and fluids; see a doctor if the fever lasts.",
      completed_at: clock.now().toISOString(),
    });
    expect((await t.app.visits.history(id)).map((h) => h.toStatus)).toEqual([
      "requested",
      "accepted",
      "in_progress",
      "completed",
    ]);
  });

  it("tells the patient's page until when a completed visit takes follow-up questions", async () => {
    const patient = await member();
    const id = await requestVisit(patient, "chat");
    const room = async () =>
      (
        await t.app.inject({
          method: "GET",
          url: `/ambercare/consultations/${id}/waiting-room`,
          headers: bearer(patient.access_token),
        })
      ).json().data;
    expect((await room()).follow_up_until).toBeNull();
    await t.app.visits.accept(first, id);
    await t.app.visits.start(first, id);
    await t.app.visits.complete(first, id, "Rest and fluids.");
    const completed = Date.parse((await room()).consultation.completed_at);
    expect(Date.parse((await room()).follow_up_until) - completed).toBe(
      t.app.config.VISIT_FOLLOW_UP_DAYS * 24 * 60 * 60 * 1000,
    );
  });

  it("lets the patient cancel an accepted visit, written to the history as theirs", async () => {
    const patient = await member();
    const id = await requestVisit(patient, "chat");
    await t.app.visits.accept(first, id);
    const cancel = await post(patient.access_token, `/ambercare/consultations/${id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data.status).toBe("canceled");
    expect((await t.app.visits.history(id)).at(-1)).toMatchObject({
      fromStatus: "accepted",
      toStatus: "canceled",
      actorKind: "patient",
      actorUserId: patient.user_id,
    });
  });

  it("needs a reason to cancel for the clinician, and keeps it", async () => {
    const patient = await member();
    const id = await requestVisit(patient, "chat");
    await expect(t.app.visits.cancelByClinician(first, id, " ")).rejects.toMatchObject({
      status: 400,
      code: "CANCEL_REASON_REQUIRED",
    });
    await t.app.visits.accept(first, id);
    await expect(t.app.visits.cancelByClinician(second, id, "Not mine")).rejects.toMatchObject({
      status: 403,
      code: "CONSULTATION_OTHER_CLINICIAN",
    });
    expect(await t.app.visits.cancelByClinician(first, id, "Out sick today")).toMatchObject({
      status: "canceled",
    });
    expect((await t.app.visits.history(id)).at(-1)).toMatchObject({
      fromStatus: "accepted",
      toStatus: "canceled",
      actorKind: "clinician",
      actorUserId: first.userId,
      reason: "Out sick today",
    });
  });
});

describe("expiry and refunds", () => {
  it("expires unaccepted requests after the timeout, refunds a bought visit once, and writes in the patient's language", async () => {
    // Everything earlier is settled: only this test's visits are left to expire.
    await t.app.visits.runDue();
    const buyer = await registerPatient(t.app, { locale: "bg" });
    await pay(buyer, "/ambercare/visit-checkout", { plan: "ppv_chat" });
    const bought = await requestVisit(buyer, "chat");
    clock.advance(1000);
    const covered = await member("en");
    const included = await requestVisit(covered, "video");

    const advance = async (seconds: number) => {
      const res = await t.app.inject({ method: "POST", url: "/dev/clock/advance", payload: { seconds } });
      expect(res.statusCode, res.body).toBe(200);
    };
    await advance(29 * 60 - 1);
    expect(await queueIds(first)).toEqual([bought, included]);
    await advance(61);
    expect(await queueIds(first)).toEqual([]);
    const rows = await t.db.db
      .select()
      .from(consultations)
      .where(inArray(consultations.id, [bought, included]));
    expect(rows.map((row) => [row.status, row.settlementPending])).toEqual([
      ["expired", false],
      ["expired", false],
    ]);
    expect((await t.app.visits.history(bought)).at(-1)).toMatchObject({
      fromStatus: "requested",
      toStatus: "expired",
      actorKind: "system",
      actorUserId: null,
    });

    const billing = async () => {
      const res = await t.app.inject({
        method: "GET",
        url: "/ambercare/invoices",
        headers: bearer(buyer.access_token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return invoicesResponse.parse(res.json()).data;
    };
    const [invoice] = await billing();
    expect(invoice).toMatchObject({
      plan: "ppv_chat",
      status: "paid",
      refunded_at: clock.now().toISOString(),
      refunded_amount_cents: invoice!.amount_cents,
    });
    // An automatic refund has no operator's refund row: it is the invoice's one refund line.
    expect(invoice!.refunds).toEqual([
      { at: clock.now().toISOString(), amount_cents: invoice!.amount_cents },
    ]);
    const [stored] = await t.db.db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(stored!.providerRefundId).toMatch(/^demo_re_/);

    // The job runs again (every minute, and with each clock move): nothing is refunded twice.
    await advance(60);
    expect(await t.app.visits.runDue()).toEqual({ expired: 0, settled: 0 });
    expect(await billing()).toEqual([invoice]);

    const toBuyer = await mailsTo(buyer.email);
    expect(toBuyer.map((mail) => mail.headers.get("subject"))).toEqual([
      "Получихме заявката Ви за консултация в чат — Ambercare",
      "Заявката Ви за консултация в чат изтече — Ambercare",
    ]);
    const expired = toBuyer[1]!;
    expect(expired.text).toContain(`Върнахме Ви $${(invoice!.amount_cents / 100).toFixed(2)}`);
    expect(expired.html).toContain('<html lang="bg">');
    expect(expired.html).toContain("Върнахме Ви");
    expect(expired.text).not.toContain("Cough");

    const toMember = await mailsTo(covered.email);
    expect(toMember.map((mail) => mail.headers.get("subject"))).toEqual([
      "We received your video consultation request — Ambercare",
      "Your video consultation request expired — Ambercare",
    ]);
    expect(toMember[1]!.text).toContain("Your membership covered this consultation");
    expect(toMember[1]!.html).toContain('<html lang="en">');
  });

  it("refunds a bought visit the clinician cancels, and tells the patient it was accepted first", async () => {
    const buyer = await registerPatient(t.app, { locale: "en" });
    await pay(buyer, "/ambercare/visit-checkout", { plan: "ppv_video" });
    const id = await requestVisit(buyer, "video");
    await t.app.visits.accept(first, id);
    await t.app.visits.cancelByClinician(first, id, "Emergency at the clinic");
    await t.app.visits.runDue();
    const res = await t.app.inject({
      method: "GET",
      url: "/ambercare/invoices",
      headers: bearer(buyer.access_token),
    });
    const [invoice] = invoicesResponse.parse(res.json()).data;
    expect(invoice!.refunded_amount_cents).toBe(invoice!.amount_cents);
    const subjects = (await mailsTo(buyer.email)).map((mail) => mail.headers.get("subject"));
    expect(subjects).toEqual([
      "We received your video consultation request — Ambercare",
      "A clinician accepted your video consultation — Ambercare",
      "Your video consultation was canceled — Ambercare",
    ]);
    const canceled = (await mailsTo(buyer.email))[2]!;
    expect(canceled.text).toContain("We have refunded");
    // The clinician's reason stays out of e-mail.
    expect(canceled.text).not.toContain("Emergency");
  });

  it("tells the patient on the visit's page who ended it, why, and what was refunded", async () => {
    const room = async (patient: Patient, id: string) => {
      const res = await t.app.inject({
        method: "GET",
        url: `/ambercare/consultations/${id}/waiting-room`,
        headers: bearer(patient.access_token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    const buyer = await registerPatient(t.app, { locale: "en" });
    await pay(buyer, "/ambercare/visit-checkout", { plan: "ppv_chat" });
    const id = await requestVisit(buyer, "chat");
    expect((await room(buyer, id)).ending).toBeNull();
    await t.app.visits.accept(first, id);
    await t.app.visits.cancelByClinician(first, id, "I am called to an emergency");
    expect((await room(buyer, id)).ending).toEqual({
      by: "clinician",
      reason: "I am called to an emergency",
      refund: { amount_cents: 2900, refunded_cents: 2900 },
    });

    // A member's visit the patient canceled: nothing to refund, and no reason of theirs is asked.
    const covered = await member();
    const own = await requestVisit(covered, "chat");
    await post(covered.access_token, `/ambercare/consultations/${own}/cancel`);
    expect((await room(covered, own)).ending).toEqual({ by: "patient", reason: null, refund: null });
  });
});
