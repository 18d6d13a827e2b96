import {
  AUTH_ERRORS,
  confirmEmailResponse,
  loginResponse,
  SIGN_UP_MAIL_SENT,
} from "@ambercare/contracts/auth";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { accessTokens, passwordResetTokens } from "@ambercare/db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "#api/modules/accounts/tokens.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  mailFilesTo,
  newPatient,
  registerPatient,
  resetTokenIn,
  serviceToken,
  signUpTokenFor,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
} from "#api/test-support.ts";

const LOGIN = "/auth/login";
const REGISTER = "/auth/register-ambercare";
const RESET_TOKEN = "/auth/ambercare/reset-password/token";
const RESET = "/auth/ambercare/reset-password";
const CONFIRM = "/auth/ambercare/confirm-email";
const CHANGE = "/auth/ambercare/change-password";
const ME = "/api/v1/api/auth/me";

const clock = createManualClock(new Date("2025-06-01T10:00:00Z"));
let t: TestApp;
let service: string;
let address = 1;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000" } });
  service = await serviceToken(t.app);
});

afterAll(async () => {
  await t.close();
});

const post = (url: string, token: string | undefined, payload?: unknown) =>
  t.app.inject({
    method: "POST",
    url,
    headers: token === undefined ? {} : bearer(token),
    remoteAddress: `203.0.113.${address++ % 250}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const me = (token: string) => t.app.inject({ method: "GET", url: ME, headers: bearer(token) });

/** Asks for a reset e-mail (as the web does, with the service token) and returns the link's token. */
async function requestReset(email: string): Promise<string> {
  const res = await post(RESET_TOKEN, service, { email });
  expect(res.statusCode).toBe(200);
  await t.app.mailer.drain();
  const mails = mailFilesTo(t.dataDir, email).filter((mail) => mail.file.includes("password-reset"));
  const latest = mails.sort((a, b) => a.file.localeCompare(b.file)).at(-1);
  if (!latest) throw new Error("no reset e-mail");
  return resetTokenIn(latest);
}

describe("POST /auth/login (care)", () => {
  it("needs the shared public bearer", async () => {
    const patient = await registerPatient(t.app);
    const body = { email: patient.email, password: patient.password };
    for (const token of [undefined, patient.access_token, "nope"]) {
      const res = await post(LOGIN, token, body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    }
  });

  it("logs a patient in with a care token that both APIs accept", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(LOGIN, TEST_PUBLIC_API_TOKEN, {
      email: patient.email,
      password: patient.password,
    });
    expect(res.statusCode).toBe(200);
    const login = loginResponse.parse(res.json());
    expect(login).toMatchObject({ user_id: patient.user_id, token_type: "Bearer", expires_in: 18_000 });
    const [row] = await t.db.db
      .select({ surface: accessTokens.surface })
      .from(accessTokens)
      .where(eq(accessTokens.tokenHash, hashToken(login.access_token)));
    expect(row?.surface).toBe("care");
    expect((await me(login.access_token)).statusCode).toBe(200);
    const details = await t.app.inject({
      method: "GET",
      url: `/ambercare/get-user-details/${patient.user_id}`,
      headers: bearer(login.access_token),
    });
    expect(details.statusCode).toBe(200);
  });

  it("logs the service account in", async () => {
    const res = await post(LOGIN, TEST_PUBLIC_API_TOKEN, TEST_SERVICE_ACCOUNT);
    expect(res.statusCode).toBe(200);
    expect(loginResponse.parse(res.json()).access_token).not.toBe(service);
  });

  it("answers wrong credentials with the main API's 401", async () => {
    const res = await post(LOGIN, TEST_PUBLIC_API_TOKEN, { email: "x@example.org", password: "wrong-pass" });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: AUTH_ERRORS.incorrectCredentials, code: "INVALID_CREDENTIALS" });
    const bad = await post(LOGIN, TEST_PUBLIC_API_TOKEN, { email: "x@example.org" });
    expect(bad.statusCode).toBe(400);
  });

  it("never locks the service account out by failures on its address", async () => {
    for (let i = 0; i < 8; i++) {
      const res = await post(LOGIN, TEST_PUBLIC_API_TOKEN, {
        ...TEST_SERVICE_ACCOUNT,
        password: `bad-${i}-guess`,
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await post(LOGIN, TEST_PUBLIC_API_TOKEN, TEST_SERVICE_ACCOUNT)).statusCode).toBe(200);
  });
});

describe("POST /auth/login/companion", () => {
  const COMPANION = "/auth/login/companion";
  /** A fresh main API login of the patient (what the web server trades right after it). */
  async function mainLogin(patient: { email: string; password: string }): Promise<string> {
    // The test clock stands still: a second later, so the login is not simultaneous with the last one.
    clock.advance(1_000);
    const res = await post("/api/v1/api/auth/login", undefined, {
      email: patient.email,
      password: patient.password,
    });
    expect(res.statusCode).toBe(200);
    return loginResponse.parse(res.json()).access_token;
  }
  const refused = { error: AUTH_ERRORS.companionLoginRefused, code: "COMPANION_LOGIN_REFUSED" };

  it("trades a fresh main login for a care token of the same patient, once", async () => {
    const patient = await registerPatient(t.app);
    const main = await mainLogin(patient);
    const res = await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: main });
    expect(res.statusCode).toBe(200);
    const care = loginResponse.parse(res.json());
    expect(care.user_id).toBe(patient.user_id);
    const [row] = await t.db.db
      .select({ surface: accessTokens.surface })
      .from(accessTokens)
      .where(eq(accessTokens.tokenHash, hashToken(care.access_token)));
    expect(row?.surface).toBe("care");
    const details = await t.app.inject({
      method: "GET",
      url: `/ambercare/get-user-details/${patient.user_id}`,
      headers: bearer(care.access_token),
    });
    expect(details.statusCode).toBe(200);
    // The same main login a second time: refused, so a leaked main token mints no more sessions.
    const again = await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: main });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(refused);
  });

  it("makes the traded care token and its main login one session: a password change keeps both", async () => {
    const patient = await registerPatient(t.app);
    const otherMain = await mainLogin(patient);
    const main = await mainLogin(patient);
    const traded = await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: main });
    const care = loginResponse.parse(traded.json()).access_token;
    const changed = await post(CHANGE, care, {
      user_id: patient.user_id,
      old_password: patient.password,
      new_password: "brand new passphrase",
    });
    expect(changed.statusCode).toBe(200);
    // The web server's session goes on with both of its tokens; every other session has ended.
    expect((await me(main)).statusCode).toBe(200);
    const details = await t.app.inject({
      method: "GET",
      url: `/ambercare/get-user-details/${patient.user_id}`,
      headers: bearer(care),
    });
    expect(details.statusCode).toBe(200);
    expect((await me(otherMain)).statusCode).toBe(401);
    expect((await me(patient.access_token)).statusCode).toBe(401);
  });

  it("refuses a main login older than a minute, a care token, a revoked one and a made-up one", async () => {
    const patient = await registerPatient(t.app);
    const stale = await mainLogin(patient);
    clock.advance(61_000);
    const fresh = await mainLogin(patient);
    const care = loginResponse.parse(
      (await post(LOGIN, TEST_PUBLIC_API_TOKEN, { email: patient.email, password: patient.password })).json(),
    ).access_token;
    const revoked = await mainLogin(patient);
    expect((await post("/api/v1/api/auth/logout", revoked, {})).statusCode).toBe(200);
    for (const token of [stale, care, revoked, "a-token-nobody-was-ever-given"]) {
      const res = await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: token });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(refused);
    }
    // `fresh` came before the care login above, so it is refused too; a login after it is traded.
    expect((await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: fresh })).statusCode).toBe(401);
    const latest = await mainLogin(patient);
    expect((await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: latest })).statusCode).toBe(
      200,
    );
  });

  it("refuses the login that sign-up confirmation made, which already has its care half", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: patient.access_token });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(refused);
  });

  it("needs the shared public bearer and a token-shaped body", async () => {
    const patient = await registerPatient(t.app);
    const main = await mainLogin(patient);
    for (const token of [undefined, main, "nope"]) {
      const res = await post(COMPANION, token, { main_access_token: main });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    }
    for (const body of [{}, { main_access_token: "short" }, { main_access_token: main, extra: 1 }]) {
      const res = await post(COMPANION, TEST_PUBLIC_API_TOKEN, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty("error");
    }
    // Still unspent after the refusals above.
    expect((await post(COMPANION, TEST_PUBLIC_API_TOKEN, { main_access_token: main })).statusCode).toBe(200);
  });
});

describe("POST /auth/register-ambercare", () => {
  it("needs the service account's token: 401 without one, 403 for a patient's", async () => {
    const body = newPatient();
    expect((await post(REGISTER, undefined, body)).statusCode).toBe(401);
    expect((await post(REGISTER, TEST_PUBLIC_API_TOKEN, body)).statusCode).toBe(401);
    const patient = await registerPatient(t.app);
    const res = await post(REGISTER, patient.access_token, body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: AUTH_ERRORS.serviceTokenRequired, code: "SERVICE_TOKEN_REQUIRED" });
  });

  it("creates the account, answers 202, and the e-mailed link gives a care token of the new patient", async () => {
    const body = newPatient({ locale: "bg" });
    const res = await post(REGISTER, service, body);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ data: { message: SIGN_UP_MAIL_SENT } });
    const confirmed = await post(CONFIRM, service, { token: await signUpTokenFor(t.app, body.email) });
    expect(confirmed.statusCode).toBe(200);
    const login = loginResponse.parse(confirmEmailResponse.parse(confirmed.json()).data.care);
    const who = await me(login.access_token);
    expect(who.json().data).toMatchObject({ email: body.email, locale: "bg", id: login.user_id });
    const [row] = await t.db.db
      .select({ surface: accessTokens.surface })
      .from(accessTokens)
      .where(eq(accessTokens.tokenHash, hashToken(login.access_token)));
    expect(row?.surface).toBe("care");

    // The same address again: the same answer as for a new one, and its owner is told by e-mail.
    const again = await post(REGISTER, service, body);
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe(res.body);
    await t.app.mailer.drain();
    const attempt = mailFilesTo(t.dataDir, body.email).find((m) => m.file.includes("-sign-up-attempt-"));
    expect(attempt?.text).toContain("Някой току-що опита да създаде профил в Ambercare");
  });

  it("confirm-email needs the service account's token and a usable link", async () => {
    const token = "x".repeat(43);
    expect((await post(CONFIRM, undefined, { token })).statusCode).toBe(401);
    expect((await post(CONFIRM, TEST_PUBLIC_API_TOKEN, { token })).statusCode).toBe(401);
    const forged = await post(CONFIRM, service, { token });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: AUTH_ERRORS.signUpLinkInvalid, code: "SIGN_UP_LINK_INVALID" });
    expect((await post(CONFIRM, service, { token: "short" })).statusCode).toBe(400);
  });

  it("applies the password rules and the input schema", async () => {
    const common = await post(REGISTER, service, newPatient({ password: "iloveyou1" }));
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({ error: AUTH_ERRORS.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
    const unknownField = await post(REGISTER, service, { ...newPatient(), role: "admin" });
    expect(unknownField.statusCode).toBe(400);
  });
});

describe("password reset", () => {
  it("reset-password/token answers 200 for any address and needs the service token", async () => {
    const patient = await registerPatient(t.app);
    expect((await post(RESET_TOKEN, undefined, { email: patient.email })).statusCode).toBe(401);
    expect((await post(RESET_TOKEN, TEST_PUBLIC_API_TOKEN, { email: patient.email })).statusCode).toBe(401);
    expect((await post(RESET_TOKEN, patient.access_token, { email: patient.email })).statusCode).toBe(403);
    const unknown = await post(RESET_TOKEN, service, { email: "nobody-at-all@example.org" });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ data: { sent: true } });
    expect((await post(RESET_TOKEN, service, { email: 42 })).statusCode).toBe(400);
  });

  it("sets a new password once; every old session ends; the link cannot be reused", async () => {
    const patient = await registerPatient(t.app);
    const careLogin = await post(LOGIN, TEST_PUBLIC_API_TOKEN, {
      email: patient.email,
      password: patient.password,
    });
    const careToken = careLogin.json().access_token as string;
    const token = await requestReset(patient.email);

    const res = await post(RESET, service, { token, password: "fresh meadow lantern" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { password_changed: true } });

    // Both the main and the care token of before the reset are revoked.
    expect((await me(patient.access_token)).statusCode).toBe(401);
    expect((await me(careToken)).statusCode).toBe(401);
    const live = await t.db.db
      .select({ hash: accessTokens.tokenHash })
      .from(accessTokens)
      .where(and(eq(accessTokens.userId, patient.user_id), isNull(accessTokens.revokedAt)));
    expect(live).toEqual([]);

    const oldPassword = await post("/api/v1/api/auth/login", undefined, {
      email: patient.email,
      password: patient.password,
    });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await post("/api/v1/api/auth/login", undefined, {
      email: patient.email,
      password: "fresh meadow lantern",
    });
    expect(newPassword.statusCode).toBe(200);

    const reuse = await post(RESET, service, { token, password: "another fine passphrase" });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toEqual({ error: AUTH_ERRORS.resetLinkInvalid, code: "RESET_LINK_INVALID" });
  });

  it("refuses a link older than 1 hour", async () => {
    const patient = await registerPatient(t.app);
    const token = await requestReset(patient.email);
    // The patient keeps using the site meanwhile, so the session does not end for being idle.
    for (let i = 0; i < 3; i++) {
      clock.advance(20 * 60_000);
      expect((await me(patient.access_token)).statusCode).toBe(200);
    }
    const res = await post(RESET, service, { token, password: "fresh meadow lantern" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: AUTH_ERRORS.resetLinkInvalid, code: "RESET_LINK_INVALID" });
    expect((await me(patient.access_token)).statusCode).toBe(200);
  });

  it("accepts a link just before its hour is up", async () => {
    const patient = await registerPatient(t.app);
    const token = await requestReset(patient.email);
    clock.advance(60 * 60_000 - 1_000);
    expect((await post(RESET, service, { token, password: "fresh meadow lantern" })).statusCode).toBe(200);
  });

  it("invalidates an older unused link when a new one is requested", async () => {
    const patient = await registerPatient(t.app);
    const older = await requestReset(patient.email);
    clock.advance(1_000);
    const newer = await requestReset(patient.email);
    expect(newer).not.toBe(older);
    expect((await post(RESET, service, { token: older, password: "fresh meadow lantern" })).statusCode).toBe(
      400,
    );
    expect((await post(RESET, service, { token: newer, password: "fresh meadow lantern" })).statusCode).toBe(
      200,
    );
  });

  it("refuses a common password without spending the link", async () => {
    const patient = await registerPatient(t.app);
    const token = await requestReset(patient.email);
    const weak = await post(RESET, service, { token, password: "qwertyuiop" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ error: AUTH_ERRORS.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
    expect((await post(RESET, service, { token, password: "fresh meadow lantern" })).statusCode).toBe(200);
  });

  it("stores only the reset token's hash, and a made-up token gets the same 400", async () => {
    const patient = await registerPatient(t.app);
    const token = await requestReset(patient.email);
    const rows = await t.db.db
      .select({ tokenHash: passwordResetTokens.tokenHash })
      .from(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.userId, patient.user_id),
          eq(passwordResetTokens.purpose, "password-reset"),
        ),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.tokenHash).not.toBe(token);
    const forged = await post(RESET, service, { token: "A".repeat(43), password: "fresh meadow lantern" });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: AUTH_ERRORS.resetLinkInvalid, code: "RESET_LINK_INVALID" });
  });

  it("limits reset e-mails to 5 an hour per account, still answering 200", async () => {
    const patient = await registerPatient(t.app);
    for (let i = 0; i < 7; i++) {
      expect((await post(RESET_TOKEN, service, { email: patient.email })).statusCode).toBe(200);
    }
    await t.app.mailer.drain();
    const resets = mailFilesTo(t.dataDir, patient.email).filter((m) => m.file.includes("password-reset"));
    expect(resets).toHaveLength(5);
  });

  it.each([
    ["a missing token", { password: "fresh meadow lantern" }],
    ["a short token", { token: "abc", password: "fresh meadow lantern" }],
    ["a 10 kB token", { token: "x".repeat(10_240), password: "fresh meadow lantern" }],
    ["a short password", { token: "A".repeat(43), password: "short" }],
    ["an unknown field", { token: "A".repeat(43), password: "fresh meadow lantern", user_id: "x" }],
  ])("answers 400 { error } for %s", async (_label, payload) => {
    const res = await post(RESET, service, payload);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe("string");
    expect(res.json().code).toBe("VALIDATION_FAILED");
  });
});

describe("POST /auth/ambercare/change-password", () => {
  it("changes the own password with the right current one", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(CHANGE, patient.access_token, {
      user_id: patient.user_id,
      old_password: patient.password,
      new_password: "brand new passphrase",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { password_changed: true } });
    const login = await post("/api/v1/api/auth/login", undefined, {
      email: patient.email,
      password: "brand new passphrase",
    });
    expect(login.statusCode).toBe(200);
  });

  it("ends the account's other sessions, keeps the one that changed it, and tells the owner by e-mail", async () => {
    const patient = await registerPatient(t.app);
    const other = await post("/api/v1/api/auth/login", undefined, {
      email: patient.email,
      password: patient.password,
    });
    const otherToken = other.json().access_token as string;
    expect((await me(otherToken)).statusCode).toBe(200);

    const res = await post(CHANGE, patient.access_token, {
      user_id: patient.user_id,
      old_password: patient.password,
      new_password: "brand new passphrase",
    });
    expect(res.statusCode).toBe(200);
    expect((await me(otherToken)).statusCode).toBe(401);
    expect((await me(patient.access_token)).statusCode).toBe(200);

    await t.app.mailer.drain();
    const notices = mailFilesTo(t.dataDir, patient.email).filter((m) => m.file.includes("password-changed"));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.headers.get("subject")).toBe("Your Ambercare password was changed");
    expect(notices[0]!.text).toContain("/forgot-password");
    expect(notices[0]!.text).not.toContain("brand new passphrase");
  });

  it("answers 400 for a wrong current password and for a refused new one", async () => {
    const patient = await registerPatient(t.app);
    const wrong = await post(CHANGE, patient.access_token, {
      user_id: patient.user_id,
      old_password: "not my password",
      new_password: "brand new passphrase",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: AUTH_ERRORS.wrongCurrentPassword, code: "WRONG_CURRENT_PASSWORD" });
    const weak = await post(CHANGE, patient.access_token, {
      user_id: patient.user_id,
      old_password: patient.password,
      new_password: "password1",
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ error: AUTH_ERRORS.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
  });

  it("throttles guessing the current password with a stolen token", async () => {
    const patient = await registerPatient(t.app);
    for (let i = 0; i < 6; i++) {
      const res = await post(CHANGE, patient.access_token, {
        user_id: patient.user_id,
        old_password: `guess-${i}-password`,
        new_password: "brand new passphrase",
      });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await post(CHANGE, patient.access_token, {
      user_id: patient.user_id,
      old_password: patient.password,
      new_password: "brand new passphrase",
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers["retry-after"]).toBe("2");
    clock.advance(15 * 60_000);
  });

  it("works only on the token's own account: 403 for another patient and for the service", async () => {
    const jane = await registerPatient(t.app);
    const john = await registerPatient(t.app);
    const body = { user_id: john.user_id, old_password: john.password, new_password: "brand new passphrase" };
    for (const token of [jane.access_token, service]) {
      const res = await post(CHANGE, token, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });
    }
    expect((await post(CHANGE, undefined, body)).statusCode).toBe(401);
    const bad = await post(CHANGE, john.access_token, { ...body, user_id: "not-a-uuid" });
    expect(bad.statusCode).toBe(400);
  });
});
