import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  bookings,
  notificationDeliveries,
  textMessageConsents,
  textMessageNumbers,
  users,
} from "@ambercare/db/schema";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textMessageDirectory } from "#api/modules/notifications/text-message-provider.ts";
import { startTwilioStandIn, twilioSignature } from "#api/modules/notifications/twilio-stand-in.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  insertBookedVisit,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

const clock = createManualClock(new Date("2026-07-01T15:00:00Z"));
const SID = `AC${"0123456789abcdef".repeat(2)}`;
const TOKEN = "twilio-auth-token-0123456789";
const API = "https://api.care.example";
const TEXTS = "/ambercare/notifications/text-messages";
const INBOUND = `${TEXTS}/inbound`;
let twilioApi: Awaited<ReturnType<typeof startTwilioStandIn>>;
let t: TestApp;
let clinician: Awaited<ReturnType<typeof registerClinician>>;
let phoneSuffix = 100;

beforeAll(async () => {
  twilioApi = await startTwilioStandIn({ sid: SID, token: TOKEN });
  t = await createTestApp({
    clock,
    env: {
      RATE_LIMIT_MAX: "100000",
      SESSION_IDLE_MINUTES: "300",
      API_PUBLIC_URL: API,
      SUPPORT_EMAIL: "help@care.example",
      SUPPORT_PHONE: "+15550109999",
      TEXT_MESSAGES: "twilio",
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: "+15550100000",
      TWILIO_API_URL: twilioApi.origin,
    },
  });
  clinician = await registerClinician(t, clock.now());
}, 120_000);

afterAll(async () => {
  await t?.close();
  await twilioApi?.close();
});

const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

/** A new US mobile number (Los Angeles' 310 plan does not say mobile or fixed: allowed). */
const newPhone = () => `+1310555${String(++phoneSuffix).padStart(4, "0")}`;

function lastTextTo(phone: string) {
  const text = twilioApi.received.filter((r) => r.form.To === phone).at(-1);
  if (!text) throw new Error(`nothing texted to ${phone}`);
  return text;
}
const codeIn = (body: string) => /\b(\d{6})\b/.exec(body)?.[1] ?? "";

/** A patient with a confirmed number and consent, in a zone. */
async function patientWithTexts(timeZone: string, locale: "en" | "bg" = "en") {
  const account = await registerPatient(t.app);
  await t.db.db.update(users).set({ timeZone, locale }).where(eq(users.id, account.user_id));
  const phone = newPhone();
  expect((await call("PUT", `${TEXTS}/number`, account.access_token, { phone, locale })).statusCode).toBe(
    200,
  );
  const confirmed = await call("POST", `${TEXTS}/confirm`, account.access_token, {
    code: codeIn(lastTextTo(phone).form.Body!),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const wording = (await call("GET", `${TEXTS}?locale=${locale}`, account.access_token)).json().data
    .consent_wording;
  const consented = await call("POST", `${TEXTS}/consent`, account.access_token, { locale, wording });
  expect(consented.json().data.receives_texts).toBe(true);
  return { ...account, phone };
}

/**
 * A booked visit of the patient with the test's clinician, starting at `startsAt` (an earlier test's
 * visit at that time, done with, is canceled to make room).
 */
async function bookedVisit(patientUserId: string, startsAt: Date): Promise<string> {
  await t.db.db
    .update(bookings)
    .set({ status: "canceled" })
    .where(and(eq(bookings.clinicianUserId, clinician.user_id), eq(bookings.startsAt, startsAt)));
  return insertBookedVisit(t.db.db, {
    patientUserId,
    clinicianUserId: clinician.user_id,
    providerId: clinician.providerId,
    startsAt,
  });
}

async function textRows(userId: string) {
  return t.db.db
    .select({
      event: notificationDeliveries.event,
      outcome: notificationDeliveries.outcome,
      reason: notificationDeliveries.reason,
    })
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.userId, userId),
        eq(notificationDeliveries.channel, "sms"),
        eq(notificationDeliveries.event, "visit_soon"),
      ),
    )
    .orderBy(notificationDeliveries.at);
}

/** The hour-before notice of the visit, as its job hands it to `deliver`. */
const hourBefore = (userId: string, consultationId: string) =>
  t.app.notifications.deliver({ userId, consultationId, event: "visit_soon", minutes: 60 });

