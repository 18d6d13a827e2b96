import { ERROR_CODES, type ErrorCode } from "@ambercare/contracts/error-codes";
import { MEMBERSHIP_ERRORS } from "@ambercare/contracts/membership";
import { describe, expect, it } from "vitest";
import { ApiError } from "#app/lib/api-client.server.ts";
import {
  API_ERROR_MESSAGES,
  type ApiFailure,
  describeApiError,
  type ErrorField,
  type ErrorRule,
} from "#app/lib/api-errors.ts";
import { ownFieldMessage } from "#app/lib/field-messages.ts";
import { FORM_FIELDS } from "#app/lib/forms.ts";
import { createI18n, lookup } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

const LOCALES = { en, bg } as const;

/** The strings a rule can show: its key, or its plural forms when it counts (and its words without the figure). */
function keysOf(rule: ErrorRule): string[] {
  if (rule.counts) return [`${rule.key}_one`, `${rule.key}_other`, rule.counts.otherwise];
  return rule.wait ? [`${rule.key}_one`, `${rule.key}_other`] : [rule.key];
}

function refused(status: number, code?: string, error = "An English sentence from the API"): ApiError {
  return new ApiError(error, {
    status,
    body: code ? { error, code } : { error },
    method: "POST",
    path: "/x",
  });
}

function shown(failure: ApiFailure, locale: keyof typeof LOCALES): string {
  const { t } = createI18n(locale, LOCALES[locale]);
  if (!("key" in failure.message)) throw new Error("an API failure must be a translation key");
  return t(failure.message.key, failure.message.values);
}

