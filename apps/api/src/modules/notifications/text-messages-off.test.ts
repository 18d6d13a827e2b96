import { existsSync } from "node:fs";
import { textMessageStatusResponse } from "@ambercare/contracts/notifications";
import { notificationDeliveries, textMessageConsents, textMessageNumbers } from "@ambercare/db/schema";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textMessageDirectory } from "#api/modules/notifications/text-message-provider.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  insertBookedVisit,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

/**
 * TEXT_MESSAGES=off (the default in production on PostgreSQL without a provider, ADR 064): every
 * text-message call answers 404 TEXT_MESSAGES_OFF, so no patient waits for a code nobody sends, and
 * a number stored before texts were turned off receives no reminder.
 */

const clock = createManualClock(new Date("2026-07-01T15:00:00Z"));
const TEXTS = "/ambercare/notifications/text-messages";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { TEXT_MESSAGES: "off" } });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe("text messages turned off", () => {
  it("answers every text-message call 404 TEXT_MESSAGES_OFF, the inbound webhook too", async () => {
    expect(t.app.config.TEXT_MESSAGES).toBe("off");
    const patient = await registerPatient(t.app);
    const calls: [string, string, object?][] = [
      ["GET", `${TEXTS}?locale=en`],
      ["PUT", `${TEXTS}/number`, { phone: "+13105550100", locale: "en" }],
      ["POST", `${TEXTS}/code`, { locale: "en" }],
      ["POST", `${TEXTS}/confirm`, { code: "123456" }],
      ["POST", `${TEXTS}/consent`, { locale: "en", wording: "I agree" }],
      ["POST", `${TEXTS}/opt-out`],
      ["DELETE", `${TEXTS}/number`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({
        method: method as "GET",
        url,
        headers: bearer(patient.access_token),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject({ code: "TEXT_MESSAGES_OFF", error: expect.any(String) });
    }
    const inbound = await t.app.inject({
      method: "POST",
      url: `${TEXTS}/inbound`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "From=%2B13105550100&Body=STOP",
    });
    expect(inbound.statusCode).toBe(404);
    expect(inbound.json()).toMatchObject({ code: "TEXT_MESSAGES_OFF" });
    // Without a session, the session is refused first, as for any patient call.
    expect((await t.app.inject({ method: "GET", url: TEXTS })).statusCode).toBe(401);
  });

  it("lets a patient see and remove a number saved before texts were turned off, withdrawing the consent today", async () => {
    const patient = await registerPatient(t.app);
    const consentedAt = new Date(clock.now().getTime() - 40 * 24 * 60 * 60_000);
    await t.db.db.insert(textMessageNumbers).values({
      userId: patient.user_id,
      phone: "+13105550102",
      confirmedAt: consentedAt,
      consentedAt,
    });
    await t.db.db.insert(textMessageConsents).values({
      userId: patient.user_id,
      phone: "+13105550102",
      action: "given",
      wording: "I agree to reminder texts.",
      locale: "en",
      ip: "203.0.113.9",
      at: consentedAt,
    });
    const call = (method: "GET" | "DELETE" | "POST", url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(patient.access_token), ...(payload ? { payload } : {}) });

    // The number is shown, as not receiving texts: the clinic sends none.
    const shown = await call("GET", `${TEXTS}?locale=en`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(textMessageStatusResponse.parse(shown.json()).data).toMatchObject({
      phone: "+13105550102",
      confirmed: true,
      sending: false,
      receives_texts: false,
      consent: { given_at: consentedAt.toISOString(), wording: "I agree to reminder texts." },
    });
    // Nothing but its removal: no code, no new consent, no opt-out.
    for (const [url, payload] of [
      [`${TEXTS}/code`, { locale: "en" }],
      [`${TEXTS}/opt-out`, undefined],
    ] as const) {
      const refused = await call("POST", url, payload);
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json()).toMatchObject({ code: "TEXT_MESSAGES_OFF" });
    }

    const removed = await call("DELETE", `${TEXTS}/number`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(textMessageStatusResponse.parse(removed.json()).data).toMatchObject({
      phone: null,
      sending: false,
      receives_texts: false,
    });
    const [row] = await t.db.db
      .select()
      .from(textMessageNumbers)
      .where(eq(textMessageNumbers.userId, patient.user_id));
    expect(row).toMatchObject({ phone: null, confirmedAt: null, consentedAt: null });
    const consents = await t.db.db
      .select({
        action: textMessageConsents.action,
        phone: textMessageConsents.phone,
        at: textMessageConsents.at,
      })
      .from(textMessageConsents)
      .where(eq(textMessageConsents.userId, patient.user_id))
      .orderBy(asc(textMessageConsents.at));
    expect(consents).toEqual([
      { action: "given", phone: "+13105550102", at: consentedAt },
      { action: "withdrawn", phone: "+13105550102", at: clock.now() },
    ]);

    // Removed, the number is gone, and the section with it: texts are off for this patient too.
    for (const [method, url] of [
      ["GET", `${TEXTS}?locale=en`],
      ["DELETE", `${TEXTS}/number`],
    ] as const) {
      const after = await call(method, url);
      expect(after.statusCode, `${method} ${url}`).toBe(404);
      expect(after.json()).toMatchObject({ code: "TEXT_MESSAGES_OFF" });
    }
    expect(existsSync(textMessageDirectory(t.app.config.DATA_DIR))).toBe(false);
  });

  it("texts no reminder to a number confirmed before texts were turned off; its web push is still decided", async () => {
    const clinician = await registerClinician(t, clock.now());
    const patient = await registerPatient(t.app);
    await t.db.db.insert(textMessageNumbers).values({
      userId: patient.user_id,
      phone: "+13105550101",
      confirmedAt: clock.now(),
      consentedAt: clock.now(),
    });
    const startsAt = new Date(clock.now().getTime() + 60 * 60_000);
    const visitId = await insertBookedVisit(t.db.db, {
      patientUserId: patient.user_id,
      clinicianUserId: clinician.user_id,
      providerId: clinician.providerId,
      startsAt,
    });
    // The hour-before notice, as its job hands it over (the one notice that also goes by text).
    await t.app.notifications.deliver({
      userId: patient.user_id,
      consultationId: visitId,
      event: "visit_soon",
      minutes: 60,
    });
    const rows = await t.db.db
      .select({ channel: notificationDeliveries.channel, event: notificationDeliveries.event })
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.userId, patient.user_id),
          eq(notificationDeliveries.consultationId, visitId),
        ),
      );
    // The hour-before notice was decided (its push skipped: no device), and no text was considered.
    expect(rows).toContainEqual({ channel: "push", event: "visit_soon" });
    expect(rows.filter((row) => row.channel === "sms")).toEqual([]);
    expect(existsSync(textMessageDirectory(t.app.config.DATA_DIR))).toBe(false);
  });
});
