import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import {
  accountDeletedResponse,
  COMMUNICATION_ERRORS,
  consentsResponse,
  myDataExportResponse,
} from "@ambercare/contracts/communications";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import {
  accessTokens,
  accountClosures,
  consultations,
  contactEntries,
  mailingListMembers,
  providers,
  ratings,
  users,
  visitCallEvents,
  visitNoteAddenda,
  visitNotes,
} from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATIENT_DATA_TABLES, STAFF_DATA_TABLES } from "#api/modules/my-data/patient-data.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  mailFilesTo,
  registerPatient,
  serviceToken,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
  withCaptcha,
} from "#api/test-support.ts";

const EXPORT = "/ambercare/my-data/export";
const CONSENTS = "/ambercare/my-data/consents";
const DELETE = "/ambercare/my-data/delete";
const clock = createManualClock(new Date("2025-08-01T09:00:00Z"));

type Patient = Awaited<ReturnType<typeof registerPatient>>;
let t: TestApp;
let providerId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: false, clock });
  const [provider] = await t.db.db
    .insert(providers)
    .values({
      slug: "dr-test",
      firstName: "Ada",
      lastName: "Test",
      credentials: "MD",
      bioEn: "Bio",
      translations: { bg: { bio: "Био" } },
      languages: ["en"],
    })
    .returning({ id: providers.id });
  providerId = provider!.id;
});

afterAll(async () => {
  await t.close();
});

/** A patient with something in every table: a message, a consent, a list entry, a visit and a rating. */
async function patientWithData(label: string): Promise<Patient> {
  const patient = await registerPatient(t.app, { first_name: label });
  const zone = await t.app.inject({
    method: "POST",
    url: "/ambercare/update-user",
    headers: bearer(patient.access_token),
    payload: { user_id: patient.user_id, time_zone: "America/Los_Angeles" },
  });
  expect(zone.statusCode).toBe(200);
  const saved = await t.app.inject({
    method: "POST",
    url: "/ambercare/save-contact-entry",
    headers: bearer(patient.access_token),
    payload: await withCaptcha(t.app, {
      name: label,
      email: patient.email,
      topic: "privacy",
      message: `Message of ${label}`,
    }),
  });
  expect(saved.statusCode).toBe(201);
  await t.app.inject({
    method: "POST",
    url: CONSENTS,
    headers: bearer(patient.access_token),
    payload: { optional_processing: true },
  });
  await t.app.inject({
    method: "POST",
    url: "/api/v1/api/sendgrid/add-to-contacts",
    headers: bearer(TEST_PUBLIC_API_TOKEN),
    payload: await withCaptcha(t.app, { email: patient.email }),
  });
  const [visit] = await t.db.db
    .insert(consultations)
    .values({
      userId: patient.user_id,
      providerId,
      type: "chat",
      status: "completed",
      completedAt: clock.now(),
    })
    .returning({ id: consultations.id });
  // The visit was also a call: the patient joined and left.
  await t.db.db.insert(visitCallEvents).values([
    { consultationId: visit!.id, userId: patient.user_id, side: "patient", event: "join", at: clock.now() },
    { consultationId: visit!.id, userId: patient.user_id, side: "patient", event: "leave", at: clock.now() },
  ]);
  await t.db.db.insert(ratings).values({
    providerId,
    userId: patient.user_id,
    consultationId: visit!.id,
    stars: 4,
    comment: `Rash got better, thanks (${label})`,
  });
  return patient;
}

const get = (url: string, token?: string) =>
  t.app.inject({ method: "GET", url, headers: token ? bearer(token) : {} });

