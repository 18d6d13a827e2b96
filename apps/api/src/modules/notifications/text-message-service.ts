import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { type Locale, toLocale } from "@ambercare/contracts/locales";
import {
  type SetTextNumberRequest,
  TEXT_CODE_ATTEMPTS,
  TEXT_CODE_MINUTES,
  TEXT_CODE_RESEND_SECONDS,
  TEXT_CODES_PER_DAY,
  TEXT_MESSAGE_ERRORS,
  type TextConsentRequest,
  type TextMessageStatus,
} from "@ambercare/contracts/notifications";
import type { Database } from "@ambercare/db/client";
import { notificationDeliveries, textMessageConsents, textMessageNumbers, users } from "@ambercare/db/schema";
import { and, eq, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { CountryCode } from "libphonenumber-js/max";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { textCopy } from "#api/modules/notifications/text-message-copy.ts";
import type { TextMessageProvider } from "#api/modules/notifications/text-message-provider.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * The patient's mobile number for reminder texts (ADR 064): set (normalised to E.164 with
 * libphonenumber-js, a mobile number only), confirmed with a 6-digit code texted to it, then the
 * patient's express consent with the exact wording shown, the time and the address. The profile's
 * opt-out and a STOP reply stop every text at once; START gives them back only after consent.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** What a reply may say, as carriers and Twilio read it (the first word, any case). */
const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);
const START_WORDS = new Set(["START", "UNSTOP"]);
const HELP_WORDS = new Set(["HELP", "INFO"]);
/** The country a number typed without its +code is read in, by the patient's language. */
const COUNTRY_OF: Record<Locale, CountryCode> = { en: "US", bg: "BG" };

type NumberRow = typeof textMessageNumbers.$inferSelect;

/** A number's state before its code is typed: not confirmed, no code, no consent, no opt-out. */
const UNCONFIRMED = {
  confirmedAt: null,
  codeHash: null,
  codeExpiresAt: null,
  codeAttempts: 0,
  consentedAt: null,
  optedOutAt: null,
  optedOutVia: null,
} as const;

/** A number a reminder may go to now, or why not. */
export type TextRecipient =
  | { ok: true; phone: string; locale: Locale; timeZone: string | null }
  | { ok: false; reason: "no_number" | "not_confirmed" | "no_consent" | "opted_out" };

/** A salted SHA-256 of a code (`salt:hex`): the code itself is never stored. */
function hashCode(code: string, salt = randomBytes(16).toString("hex")): string {
  return `${salt}:${createHash("sha256").update(`${salt}:${code}`).digest("hex")}`;
}