function inbound(
  fields: Record<string, string>,
  signature = twilioSignature(TOKEN, `${API}${INBOUND}`, fields),
) {
  return t.app.inject({
    method: "POST",
    url: INBOUND,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe("a mobile number, confirmed by a texted code", () => {
  it("normalises the number, texts a code (stored hashed), and confirms it with the right code only", async () => {
    const patient = await registerPatient(t.app);
    const set = await call("PUT", `${TEXTS}/number`, patient.access_token, {
      phone: "0888 123 456",
      locale: "bg",
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({
      phone: "+359888123456",
      confirmed: false,
      receives_texts: false,
    });
    expect(set.json().data.code.expires_at).toBe(new Date(clock.now().getTime() + 10 * 60_000).toISOString());
    const text = lastTextTo("+359888123456");
    expect(text.authorized).toBe(true);
    expect(text.form.From).toBe("+15550100000");
    expect(text.form.Body).toMatch(/кодът ви за потвърждение е \d{6}/);
    const code = codeIn(text.form.Body!);
    const [row] = await t.db.db
      .select()
      .from(textMessageNumbers)
      .where(eq(textMessageNumbers.userId, patient.user_id));
    expect(row!.codeHash).not.toContain(code);

    const consentFirst = await call("POST", `${TEXTS}/consent`, patient.access_token, {
      locale: "bg",
      wording: set.json().data.consent_wording,
    });
    expect(consentFirst.statusCode).toBe(409);
    expect(consentFirst.json().code).toBe("PHONE_NOT_CONFIRMED");

    const wrong = await call("POST", `${TEXTS}/confirm`, patient.access_token, {
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ code: "TEXT_CODE_INVALID", error: expect.any(String) });
    const right = await call("POST", `${TEXTS}/confirm`, patient.access_token, { code });
    expect(right.statusCode).toBe(200);
    expect(right.json().data).toMatchObject({ confirmed: true, code: null, receives_texts: false });
    // The code is used up.
    expect((await call("POST", `${TEXTS}/confirm`, patient.access_token, { code })).statusCode).toBe(410);
  });

  it("refuses what is not a mobile number, as 4xx", async () => {
    const patient = await registerPatient(t.app);
    for (const phone of ["+35929876543", "hello", "+1 555", "+44 20 7946 0958"]) {
      const res = await call("PUT", `${TEXTS}/number`, patient.access_token, { phone });
      expect(res.statusCode, phone).toBe(422);
      expect(res.json().code).toBe("PHONE_NUMBER_INVALID");
    }
    expect((await call("PUT", `${TEXTS}/number`, patient.access_token, {})).statusCode).toBe(400);
    const none = await call("POST", `${TEXTS}/confirm`, patient.access_token, { code: "123456" });
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe("PHONE_NUMBER_MISSING");
  });

  it("throttles new codes and uses a code up after five wrong tries", async () => {
    const patient = await registerPatient(t.app);
    const phone = newPhone();
    await call("PUT", `${TEXTS}/number`, patient.access_token, { phone });
    const again = await call("POST", `${TEXTS}/code`, patient.access_token, { locale: "en" });
    expect(again.statusCode).toBe(429);
    expect(again.json().code).toBe("TEXT_CODE_TOO_SOON");
    expect(Number(again.headers["retry-after"])).toBe(60);
    clock.advance(61_000);
    expect((await call("POST", `${TEXTS}/code`, patient.access_token, { locale: "en" })).statusCode).toBe(
      200,
    );
    const code = codeIn(lastTextTo(phone).form.Body!);
    const wrongCode = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++)
      expect(
        (await call("POST", `${TEXTS}/confirm`, patient.access_token, { code: wrongCode })).statusCode,
      ).toBe(422);
    expect((await call("POST", `${TEXTS}/confirm`, patient.access_token, { code })).statusCode).toBe(410);
    // Five codes a day at most, even across removing the number and adding it again.
    for (let i = 0; i < 3; i++) {
      clock.advance(61_000);
      expect((await call("POST", `${TEXTS}/code`, patient.access_token, { locale: "en" })).statusCode).toBe(
        200,
      );
    }
    clock.advance(61_000);
    await call("DELETE", `${TEXTS}/number`, patient.access_token);
    const sixth = await call("PUT", `${TEXTS}/number`, patient.access_token, { phone });
    expect(sixth.statusCode).toBe(429);
  });

  it("counts wrong tries sent at once each, so guessing in parallel gets no more than five", async () => {
    const patient = await registerPatient(t.app);
    const phone = newPhone();
    await call("PUT", `${TEXTS}/number`, patient.access_token, { phone });
    const code = codeIn(lastTextTo(phone).form.Body!);
    const guesses = Array.from({ length: 12 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0"),
    );
    const answers = await Promise.all(
      guesses.map((guess) => call("POST", `${TEXTS}/confirm`, patient.access_token, { code: guess })),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(7);
    // The code is used up: the right one, late, no longer confirms.
    expect((await call("POST", `${TEXTS}/confirm`, patient.access_token, { code })).statusCode).toBe(410);
    const [row] = await t.db.db
      .select({ attempts: textMessageNumbers.codeAttempts, confirmedAt: textMessageNumbers.confirmedAt })
      .from(textMessageNumbers)
      .where(eq(textMessageNumbers.userId, patient.user_id));
    expect(row).toEqual({ attempts: 5, confirmedAt: null });
  });
});

describe("express consent", () => {
  it("is recorded with the exact wording shown in the patient's language, the time and the address", async () => {
    const patient = await patientWithTexts("Europe/Sofia", "bg");
    const status = (await call("GET", `${TEXTS}?locale=bg`, patient.access_token)).json().data;
    expect(status.consent_wording).toMatch(/^Съгласен\/съгласна съм да получавам от Ambercare/);
    expect(status.consent).toEqual({
      given_at: clock.now().toISOString(),
      wording: status.consent_wording,
      locale: "bg",
    });
    const [record] = await t.db.db
      .select()
      .from(textMessageConsents)
      .where(eq(textMessageConsents.userId, patient.user_id));
    expect(record).toMatchObject({
      action: "given",
      phone: patient.phone,
      wording: status.consent_wording,
      locale: "bg",
      ip: "127.0.0.1",
      at: clock.now(),
    });
  });

  it("refuses wording other than what the server shows", async () => {
    const patient = await registerPatient(t.app);
    const phone = newPhone();
    await call("PUT", `${TEXTS}/number`, patient.access_token, { phone });
    await call("POST", `${TEXTS}/confirm`, patient.access_token, {
      code: codeIn(lastTextTo(phone).form.Body!),
    });
    const res = await call("POST", `${TEXTS}/consent`, patient.access_token, {
      locale: "en",
      wording: "I agree to anything.",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe("CONSENT_WORDING_CHANGED");
  });
});

describe("reminder texts", () => {
  it("go only with a confirmed number and consent, and say nothing of the visit but its time", async () => {
    clock.set(new Date("2026-07-01T15:00:00Z"));
    const patient = await patientWithTexts("America/Los_Angeles");
    // 15:00 UTC is 08:00 in Los Angeles (PDT): within the hours.
    const visit = await bookedVisit(patient.user_id, new Date(clock.now().getTime() + 60 * 60_000));
    const before = twilioApi.received.length;
    await hourBefore(patient.user_id, visit);
    // The 10-minute notice is a push only.
    await t.app.notifications.deliver({
      userId: patient.user_id,
      consultationId: visit,
      event: "visit_soon",
      minutes: 10,
    });
    expect(twilioApi.received.length).toBe(before + 1);
    const text = lastTextTo(patient.phone).form.Body!;
    expect(text).toMatch(/^Ambercare: reminder, your booked visit starts on Wed, Jul 1, 9:00 AM PDT\./);
    expect(text).not.toMatch(/video|Dr\.|CA\b/);
    expect(await textRows(patient.user_id)).toEqual([{ event: "visit_soon", outcome: "sent", reason: null }]);

    const unconsented = await registerPatient(t.app);
    const phone = newPhone();
    await call("PUT", `${TEXTS}/number`, unconsented.access_token, { phone });
    /** The reason the next hour-before notice of a new visit is not texted. */
    const skippedBecause = async () => {
      const visit = await bookedVisit(unconsented.user_id, new Date(clock.now().getTime() + 3_600_000));
      await hourBefore(unconsented.user_id, visit);
      const last = (await textRows(unconsented.user_id)).at(-1);
      expect(last).toMatchObject({ event: "visit_soon", outcome: "skipped" });
      return last?.reason;
    };
    expect(await skippedBecause()).toBe("not_confirmed");
    await call("POST", `${TEXTS}/confirm`, unconsented.access_token, {
      code: codeIn(lastTextTo(phone).form.Body!),
    });
    expect(await skippedBecause()).toBe("no_consent");
    expect(twilioApi.received.filter((r) => r.form.To === phone)).toHaveLength(1);
  });

  it("stop at once when the patient opts out in the profile", async () => {
    const patient = await patientWithTexts("America/Los_Angeles");
    const out = await call("POST", `${TEXTS}/opt-out`, patient.access_token);
    expect(out.json().data).toMatchObject({ receives_texts: false, opted_out: { via: "profile" } });
    const before = twilioApi.received.length;
    await hourBefore(
      patient.user_id,
      await bookedVisit(patient.user_id, new Date(clock.now().getTime() + 3_600_000)),
    );
    expect(twilioApi.received.length).toBe(before);
    expect(await textRows(patient.user_id)).toEqual([
      { event: "visit_soon", outcome: "skipped", reason: "opted_out" },
    ]);
  });

  it("keep to 08:00–21:00 in the patient's zone: one due in the night waits for the morning, or is skipped", async () => {
    // 05:30 UTC: 22:30 the day before in Los Angeles, 08:30 in Sofia.
    clock.set(new Date("2026-07-02T05:30:00Z"));
    const la = await patientWithTexts("America/Los_Angeles");
    const sofia = await patientWithTexts("Europe/Sofia", "bg");
    const sofiaVisit = await bookedVisit(sofia.user_id, new Date("2026-07-02T06:30:00Z"));
    await hourBefore(sofia.user_id, sofiaVisit);
    expect(await textRows(sofia.user_id)).toEqual([{ event: "visit_soon", outcome: "sent", reason: null }]);
    expect(lastTextTo(sofia.phone).form.Body).toMatch(
      /^Ambercare: напомняне — записаното ви посещение започва в /,
    );

    // A visit at 06:30 UTC is 23:30 in Los Angeles: the morning comes after it, so no text.
    await hourBefore(la.user_id, await bookedVisit(la.user_id, new Date("2026-07-02T06:30:00Z")));
    expect(await textRows(la.user_id)).toEqual([
      { event: "visit_soon", outcome: "skipped", reason: "quiet_hours" },
    ]);

    // A visit at 08:30 in Los Angeles (15:30 UTC) whose notice is due at night (here, as if late):
    // it waits for 08:00 there (15:00 UTC), and goes then.
    const morningVisit = await bookedVisit(la.user_id, new Date("2026-07-02T15:30:00Z"));
    await hourBefore(la.user_id, morningVisit);
    expect((await textRows(la.user_id)).at(-1)).toEqual({
      event: "visit_soon",
      outcome: "deferred",
      reason: "quiet_hours",
    });
    const sent = twilioApi.received.length;
    expect((await t.app.jobs.runDue(new Date("2026-07-02T14:59:00Z"))).ran).toBe(0);
    clock.set(new Date("2026-07-02T15:00:00Z"));
    expect((await t.app.jobs.runDue(clock.now())).ran).toBeGreaterThanOrEqual(1);
    expect(twilioApi.received.length).toBe(sent + 1);
    expect(lastTextTo(la.phone).form.Body).toMatch(/starts on Thu, Jul 2, 8:30 AM PDT/);
    expect((await textRows(la.user_id)).at(-1)).toEqual({
      event: "visit_soon",
      outcome: "sent",
      reason: null,
    });

    // A visit canceled before the morning gets no text.
    clock.set(new Date("2026-07-03T05:30:00Z"));
    const canceled = await bookedVisit(la.user_id, new Date("2026-07-03T15:30:00Z"));
    await hourBefore(la.user_id, canceled);
    await t.db.db.update(bookings).set({ status: "canceled" }).where(eq(bookings.consultationId, canceled));
    clock.set(new Date("2026-07-03T15:00:00Z"));
    await t.app.jobs.runDue(clock.now());
    expect((await textRows(la.user_id)).at(-1)).toEqual({
      event: "visit_soon",
      outcome: "skipped",
      reason: "not_booked",
    });
    expect(lastTextTo(la.phone).form.Body).toMatch(/8:30 AM PDT/);
  });

  it("record a failure of the provider without failing the notification", async () => {
    const patient = await patientWithTexts("America/Los_Angeles");
    twilioApi.refuse(patient.phone);
    clock.set(new Date("2026-07-04T18:00:00Z"));
    await hourBefore(patient.user_id, await bookedVisit(patient.user_id, new Date("2026-07-04T19:00:00Z")));
    expect(await textRows(patient.user_id)).toEqual([
      { event: "visit_soon", outcome: "failed", reason: "twilio answered 400 (21610)" },
    ]);
    // The push side still decided and recorded its own row.
    const push = await t.db.db
      .select()
      .from(notificationDeliveries)
      .where(
        and(eq(notificationDeliveries.userId, patient.user_id), eq(notificationDeliveries.channel, "push")),
      )
      .orderBy(desc(notificationDeliveries.at));
    expect(push[0]).toMatchObject({ outcome: "skipped", reason: "no_device" });
  });
});

describe("Twilio's inbound webhook", () => {
  it("refuses a request without Twilio's signature", async () => {
    const fields = { From: "+13105550000", To: "+15550100000", Body: "STOP", MessageSid: "SM1" };
    const forged = await inbound(
      fields,
      twilioSignature("not-the-token-0123456789", `${API}${INBOUND}`, fields),
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual({ error: expect.any(String), code: "WEBHOOK_SIGNATURE_INVALID" });
    const unsigned = await t.app.inject({
      method: "POST",
      url: INBOUND,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(fields).toString(),
    });
    expect(unsigned.statusCode).toBe(403);
  });

  it("STOP stops every text to the number at once; START gives them back only after consent", async () => {
    clock.set(new Date("2026-07-05T18:00:00Z"));
    const patient = await patientWithTexts("America/Los_Angeles");
    const stop = await inbound({
      From: patient.phone,
      To: "+15550100000",
      Body: " stop ",
      MessageSid: "SM2",
    });
    expect(stop.statusCode).toBe(200);
    expect(stop.headers["content-type"]).toMatch(/^text\/xml/);
    expect(stop.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    const status = (await call("GET", TEXTS, patient.access_token)).json().data;
    expect(status).toMatchObject({ receives_texts: false, opted_out: { via: "reply" } });
    const before = twilioApi.received.length;
    await hourBefore(patient.user_id, await bookedVisit(patient.user_id, new Date("2026-07-05T19:00:00Z")));
    expect(twilioApi.received.length).toBe(before);
    expect((await textRows(patient.user_id)).at(-1)).toMatchObject({
      outcome: "skipped",
      reason: "opted_out",
    });
    const actions = await t.db.db
      .select({ action: textMessageConsents.action })
      .from(textMessageConsents)
      .where(eq(textMessageConsents.userId, patient.user_id))
      .orderBy(textMessageConsents.at);
    expect(actions.map((a) => a.action)).toEqual(["given", "stopped"]);

    const start = await inbound({
      From: patient.phone,
      To: "+15550100000",
      Body: "START",
      MessageSid: "SM3",
    });
    expect(start.body).toContain("<Message>Ambercare: visit reminders by text are on again.");
    expect((await call("GET", TEXTS, patient.access_token)).json().data.receives_texts).toBe(true);

    // A number that never consented stays without texts.
    const other = await registerPatient(t.app);
    const phone = newPhone();
    await call("PUT", `${TEXTS}/number`, other.access_token, { phone });
    await call("POST", `${TEXTS}/confirm`, other.access_token, {
      code: codeIn(lastTextTo(phone).form.Body!),
    });
    const unstop = await inbound({ From: phone, To: "+15550100000", Body: "UNSTOP", MessageSid: "SM4" });
    expect(unstop.body).toContain("add this number and agree to them in your profile");
    expect((await call("GET", TEXTS, other.access_token)).json().data.receives_texts).toBe(false);
  });

  it("HELP answers with the clinic's contact", async () => {
    const help = await inbound({ From: "+13105559876", To: "+15550100000", Body: "help", MessageSid: "SM5" });
    expect(help.statusCode).toBe(200);
    expect(help.body).toContain("Help: help@care.example, +15550109999.");
    const other = await inbound({
      From: "+13105559876",
      To: "+15550100000",
      Body: "Thanks!",
      MessageSid: "SM6",
    });
    expect(other.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });
});

describe("without Twilio", () => {
  it("writes each text to $DATA_DIR/sms and refuses the webhook", async () => {
    const local = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000" } });
    try {
      const patient = await registerPatient(local.app);
      const res = await local.app.inject({
        method: "PUT",
        url: `${TEXTS}/number`,
        headers: bearer(patient.access_token),
        payload: { phone: "+359 88 812 3457" },
      });
      expect(res.statusCode, res.body).toBe(200);
      const directory = textMessageDirectory(local.dataDir);
      const [file] = await readdir(directory);
      expect(file).toMatch(/-verification-[0-9a-f]{6}\.txt$/);
      expect(await readFile(join(directory, file!), "utf8")).toMatch(
        /^To: \+359888123457\n\nAmbercare: your confirmation code is \d{6}\./,
      );
      const fields = { From: "+359888123457", Body: "STOP" };
      const hook = await local.app.inject({
        method: "POST",
        url: INBOUND,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-twilio-signature": twilioSignature(TOKEN, `http://localhost${INBOUND}`, fields),
        },
        payload: new URLSearchParams(fields).toString(),
      });
      expect(hook.statusCode).toBe(403);
    } finally {
      await local.close();
    }
  });
});