describe("GET /ambercare/my-data/export", () => {
  it("contains every section of the patient's data, and nothing of anyone else", async () => {
    const alice = await patientWithData("Alice");
    const bob = await patientWithData("Bob");
    // A visitor wrote to support with Alice's address while logged out: not Alice's words.
    await t.app.inject({
      method: "POST",
      url: "/ambercare/save-contact-entry",
      headers: bearer(await serviceToken(t.app)),
      payload: await withCaptcha(t.app, {
        name: "Someone",
        email: alice.email,
        topic: "general",
        message: "Typed by a stranger",
      }),
    });

    const res = await get(EXPORT, alice.access_token);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { data } = myDataExportResponse.parse(res.json());
    expect(data.user_id).toBe(alice.user_id);
    expect(Object.keys(data.sections).sort()).toEqual(
      [
        "account",
        "audit_log",
        "billing_records",
        "consents",
        "consultations",
        "contact_entries",
        "live_events",
        "mailing_lists",
        "medical_documents",
        "memberships",
        "notification_devices",
        "ratings",
        "second_factor",
        "sessions",
        "video_calls",
        "visit_credits",
      ].sort(),
    );
    const { sections } = data;
    expect(sections.account).toEqual([
      expect.objectContaining({
        id: alice.user_id,
        email: alice.email,
        first_name: "Alice",
        time_zone: "America/Los_Angeles",
      }),
    ]);
    expect(sections.account![0]).not.toHaveProperty("password_hash");
    expect(sections.contact_entries!.map((row) => row.message)).toEqual(["Message of Alice"]);
    expect(sections.consents).toEqual([
      { key: "optional_processing", granted: true, recorded_at: clock.now().toISOString() },
    ]);
    expect(sections.mailing_lists).toEqual([
      expect.objectContaining({ email: alice.email, list: "newsletter", status: "pending" }),
    ]);
    expect(sections.consultations).toHaveLength(1);
    expect(sections.video_calls!.map((row) => [row.side, row.event])).toEqual([
      ["patient", "join"],
      ["patient", "leave"],
    ]);
    expect(sections.ratings).toEqual([
      expect.objectContaining({ stars: 4, comment: "Rash got better, thanks (Alice)" }),
    ]);
    expect(sections.sessions!.length).toBeGreaterThan(0);
    expect(sections.sessions![0]).toEqual({
      surface: "main",
      created_at: expect.any(String),
      expires_at: expect.any(String),
      revoked_at: null,
    });

    const text = JSON.stringify(data);
    for (const foreign of [bob.user_id, bob.email, "Message of Bob", "(Bob)", "Typed by a stranger"]) {
      expect(text).not.toContain(foreign);
    }
    expect(text).not.toContain(alice.access_token);
  });

  it("holds each visit's summary and the clinician's signed notes with their addenda", async () => {
    const cleo = await patientWithData("Cleo");
    const [visit] = await t.db.db
      .select({ id: consultations.id })
      .from(consultations)
      .where(eq(consultations.userId, cleo.user_id));
    await t.db.db
      .update(consultations)
      .set({ visitSummary: "A mild rash: cream twice a day." })
      .where(eq(consultations.id, visit!.id));
    await t.db.db.insert(visitNotes).values({
      consultationId: visit!.id,
      subjective: "Itchy rash for three days.",
      objective: "Red patches on the forearm.",
      assessment: "Contact dermatitis.",
      plan: "Hydrocortisone cream.",
      version: 3,
      signedAt: clock.now(),
    });
    await t.db.db
      .insert(visitNoteAddenda)
      .values({ consultationId: visit!.id, body: "Patient reports it is better.", signedAt: clock.now() });

    const { data } = myDataExportResponse.parse((await get(EXPORT, cleo.access_token)).json());
    const [row] = data.sections.consultations!;
    expect(row!.visit_summary).toBe("A mild rash: cream twice a day.");
    expect(JSON.parse(String(row!.clinician_notes))).toEqual({
      subjective: "Itchy rash for three days.",
      objective: "Red patches on the forearm.",
      assessment: "Contact dermatitis.",
      plan: "Hydrocortisone cream.",
      signed_at: clock.now().toISOString(),
    });
    expect(JSON.parse(String(row!.note_addenda))).toEqual([
      { body: "Patient reports it is better.", signed_at: clock.now().toISOString() },
    ]);
  });

  it("is the patient's own: 401 without a token, 403 for the service account", async () => {
    expect((await get(EXPORT)).json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    const service = await get(EXPORT, await serviceToken(t.app));
    expect(service.statusCode).toBe(403);
    expect(service.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });
  });

  it("lists every table that has a user_id column, so a new patient table cannot be forgotten", async () => {
    // A staff table is listed as such, with its reason, and never also as a patient's.
    for (const staff of STAFF_DATA_TABLES) {
      expect(staff.reason.length).toBeGreaterThan(20);
      expect(PATIENT_DATA_TABLES.flatMap((table) => table.tables)).not.toContain(staff.table);
    }
    const { rows } = await t.db.db.execute<{ table_name: string }>(
      sql`select distinct table_name from information_schema.columns where table_schema = 'public' and column_name = 'user_id' order by table_name`,
    );
    const covered = new Set([
      ...PATIENT_DATA_TABLES.flatMap((table) => table.tables),
      ...STAFF_DATA_TABLES.map((staff) => staff.table),
    ]);
    expect(rows.map((row) => row.table_name).filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe("consents for optional processing", () => {
  it("is not given until the patient gives it; every change is recorded with its time", async () => {
    const patient = await registerPatient(t.app);
    const initial = await get(CONSENTS, patient.access_token);
    expect(consentsResponse.parse(initial.json()).data).toEqual({
      optional_processing: { granted: false, recorded_at: null },
    });

    const post = (value: unknown) =>
      t.app.inject({
        method: "POST",
        url: CONSENTS,
        headers: bearer(patient.access_token),
        payload: { optional_processing: value },
      });
    const given = await post(true);
    expect(given.json().data.optional_processing).toEqual({
      granted: true,
      recorded_at: clock.now().toISOString(),
    });
    clock.advance(60_000);
    const withdrawn = await post(false);
    expect(withdrawn.json().data.optional_processing).toEqual({
      granted: false,
      recorded_at: clock.now().toISOString(),
    });
    const exported = myDataExportResponse.parse((await get(EXPORT, patient.access_token)).json());
    expect(exported.data.sections.consents!.map((row) => row.granted)).toEqual([true, false]);

    for (const bad of ["yes", null, 1]) expect((await post(bad)).statusCode).toBe(400);
    const unknown = await t.app.inject({
      method: "POST",
      url: CONSENTS,
      headers: bearer(patient.access_token),
      payload: { optional_processing: true, marketing: true },
    });
    expect(unknown.statusCode).toBe(400);
  });
});

describe("POST /ambercare/my-data/delete", () => {
  it("refuses a wrong password and a missing one, changing nothing", async () => {
    const patient = await registerPatient(t.app);
    const wrong = await t.app.inject({
      method: "POST",
      url: DELETE,
      headers: bearer(patient.access_token),
      payload: { password: "not my password" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: AUTH_ERRORS.wrongCurrentPassword, code: "WRONG_CURRENT_PASSWORD" });
    const missing = await t.app.inject({
      method: "POST",
      url: DELETE,
      headers: bearer(patient.access_token),
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect((await get("/api/v1/api/auth/me", patient.access_token)).statusCode).toBe(200);
    const service = await t.app.inject({
      method: "POST",
      url: DELETE,
      headers: bearer(await serviceToken(t.app)),
      payload: { password: "whatever" },
    });
    expect(service.statusCode).toBe(403);
  });

  it("asks for a renewing membership to be canceled first, then keeps its billing records", async () => {
    const patient = await registerPatient(t.app);
    const post = (url: string, payload: object) =>
      t.app.inject({ method: "POST", url, headers: bearer(patient.access_token), payload });
    const checkout = await post("/ambercare/subscription-checkout/", {
      user_id: patient.user_id,
      interval: "month",
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const checkoutId = (checkout.json() as { data: { checkout_url: string } }).data.checkout_url
      .split("/")
      .pop();
    const paid = await post(`/ambercare/checkout/${checkoutId}/pay`, {
      card_number: "4242 4242 4242 4242",
      exp_month: "12",
      exp_year: "2040",
      cvc: "123",
      name: "Dana Trial",
    });
    expect(paid.statusCode, paid.body).toBe(200);

    const refused = await post(DELETE, { password: patient.password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: COMMUNICATION_ERRORS.membershipStillActive,
      code: "MEMBERSHIP_STILL_ACTIVE",
    });
    expect((await get("/api/v1/api/auth/me", patient.access_token)).statusCode).toBe(200);

    expect((await post("/ambercare/cancel-subscription/", { user_id: patient.user_id })).statusCode).toBe(
      200,
    );
    const exported = await get(EXPORT, patient.access_token);
    const sections = (exported.json() as { data: { sections: Record<string, unknown[]> } }).data.sections;
    expect(sections.memberships).toEqual([
      expect.objectContaining({ status: "canceled", plan: "subscription_monthly" }),
    ]);

    const deleted = await post(DELETE, { password: patient.password });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const kept = (deleted.json() as { data: { kept: { section: string }[] } }).data.kept.map(
      (k) => k.section,
    );
    expect(kept).toEqual(expect.arrayContaining(["memberships", "billing_records", "visit_credits"]));
  });

  it("closes the account, erases or anonymises the data, keeps billing, and confirms by e-mail", async () => {
    const patient = await patientWithData("Carol");
    const bystander = await patientWithData("Dave");
    const res = await t.app.inject({
      method: "POST",
      url: DELETE,
      headers: bearer(patient.access_token),
      payload: { password: patient.password },
    });
    expect(res.statusCode).toBe(200);
    const { data } = accountDeletedResponse.parse(res.json());
    expect(data.account_closed).toBe(true);
    expect(data.erased.sort()).toEqual([
      "consents",
      "live_events",
      "mailing_lists",
      "medical_documents",
      "notification_devices",
      "second_factor",
      "sessions",
    ]);
    expect(data.anonymised.sort()).toEqual([
      "account",
      "consultations",
      "contact_entries",
      "ratings",
      "video_calls",
    ]);
    expect(data.kept).toEqual([
      { section: "audit_log", reason: expect.stringMatching(/HIPAA/) },
      { section: "memberships", reason: expect.stringMatching(/tax/) },
      { section: "billing_records", reason: expect.stringMatching(/tax/) },
      { section: "visit_credits", reason: expect.stringMatching(/tax/) },
    ]);

    // Sessions ended, login impossible, the address free again.
    expect((await get("/api/v1/api/auth/me", patient.access_token)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/login",
      payload: { email: patient.email, password: patient.password },
    });
    expect(login.statusCode).toBe(401);
    expect(await t.db.db.select().from(accessTokens).where(eq(accessTokens.userId, patient.user_id))).toEqual(
      [],
    );

    const [account] = await t.db.db.select().from(users).where(eq(users.id, patient.user_id));
    expect(account).toMatchObject({
      email: `closed-${patient.user_id}@closed.invalid`,
      firstName: null,
      lastName: null,
      dateOfBirth: null,
      timeZone: null,
    });
    const [closure] = await t.db.db
      .select()
      .from(accountClosures)
      .where(eq(accountClosures.userId, patient.user_id));
    expect(closure?.reason).toBe("patient_request");

    const entries = await t.db.db.select().from(contactEntries).where(eq(contactEntries.topic, "privacy"));
    const carols = entries.filter((row) => row.userId === null);
    expect(carols).toHaveLength(1);
    expect(carols[0]).toMatchObject({ name: null, email: null, message: null });
    expect(carols[0]!.anonymisedAt).not.toBeNull();
    expect(
      await t.db.db.select().from(mailingListMembers).where(eq(mailingListMembers.email, patient.email)),
    ).toEqual([]);
    const [rating] = await t.db.db.select().from(ratings).where(eq(ratings.userId, patient.user_id));
    expect(rating).toMatchObject({ stars: 4, comment: null });
    expect(
      await t.db.db.select().from(consultations).where(eq(consultations.userId, patient.user_id)),
    ).toHaveLength(1);

    // The bystander's data is untouched.
    const theirs = myDataExportResponse.parse((await get(EXPORT, bystander.access_token)).json()).data
      .sections;
    expect(theirs.contact_entries!.map((row) => row.message)).toEqual(["Message of Dave"]);
    expect(theirs.ratings![0]!.comment).toBe("Rash got better, thanks (Dave)");
    expect(theirs.mailing_lists).toHaveLength(1);

    await t.app.mailer.drain();
    const confirmation = mailFilesTo(t.dataDir, patient.email).find((m) =>
      m.file.includes("-data-deletion-"),
    );
    expect(confirmation?.headers.get("subject")).toBe("Your Ambercare account is closed");
    expect(confirmation?.text).toContain("billing records");

    // The same address can open a new account.
    const again = await registerPatient(t.app, { email: patient.email });
    expect(again.user_id).not.toBe(patient.user_id);
  });
});