function codeMatches(code: string, stored: string): boolean {
  const [salt] = stored.split(":");
  const expected = Buffer.from(stored);
  const given = Buffer.from(hashCode(code, salt));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** E.164 of a mobile number as typed, or undefined when it is not one texts can reach. */
export function normalisePhone(phone: string, country: CountryCode): string | undefined {
  const parsed = parsePhoneNumberFromString(phone, { defaultCountry: country });
  if (!parsed?.isValid()) return undefined;
  const type = parsed.getType();
  // Numbers of plans that do not say whether they are mobile (the US, Canada) are allowed.
  if (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE") return undefined;
  return parsed.number;
}

/** An XML-escaped TwiML answer: one reply message, or none. */
export function twiml(message?: string): string {
  const body = message
    ? `<Message>${message.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")}</Message>`
    : "";
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
}

export function createTextMessageService(deps: {
  db: Database;
  clock: Clock;
  /** Null when text messages are off (TEXT_MESSAGES=off): every call but `enabled` refuses. */
  provider: TextMessageProvider | null;
  productName: string;
  /** Who a HELP reply names: SUPPORT_EMAIL, and SUPPORT_PHONE when set. */
  contact: string;
  /** The webhook's URL as Twilio is told it: what its signature covers. */
  inboundUrl: string;
  log: FastifyBaseLogger;
}) {
  const { db, clock } = deps;

  /** The provider; refuses every text-message call when texts are off (TEXT_MESSAGES=off). */
  function on(): TextMessageProvider {
    if (!deps.provider) throw new AppError("TEXT_MESSAGES_OFF", 404, TEXT_MESSAGE_ERRORS.off);
    return deps.provider;
  }

  /**
   * With texts off, the status and the removal still serve a patient whose number was saved before
   * (their number stays theirs to remove, and removing it withdraws their consent); for anyone else
   * they refuse as every other call does.
   */
  async function onOrSaved(userId: string): Promise<NumberRow | undefined> {
    const row = await rowOf(userId);
    if (!deps.provider && !row?.phone) on();
    return row;
  }

  /** The patient's own language, for the calls that do not name one. */
  async function localeOf(userId: string): Promise<Locale> {
    const [user] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId));
    return toLocale(user?.locale);
  }

  async function rowOf(userId: string): Promise<NumberRow | undefined> {
    const [row] = await db.select().from(textMessageNumbers).where(eq(textMessageNumbers.userId, userId));
    return row;
  }

  async function withNumber(userId: string): Promise<NumberRow & { phone: string }> {
    const row = await rowOf(userId);
    if (!row?.phone) throw new AppError("PHONE_NUMBER_MISSING", 404, TEXT_MESSAGE_ERRORS.noNumber);
    return { ...row, phone: row.phone };
  }

  async function update(userId: string, values: Partial<typeof textMessageNumbers.$inferInsert>) {
    await db
      .update(textMessageNumbers)
      .set({ ...values, updatedAt: clock.now() })
      .where(eq(textMessageNumbers.userId, userId));
  }

  async function consentRecord(
    userId: string,
    phone: string,
    action: "given" | "withdrawn" | "stopped" | "restarted",
    extra: { wording?: string; locale?: Locale; ip?: string } = {},
  ) {
    await db.insert(textMessageConsents).values({ userId, phone, action, ...extra, at: clock.now() });
  }

  async function status(userId: string, locale: Locale): Promise<TextMessageStatus> {
    const row = await rowOf(userId);
    const consentWording = textCopy(locale).consent(deps.productName);
    const now = clock.now().getTime();
    const sending = deps.provider !== null;
    if (!row?.phone) {
      return {
        phone: null,
        confirmed: false,
        code: null,
        consent: null,
        opted_out: null,
        sending,
        receives_texts: false,
        consent_wording: consentWording,
      };
    }
    const [given] = row.consentedAt
      ? await db
          .select()
          .from(textMessageConsents)
          .where(
            and(
              eq(textMessageConsents.userId, userId),
              eq(textMessageConsents.action, "given"),
              eq(textMessageConsents.at, row.consentedAt),
            ),
          )
      : [];
    const codeWaiting =
      row.codeHash !== null && row.codeExpiresAt !== null && row.codeExpiresAt.getTime() > now;
    return {
      phone: row.phone,
      confirmed: row.confirmedAt !== null,
      code: codeWaiting
        ? {
            expires_at: row.codeExpiresAt!.toISOString(),
            resend_after: new Date(
              (row.codeSentAt?.getTime() ?? now) + TEXT_CODE_RESEND_SECONDS * 1000,
            ).toISOString(),
          }
        : null,
      consent:
        row.consentedAt && given?.wording
          ? {
              given_at: row.consentedAt.toISOString(),
              wording: given.wording,
              locale: toLocale(given.locale),
            }
          : null,
      opted_out: row.optedOutAt
        ? { at: row.optedOutAt.toISOString(), via: row.optedOutVia === "reply" ? "reply" : "profile" }
        : null,
      sending,
      receives_texts:
        sending && row.confirmedAt !== null && row.consentedAt !== null && row.optedOutAt === null,
      consent_wording: consentWording,
    };
  }

  /** Texts a new code, within the throttle: once a minute, TEXT_CODES_PER_DAY a day. */
  async function sendCode(userId: string, locale: Locale): Promise<void> {
    const row = await withNumber(userId);
    const now = clock.now();
    if (row.confirmedAt !== null)
      throw new AppError("TEXT_CODE_EXPIRED", 409, TEXT_MESSAGE_ERRORS.codeExpired);
    const nextAt = (row.codeSentAt?.getTime() ?? 0) + TEXT_CODE_RESEND_SECONDS * 1000;
    const windowFresh =
      row.codesWindowStarted !== null && now.getTime() - row.codesWindowStarted.getTime() < DAY;
    const sentInWindow = windowFresh ? row.codesSent : 0;
    const waitUntil = sentInWindow >= TEXT_CODES_PER_DAY ? row.codesWindowStarted!.getTime() + DAY : nextAt;
    if (waitUntil > now.getTime()) {
      const seconds = Math.ceil((waitUntil - now.getTime()) / 1000);
      throw new AppError("TEXT_CODE_TOO_SOON", 429, TEXT_MESSAGE_ERRORS.resendTooSoon, {
        headers: { "Retry-After": String(seconds) },
      });
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await update(userId, {
      codeHash: hashCode(code),
      codeExpiresAt: new Date(now.getTime() + TEXT_CODE_MINUTES * MINUTE),
      codeAttempts: 0,
      codeSentAt: now,
      codesSent: sentInWindow + 1,
      codesWindowStarted: windowFresh ? row.codesWindowStarted : now,
    });
    const outcome = await on().send({
      to: row.phone,
      body: textCopy(locale).code(deps.productName, code, TEXT_CODE_MINUTES),
      purpose: "verification",
    });
    // Recorded as every text is (never the text); a failure leaves the patient to ask again.
    await db.insert(notificationDeliveries).values({
      userId,
      event: "phone_verification",
      channel: "sms",
      outcome: outcome.kind,
      reason: outcome.kind === "failed" ? outcome.reason : null,
      consultationId: null,
      at: now,
    });
  }

  return {
    /** Whether the clinic sends texts at all: a provider is configured. */
    enabled: deps.provider !== null,

    async status(userId: string, locale: Locale): Promise<TextMessageStatus> {
      await onOrSaved(userId);
      return status(userId, locale);
    },

    async setNumber(userId: string, input: SetTextNumberRequest): Promise<TextMessageStatus> {
      on();
      const locale = toLocale(input.locale);
      const country = (input.country ?? COUNTRY_OF[locale]) as CountryCode;
      const phone = normalisePhone(input.phone, country);
      if (!phone) throw new AppError("PHONE_NUMBER_INVALID", 422, TEXT_MESSAGE_ERRORS.phoneInvalid);
      const row = await rowOf(userId);
      if (row?.phone === phone && row.confirmedAt !== null) return status(userId, locale);
      if (row?.phone !== phone) {
        // A new number starts over: confirmed again, consented to again.
        if (row?.phone && row.consentedAt && !row.optedOutAt)
          await consentRecord(userId, row.phone, "withdrawn");
        await db
          .insert(textMessageNumbers)
          .values({ userId, phone, updatedAt: clock.now() })
          .onConflictDoUpdate({
            target: textMessageNumbers.userId,
            set: { phone, ...UNCONFIRMED, updatedAt: clock.now() },
          });
      }
      await sendCode(userId, locale);
      return status(userId, locale);
    },

    async resendCode(userId: string, locale: Locale): Promise<TextMessageStatus> {
      on();
      await sendCode(userId, locale);
      return status(userId, locale);
    },

    async confirm(userId: string, code: string): Promise<TextMessageStatus> {
      on();
      const row = await withNumber(userId);
      const now = clock.now();
      if (
        row.codeHash === null ||
        row.codeExpiresAt === null ||
        row.codeExpiresAt.getTime() <= now.getTime() ||
        row.codeAttempts >= TEXT_CODE_ATTEMPTS
      )
        throw new AppError("TEXT_CODE_EXPIRED", 410, TEXT_MESSAGE_ERRORS.codeExpired);
      // Counted and checked by the database, not from what was read: tries sent at once each count,
      // and none is counted past the limit nor confirms after it.
      const sameCode = and(
        eq(textMessageNumbers.userId, userId),
        eq(textMessageNumbers.codeHash, row.codeHash),
        lt(textMessageNumbers.codeAttempts, TEXT_CODE_ATTEMPTS),
      );
      if (!codeMatches(code, row.codeHash)) {
        const [counted] = await db
          .update(textMessageNumbers)
          .set({ codeAttempts: sql`${textMessageNumbers.codeAttempts} + 1`, updatedAt: now })
          .where(sameCode)
          .returning({ attempts: textMessageNumbers.codeAttempts });
        if (!counted) throw new AppError("TEXT_CODE_EXPIRED", 410, TEXT_MESSAGE_ERRORS.codeExpired);
        // The last wrong try uses the code up.
        if (counted.attempts >= TEXT_CODE_ATTEMPTS)
          await update(userId, { codeHash: null, codeExpiresAt: null });
        throw new AppError("TEXT_CODE_INVALID", 422, TEXT_MESSAGE_ERRORS.codeInvalid);
      }
      const confirmed = await db
        .update(textMessageNumbers)
        .set({ confirmedAt: now, codeHash: null, codeExpiresAt: null, codeAttempts: 0, updatedAt: now })
        .where(sameCode)
        .returning({ userId: textMessageNumbers.userId });
      if (confirmed.length === 0)
        throw new AppError("TEXT_CODE_EXPIRED", 410, TEXT_MESSAGE_ERRORS.codeExpired);
      return status(userId, await localeOf(userId));
    },

    /** Express consent: only to the wording this server shows in that language, recorded as given. */
    async consent(userId: string, input: TextConsentRequest, ip: string): Promise<TextMessageStatus> {
      on();
      const row = await withNumber(userId);
      if (row.confirmedAt === null)
        throw new AppError("PHONE_NOT_CONFIRMED", 409, TEXT_MESSAGE_ERRORS.notConfirmed);
      const wording = textCopy(input.locale).consent(deps.productName);
      if (input.wording !== wording)
        throw new AppError("CONSENT_WORDING_CHANGED", 409, TEXT_MESSAGE_ERRORS.wordingChanged);
      const now = clock.now();
      await consentRecord(userId, row.phone, "given", { wording, locale: input.locale, ip });
      await update(userId, { consentedAt: now, optedOutAt: null, optedOutVia: null });
      return status(userId, input.locale);
    },

    /** The profile's opt-out: no text from now on, until the patient consents again. */
    async optOut(userId: string): Promise<TextMessageStatus> {
      on();
      const row = await withNumber(userId);
      if (row.optedOutAt === null) {
        await update(userId, { optedOutAt: clock.now(), optedOutVia: "profile" });
        await consentRecord(userId, row.phone, "withdrawn");
      }
      return status(userId, await localeOf(userId));
    },

    /** Forgets the number, withdrawing a consent in force (also with texts off, ADR 064). */
    async remove(userId: string): Promise<TextMessageStatus> {
      const row = await onOrSaved(userId);
      if (row?.phone) {
        if (row.consentedAt && !row.optedOutAt) await consentRecord(userId, row.phone, "withdrawn");
        // The throttle's counts stay: removing a number and adding it again sends no more codes.
        await update(userId, { phone: null, ...UNCONFIRMED });
      }
      return status(userId, await localeOf(userId));
    },

    /** Whether a reminder may be texted to this patient now (consent and opt-out; not the hour). */
    async recipient(userId: string): Promise<TextRecipient> {
      const [row] = await db
        .select({ number: textMessageNumbers, locale: users.locale, timeZone: users.timeZone })
        .from(users)
        .leftJoin(textMessageNumbers, eq(textMessageNumbers.userId, users.id))
        .where(eq(users.id, userId));
      const number = row?.number;
      if (!row || !number?.phone) return { ok: false, reason: "no_number" };
      if (number.confirmedAt === null) return { ok: false, reason: "not_confirmed" };
      if (number.consentedAt === null) return { ok: false, reason: "no_consent" };
      if (number.optedOutAt !== null) return { ok: false, reason: "opted_out" };
      return { ok: true, phone: number.phone, locale: toLocale(row.locale), timeZone: row.timeZone };
    },

    send: (message: Parameters<TextMessageProvider["send"]>[0]) => on().send(message),

    inboundUrl: deps.inboundUrl,

    /** Whether a webhook request is the provider's own (X-Twilio-Signature). */
    verifyInbound: (...args: Parameters<TextMessageProvider["verifyInbound"]>) => on().verifyInbound(...args),

    /**
     * A reply from a phone (Twilio's inbound webhook, already verified): STOP and its synonyms stop
     * every text to that number at once; START and UNSTOP give them back where consent was given;
     * HELP answers with the clinic's contact. Answers the TwiML Twilio replies with.
     */
    async inbound(from: string, body: string): Promise<string> {
      on();
      const word = body.trim().split(/\s+/)[0]?.toUpperCase() ?? "";
      const rows = await db
        .select({ number: textMessageNumbers, locale: users.locale })
        .from(textMessageNumbers)
        .innerJoin(users, eq(users.id, textMessageNumbers.userId))
        .where(eq(textMessageNumbers.phone, from));
      const copy = textCopy(toLocale(rows[0]?.locale));
      if (STOP_WORDS.has(word)) {
        for (const { number } of rows) {
          if (number.optedOutAt !== null) continue;
          await update(number.userId, { optedOutAt: clock.now(), optedOutVia: "reply" });
          await consentRecord(number.userId, from, "stopped");
        }
        deps.log.info({ keyword: "stop", accounts: rows.length }, "text messages stopped by a reply");
        // The carrier and Twilio confirm a STOP themselves; a message now would not be delivered.
        return twiml();
      }
      if (START_WORDS.has(word)) {
        let restarted = 0;
        for (const { number } of rows) {
          if (number.confirmedAt === null || number.consentedAt === null) continue;
          if (number.optedOutAt !== null) {
            await update(number.userId, { optedOutAt: null, optedOutVia: null });
            await consentRecord(number.userId, from, "restarted");
          }
          restarted += 1;
        }
        deps.log.info({ keyword: "start", restarted }, "a START reply");
        return twiml(restarted > 0 ? copy.restarted(deps.productName) : copy.notRestarted(deps.productName));
      }
      if (HELP_WORDS.has(word)) return twiml(copy.help(deps.productName, deps.contact));
      return twiml();
    },
  };
}

export type TextMessageService = ReturnType<typeof createTextMessageService>;