describe("API error codes → messages", () => {
  it("has a rule for every code of the contracts catalogue and nothing else", () => {
    expect(Object.keys(API_ERROR_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it.each(Object.keys(LOCALES) as Array<keyof typeof LOCALES>)(
    "has a %s message for every code",
    (locale) => {
      const missing = ERROR_CODES.flatMap((code) =>
        keysOf(API_ERROR_MESSAGES[code])
          .filter((key) => !lookup(LOCALES[locale], key)?.trim())
          .map((key) => `${code}: ${key}`),
      );
      expect(missing).toEqual([]);
    },
  );

  it("has a message in both languages for every field a code is shown beside, under any form name", () => {
    const renamings: Partial<Record<ErrorField, string[]>> = {
      password: ["password", "new_password"],
      current_password: ["current_password", "password"],
    };
    const missing: string[] = [];
    for (const code of ERROR_CODES) {
      const rule = API_ERROR_MESSAGES[code];
      if (!rule.field || !rule.kind) continue;
      for (const name of renamings[rule.field] ?? [rule.field]) {
        const key = ownFieldMessage(name, rule.kind) ?? rule.key;
        for (const locale of Object.keys(LOCALES) as Array<keyof typeof LOCALES>) {
          if (!lookup(LOCALES[locale], key)) missing.push(`${code} as ${name} (${locale}): ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(FORM_FIELDS).toContain("current_password");
  });

  it("puts card problems next to their card field and password rules next to the form's password field", () => {
    expect(describeApiError(refused(400, "CARD_NUMBER_INVALID"))).toEqual({
      message: { key: "billing.checkout.errors.cardNumber.invalid" },
      status: 400,
      field: "card_number",
    });
    expect(describeApiError(refused(400, "CVC_INVALID")).field).toBe("cvc");
    expect(
      describeApiError(refused(400, "PASSWORD_IS_EMAIL"), { fields: { password: "new_password" } }),
    ).toEqual({
      message: { key: "forms.errors.newPassword.isEmail" },
      status: 400,
      field: "new_password",
    });
    expect(
      describeApiError(refused(400, "WRONG_CURRENT_PASSWORD"), { fields: { current_password: "password" } }),
    ).toEqual({ message: { key: "dataRights.errors.wrongPassword" }, status: 400, field: "password" });
  });

  it("gives a generic code the form's own fallback, and a code it does not know the generic message", () => {
    const fallback = { key: "consultation.form.errors.rejected" } as const;
    expect(describeApiError(refused(400, "VALIDATION_FAILED"), { fallback }).message).toEqual(fallback);
    expect(describeApiError(refused(400, "VALIDATION_FAILED")).message).toEqual({
      key: "apiErrors.rejected",
    });
    expect(describeApiError(refused(409, "SOMETHING_FROM_A_NEWER_API")).message).toEqual({
      key: "auth.errors.unexpected",
    });
    expect(describeApiError(refused(409)).message).toEqual({ key: "auth.errors.unexpected" });
  });

  it("reads an outage as 503 'service unavailable', in the form's own words when it has them", () => {
    expect(describeApiError(refused(0))).toEqual({
      message: { key: "auth.errors.serviceUnavailable" },
      status: 503,
    });
    expect(describeApiError(refused(502, "PAYMENT_PROVIDER_UNAVAILABLE"))).toEqual({
      message: { key: "auth.errors.serviceUnavailable" },
      status: 503,
    });
    expect(describeApiError(refused(403, "SERVICE_TOKEN_REQUIRED")).status).toBe(503);
    expect(
      describeApiError(refused(500, "INTERNAL_ERROR"), { unavailable: "billing.errors.serviceUnavailable" })
        .message,
    ).toEqual({ key: "billing.errors.serviceUnavailable" });
  });

  it("counts the minutes of a throttled call from Retry-After", () => {
    const error = new ApiError("Too many requests", {
      status: 429,
      body: { error: "Too many requests", code: "RATE_LIMITED" },
      method: "POST",
      path: "/x",
      headers: new Headers({ "Retry-After": "125" }),
    });
    expect(describeApiError(error).message).toEqual({ key: "auth.errors.throttled", values: { count: 3 } });
  });
});

describe("a refusal with the API's figures", () => {
  const notMissedYet = (details?: unknown) =>
    new ApiError("A visit can be marked missed only when…", {
      status: 409,
      body: { error: "A visit can be marked missed only when…", code: "NOT_MISSED_YET", details },
      method: "POST",
      path: "/api/care-team/visits/x/missed",
    });

  it.each([
    [25, "en", "25 minutes"],
    [1, "en", "1 minute after"],
    [25, "bg", "25 минути"],
    [1, "bg", "1 минута"],
  ] as const)(
    "says NOT_MISSED_YET's grace of %i minutes as the API gives it (%s)",
    (minutes, locale, words) => {
      const failure = describeApiError(notMissedYet({ minutes }));
      expect(failure).toEqual({
        message: { key: "apiErrors.notMissedYet", values: { count: minutes } },
        status: 409,
      });
      const text = shown(failure, locale);
      expect(text).toContain(words);
      expect(text).not.toContain("10");
    },
  );

  it("says it without a figure when the answer carries none, or a malformed one", () => {
    for (const details of [undefined, { minutes: "ten" }, { "Bad Key": 3 }, "10"]) {
      const failure = describeApiError(notMissedYet(details));
      expect(failure.message).toEqual({ key: "apiErrors.notMissedYetGrace" });
      for (const locale of ["en", "bg"] as const) expect(shown(failure, locale)).not.toMatch(/\d/);
    }
  });
});

describe("check-in that has not opened, with the API's figure", () => {
  const notOpen = (details?: unknown) =>
    new ApiError("Check-in opens…", {
      status: 409,
      body: { error: "Check-in opens…", code: "CHECK_IN_NOT_OPEN", details },
      method: "POST",
      path: "/ambercare/bookings/x/check-in",
    });

  it.each([
    [30, "en", "30 minutes before"],
    [1, "en", "1 minute before"],
    [30, "bg", "30 минути"],
    [1, "bg", "1 минута"],
  ] as const)("says check-in opens %i minutes before, as the API gives it (%s)", (minutes, locale, words) => {
    const failure = describeApiError(notOpen({ minutes }));
    expect(failure.message).toEqual({ key: "apiErrors.checkInNotOpen", values: { count: minutes } });
    const text = shown(failure, locale);
    expect(text).toContain(words);
    expect(text).not.toContain("15");
  });

  it("says it without a figure when the answer carries none", () => {
    const failure = describeApiError(notOpen());
    expect(failure.message).toEqual({ key: "apiErrors.checkInNotOpenWindow" });
    for (const locale of ["en", "bg"] as const) expect(shown(failure, locale)).not.toMatch(/\d/);
  });
});

describe("a Bulgarian visitor's failure", () => {
  it.each<[ErrorCode, string]>([
    ["CARD_DECLINED", MEMBERSHIP_ERRORS.cardDeclined],
    ["CARD_EXPIRED", MEMBERSHIP_ERRORS.cardExpired],
    ["EMAIL_NOT_CONFIRMED", "Confirm your e-mail address first: we have sent you a new link."],
    ["PROVIDER_DOES_NOT_OFFER_VISIT_TYPE", "This provider does not offer this type of consultation"],
  ])("reads %s in Bulgarian, not the API's English", (code, english) => {
    const text = shown(describeApiError(refused(400, code, english)), "bg");
    expect(text).toMatch(/[а-яА-Я]/);
    expect(text).not.toContain(english);
    expect(text).not.toBe(shown(describeApiError(refused(400, code, english)), "en"));
  });

  it("reads an unknown code and a throttled call in Bulgarian too", () => {
    expect(shown(describeApiError(refused(418, "NEW_CODE", "I'm a teapot")), "bg")).toBe(
      lookup(bg, "auth.errors.unexpected"),
    );
    expect(shown(describeApiError(refused(429, "RATE_LIMITED")), "bg")).toMatch(/[а-яА-Я].*1/);
  });
});
