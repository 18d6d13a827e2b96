import { describe, expect, it } from "vitest";
import {
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "./account-limits.ts";
import {
  AUTH_ERRORS,
  completeProfileRequest,
  emailSchema,
  loginRequest,
  registerRequest,
  TOO_MANY_LOGIN_ATTEMPTS,
  tooManyLoginAttempts,
  updateUserRequest,
  userSchema,
} from "./auth.ts";
import { DEMO_PATIENT } from "./demo.ts";

const userId = "7d9c3a2e-4f1b-4c8a-9e2d-1a2b3c4d5e6f";

describe("account schemas", () => {
  it("normalises e-mail addresses", () => {
    expect(emailSchema.parse("  Jane.Doe@Example.ORG ")).toBe("jane.doe@example.org");
    expect(emailSchema.safeParse("not-an-email").success).toBe(false);
    expect(emailSchema.safeParse(`${"a".repeat(250)}@example.org`).success).toBe(false);
  });

  it("refuses unknown fields and short passwords", () => {
    expect(loginRequest.safeParse({ email: "a@b.co", password: "x", admin: true }).success).toBe(false);
    expect(
      registerRequest.safeParse({ email: "a@b.co", password: "short", first_name: "A", last_name: "B" })
        .success,
    ).toBe(false);
    expect(
      registerRequest.safeParse({ email: "a@b.co", password: "long enough", first_name: "A", last_name: "B" })
        .success,
    ).toBe(true);
  });

  it("takes spaces inside a passphrase but not a password of spaces alone", () => {
    const register = (password: string) =>
      registerRequest.safeParse({ email: "a@b.co", password, first_name: "A", last_name: "B" });
    expect(register(" quiet lantern ").success).toBe(true);
    const blank = register(" ".repeat(8));
    expect(blank.success).toBe(false);
    expect(blank.error?.issues).toEqual([expect.objectContaining({ params: { kind: "required" } })]);
  });

  it("accepts only real dates, US states and the spec's genders in a profile", () => {
    const profile = {
      user_id: userId,
      first_name: "Jane",
      last_name: "Doe",
      date_of_birth: "1990-02-28",
      phone: "+1 (206) 555-0100",
      address_line1: "1 Pine St",
      city: "Seattle",
      state: "WA",
      zip: "98101",
      gender: "Prefer Not to Answer",
    };
    expect(completeProfileRequest.safeParse(profile).success).toBe(true);
    expect(completeProfileRequest.safeParse({ ...profile, date_of_birth: "1990-02-30" }).success).toBe(false);
    expect(completeProfileRequest.safeParse({ ...profile, state: "PR" }).success).toBe(false);
    expect(completeProfileRequest.safeParse({ ...profile, gender: "Male" }).success).toBe(false);
    expect(updateUserRequest.safeParse({ user_id: userId, phone: "206 555 0100" }).success).toBe(true);
    expect(updateUserRequest.safeParse({ phone: "206 555 0100" }).success).toBe(false);
  });
});

describe("account additions", () => {
  it("takes an optional e-mail language on registration and update", () => {
    const base = { email: "a@b.co", password: "long enough", first_name: "A", last_name: "B" };
    expect(registerRequest.parse({ ...base, locale: "bg" }).locale).toBe("bg");
    expect(registerRequest.parse(base).locale).toBeUndefined();
    expect(registerRequest.safeParse({ ...base, locale: "de" }).success).toBe(false);
    expect(updateUserRequest.safeParse({ user_id: userId, locale: "en" }).success).toBe(true);
  });

  it("words the login throttle in whole minutes, singular for one", () => {
    expect(tooManyLoginAttempts(15)).toBe("Too many login attempts. Try again in 15 minutes.");
    expect(tooManyLoginAttempts(0.2)).toBe("Too many login attempts. Try again in 1 minute.");
    expect(tooManyLoginAttempts(4.01)).toBe("Too many login attempts. Try again in 5 minutes.");
    expect(TOO_MANY_LOGIN_ATTEMPTS.exec(tooManyLoginAttempts(7))?.[1]).toBe("7");
  });

  it("has distinct, non-empty error texts", () => {
    const texts = Object.values(AUTH_ERRORS);
    expect(new Set(texts).size).toBe(texts.length);
    expect(AUTH_ERRORS.incorrectCredentials).toBe("Incorrect e-mail or password");
    expect(AUTH_ERRORS.ownAccountOnly).toBe("You can only access your own account");
  });

  it("has no password field in the user as the APIs send it", () => {
    expect(Object.keys(userSchema.shape).some((key) => key.includes("password"))).toBe(false);
  });

  it("documents a demo patient whose credentials pass the request schemas", () => {
    expect(
      loginRequest.safeParse({ email: DEMO_PATIENT.email, password: DEMO_PATIENT.password }).success,
    ).toBe(true);
  });
});

describe("account limits shared with the forms", () => {
  it("are the limits the schemas enforce", () => {
    const base = { email: "a@b.co", first_name: "A", last_name: "B" };
    const withPassword = (length: number) =>
      registerRequest.safeParse({ ...base, password: "p".repeat(length) }).success;
    expect(withPassword(PASSWORD_MIN_LENGTH - 1)).toBe(false);
    expect(withPassword(PASSWORD_MIN_LENGTH)).toBe(true);
    expect(withPassword(PASSWORD_MAX_LENGTH)).toBe(true);
    expect(withPassword(PASSWORD_MAX_LENGTH + 1)).toBe(false);
    expect(
      registerRequest.safeParse({
        ...base,
        password: "long enough",
        first_name: "n".repeat(NAME_MAX_LENGTH + 1),
      }).success,
    ).toBe(false);
    expect(emailSchema.safeParse(`${"a".repeat(EMAIL_MAX_LENGTH - 12)}@example.org`).success).toBe(true);
    expect(emailSchema.safeParse(`${"a".repeat(EMAIL_MAX_LENGTH - 11)}@example.org`).success).toBe(false);
  });
});
