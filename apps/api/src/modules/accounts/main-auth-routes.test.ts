import {
  AUTH_ERRORS,
  confirmEmailResponse,
  loginResponse,
  SIGN_UP_MAIL_SENT,
  userResponse,
} from "@ambercare/contracts/auth";
import { DEMO_PATIENT } from "@ambercare/contracts/demo";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { ACCESS_TOKEN_TTL_S } from "@ambercare/contracts/session";
import { visitorHeaders } from "@ambercare/contracts/visitor";
import { accessTokens, users } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "#api/modules/accounts/tokens.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  confirmSignUp,
  createTestApp,
  mailFilesTo,
  newPatient,
  readMailFiles,
  registerPatient,
  resetTokenIn,
  serviceToken,
  signUpTokenFor,
  signUpTokenIn,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
  withCaptcha,
} from "#api/test-support.ts";

const REGISTER = "/api/v1/api/auth/register";
const LOGIN = "/api/v1/api/auth/login";
const ME = "/api/v1/api/auth/me";
const LOGOUT = "/api/v1/api/auth/logout";
const FORGOT = "/api/v1/api/auth/forgot-password";

const clock = createManualClock(new Date("2025-05-01T08:00:00Z"));
let t: TestApp;
/** Each test that fails logins uses its own client address, so address limits do not interfere. */
let nextAddress = 1;
const freshAddress = () => `198.51.100.${nextAddress++}`;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000" } });
});

afterAll(async () => {
  await t.close();
});

const me = (token: string) => t.app.inject({ method: "GET", url: ME, headers: bearer(token) });

const forgot = async (email: unknown, headers: Record<string, string> = bearer(TEST_PUBLIC_API_TOKEN)) =>
  t.app.inject({ method: "POST", url: FORGOT, headers, payload: await withCaptcha(t.app, { email }) });

function login(email: string, password: string, remoteAddress = freshAddress()) {
  return t.app.inject({ method: "POST", url: LOGIN, payload: { email, password }, remoteAddress });
}

describe("POST /api/v1/api/auth/register", () => {
  it("creates an unconfirmed account, answers 202, and the e-mailed link gives a working main API token", async () => {
    const body = newPatient({ email: "  Jane.Register@Example.ORG " });
    const res = await t.app.inject({
      method: "POST",
      url: REGISTER,
      payload: await withCaptcha(t.app, body),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ data: { message: SIGN_UP_MAIL_SENT } });
    // No session before the mailbox is proved: the right password is refused with its own message
    // (and a new link replaces the first; a second later, so the mail files sort in sending order).
    clock.advance(1_000);
    const early = await login("jane.register@example.org", body.password);
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ error: AUTH_ERRORS.emailNotConfirmed, code: "EMAIL_NOT_CONFIRMED" });

    const confirmed = await confirmSignUp(t.app, await signUpTokenFor(t.app, "jane.register@example.org"));
    expect(confirmed.statusCode).toBe(200);
    const logins = confirmEmailResponse.parse(confirmed.json()).data;
    const session = loginResponse.parse(logins.main);
    expect(session).toMatchObject({ token_type: "Bearer", expires_in: 18_000 });
    expect(session.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const who = await me(session.access_token);
    expect(who.statusCode).toBe(200);
    const { data } = userResponse.parse(who.json());
    expect(data).toMatchObject({
      id: session.user_id,
      email: "jane.register@example.org",
      first_name: "Jane",
      last_name: "Doe",
      locale: "en",
      profile_completed: false,
      date_of_birth: null,
      created_at: "2025-05-01T08:00:00.000Z",
    });

    // Stored: an argon2id hash at the configured cost (never the password) and only the token's
    // SHA-256. The production cost itself is pinned in passwords.test.ts.
    const [row] = await t.db.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, session.user_id));
    const { memoryCost, timeCost, parallelism } = t.app.config.ARGON2_PARAMS;
    expect(row?.hash).toMatch(
      new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},t=${timeCost},p=${parallelism}\\$`),
    );
    const tokens = await t.db.db
      .select({ tokenHash: accessTokens.tokenHash, surface: accessTokens.surface })
      .from(accessTokens)
      .where(eq(accessTokens.userId, session.user_id));
    expect(tokens).toEqual(
      expect.arrayContaining([
        { tokenHash: hashToken(session.access_token), surface: "main" },
        { tokenHash: hashToken(logins.care.access_token), surface: "care" },
      ]),
    );
    expect(tokens).toHaveLength(2);
  });

  it("sends the sign-up link in the patient's language, text and HTML, and it works once only", async () => {
    const body = newPatient({ locale: "bg", first_name: "Мария" });
    const res = await t.app.inject({
      method: "POST",
      url: REGISTER,
      payload: await withCaptcha(t.app, body),
    });
    expect(res.statusCode).toBe(202);
    await t.app.mailer.drain();
    const [mail] = mailFilesTo(t.dataDir, body.email);
    expect(mail?.file).toMatch(/-sign-up-confirmation-[0-9a-f]{6}\.eml$/);
    expect(mail?.headers.get("subject")).toBe("Потвърдете имейл адреса си за Ambercare");
    expect(mail?.text).toContain("Здравейте, Мария,");
    expect(mail?.text).toMatch(/http:\/\/localhost:\d+\/sign-up\/confirm\?token=[A-Za-z0-9_-]{43}/);
    expect(mail?.html).toContain('<html lang="bg">');
    expect(mail?.html).toMatch(/href="http:\/\/localhost:\d+\/sign-up\/confirm\?token=[A-Za-z0-9_-]{43}"/);

    const token = signUpTokenIn(mail!);
    expect((await confirmSignUp(t.app, token)).statusCode).toBe(200);
    const again = await confirmSignUp(t.app, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: AUTH_ERRORS.signUpLinkInvalid, code: "SIGN_UP_LINK_INVALID" });
  });

  it("refuses a sign-up link after 24 hours; logging in with the password sends a new one", async () => {
    const body = newPatient();
    await t.app.inject({ method: "POST", url: REGISTER, payload: await withCaptcha(t.app, body) });
    const first = await signUpTokenFor(t.app, body.email);
    const start = clock.now();
    clock.advance(24 * 60 * 60_000 + 1);
    const late = await confirmSignUp(t.app, first);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ error: AUTH_ERRORS.signUpLinkInvalid, code: "SIGN_UP_LINK_INVALID" });

    expect((await login(body.email, "not the password at all")).statusCode).toBe(401);
    expect((await login(body.email, body.password)).statusCode).toBe(403);
    const second = await signUpTokenFor(t.app, body.email);
    expect(second).not.toBe(first);
    expect((await confirmSignUp(t.app, second)).statusCode).toBe(200);
    expect((await login(body.email, body.password)).statusCode).toBe(200);
    clock.set(start); // the later tests read the day in the mail files' names
  });

  it("lets the address's owner take over an account someone else registered, by resetting the password", async () => {
    const body = newPatient();
    await t.app.inject({ method: "POST", url: REGISTER, payload: await withCaptcha(t.app, body) });
    expect((await forgot(body.email)).statusCode).toBe(200);
    await t.app.mailer.drain();
    const reset = mailFilesTo(t.dataDir, body.email).find((m) => m.file.includes("-password-reset-"));
    const ownersPassword = "the owner's own words";
    const changed = await t.app.inject({
      method: "POST",
      url: `/auth/${t.app.config.PRODUCT_SLUG}/reset-password`,
      headers: bearer(await serviceToken(t.app)),
      payload: { token: resetTokenIn(reset!), password: ownersPassword },
    });
    expect(changed.statusCode).toBe(200);
    expect((await login(body.email, body.password)).statusCode).toBe(401);
    expect((await login(body.email, ownersPassword)).statusCode).toBe(200);
  });

  it("keeps the chosen e-mail language", async () => {
    const { access_token } = await registerPatient(t.app, { locale: "bg" });
    expect((await me(access_token)).json().data.locale).toBe("bg");
  });

  it("answers a taken address, in any letter case, as a new one, changes nothing and tells the owner", async () => {
    const first = await registerPatient(t.app, { locale: "bg" });
    const fresh = await t.app.inject({
      method: "POST",
      url: REGISTER,
      payload: await withCaptcha(t.app, newPatient()),
    });
    const res = await t.app.inject({
      method: "POST",
      url: REGISTER,
      payload: await withCaptcha(
        t.app,
        newPatient({
          email: first.email.toUpperCase(),
          password: "another quiet password",
          first_name: "Eve",
        }),
      ),
    });
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe(fresh.body);

    // The account is untouched: the first password still works, the new one does not, same name.
    expect((await login(first.email, first.password)).statusCode).toBe(200);
    expect((await login(first.email, "another quiet password")).statusCode).toBe(401);
    expect((await me(first.access_token)).json().data.first_name).toBe("Jane");

    await t.app.mailer.drain();
    const attempts = mailFilesTo(t.dataDir, first.email).filter((m) => m.file.includes("-sign-up-attempt-"));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.headers.get("subject")).toBe(
      "Някой опита да се регистрира в Ambercare с Вашия имейл адрес",
    );
    expect(attempts[0]?.text).toContain("Вие вече имате профил, затова нищо не е променено.");
    expect(attempts[0]?.text).toMatch(/http:\/\/localhost:\d+\/login/);
    expect(attempts[0]?.text).not.toContain("/sign-up/confirm");
    expect(attempts[0]?.html).toContain('<html lang="bg">');
  });

  it.each([
    ["a common password", { password: "password123" }, AUTH_ERRORS.passwordTooCommon, "PASSWORD_TOO_COMMON"],
    [
      "a common password in capitals",
      { password: "SUPERMAN1" },
      AUTH_ERRORS.passwordTooCommon,
      "PASSWORD_TOO_COMMON",
    ],
    [
      "the e-mail address",
      { email: "casey.long@example.org", password: "Casey.Long@example.org" },
      AUTH_ERRORS.passwordIsEmail,
      "PASSWORD_IS_EMAIL",
    ],
    [
      "the product name",
      { password: "my ambercare pass" },
      AUTH_ERRORS.passwordHasProductName,
      "PASSWORD_HAS_PRODUCT_NAME",
    ],
  ])("refuses %s as a password with 400 and a clear message", async (_label, overrides, message, code) => {
    const res = await t.app.inject({
      method: "POST",
      url: REGISTER,
      payload: await withCaptcha(t.app, newPatient(overrides)),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message, code });
  });

  it("takes any long enough password, with no composition rules", async () => {
    await registerPatient(t.app, { password: "aaaaaaaabbbbbbbbc" });
    await registerPatient(t.app, { password: "x".repeat(128) });
  });

  const big = "x".repeat(10_240);
  it.each([
    ["no body fields", {}],
    ["a missing password", { email: "a@example.org", first_name: "A", last_name: "B" }],
    ["a number as e-mail", { ...newPatient(), email: 42 }],
    ["an array as name", { ...newPatient(), first_name: ["Jane"] }],
    ["an invalid e-mail", { ...newPatient(), email: "not-an-email" }],
    ["a 7-character password", { ...newPatient(), password: "1234567" }],
    ["a 129-character password", { ...newPatient(), password: "p".repeat(129) }],
    ["a 10 kB name", { ...newPatient(), first_name: big }],
    ["a 10 kB e-mail", { ...newPatient(), email: `${big}@example.org` }],
    ["a 10 kB password", { ...newPatient(), password: big }],
    ["an unknown field", { ...newPatient(), is_service_account: true }],
    ["an unknown locale", { ...newPatient(), locale: "fr" }],
    ["a blank name", { ...newPatient(), last_name: "   " }],
  ])("answers 400 { error } for %s", async (_label, payload) => {
    const res = await t.app.inject({ method: "POST", url: REGISTER, payload });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(["error", "code"]);
    expect(res.json().error).toMatch(/^Invalid /);
    expect(res.json().code).toBe("VALIDATION_FAILED");
  });
});

describe("POST /api/v1/api/auth/login", () => {
  it("answers 200 with a fresh token for every login; each works on its own", async () => {
    const patient = await registerPatient(t.app);
    const first = await login(patient.email, patient.password);
    const second = await login(patient.email.toUpperCase(), patient.password);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    const a = loginResponse.parse(first.json());
    const b = loginResponse.parse(second.json());
    expect(a.user_id).toBe(patient.user_id);
    expect(new Set([patient.access_token, a.access_token, b.access_token]).size).toBe(3);
    for (const token of [patient.access_token, a.access_token, b.access_token]) {
      expect((await me(token)).statusCode).toBe(200);
    }
  });

  it("answers a wrong password and an unknown e-mail with the same 401", async () => {
    const patient = await registerPatient(t.app);
    const wrong = await login(patient.email, "not the password");
    const unknown = await login("nobody-here@example.org", patient.password);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: "Incorrect e-mail or password", code: "INVALID_CREDENTIALS" });
    expect(unknown.body).toBe(wrong.body);
  });

  it("logs the demo patient in with the documented credentials, profile complete", async () => {
    const res = await login(DEMO_PATIENT.email, DEMO_PATIENT.password);
    expect(res.statusCode).toBe(200);
    const { data } = userResponse.parse((await me(res.json().access_token)).json());
    expect(data).toMatchObject({ email: DEMO_PATIENT.email, first_name: "Dana", profile_completed: true });
  });

  it("does not log the service account in on the main API", async () => {
    const res = await login(TEST_SERVICE_ACCOUNT.email, TEST_SERVICE_ACCOUNT.password);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: AUTH_ERRORS.incorrectCredentials, code: "INVALID_CREDENTIALS" });
  });

  it.each([
    ["a missing password", { email: "a@example.org" }],
    ["a number as password", { email: "a@example.org", password: 12345678 }],
    ["a 10 kB password", { email: "a@example.org", password: "x".repeat(10_240) }],
    ["an unknown field", { email: "a@example.org", password: "whatever1", remember: true }],
    ["an empty password", { email: "a@example.org", password: "" }],
  ])("answers 400 { error } for %s", async (_label, payload) => {
    const res = await t.app.inject({ method: "POST", url: LOGIN, payload });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe("string");
    expect(res.json().code).toBe("VALIDATION_FAILED");
  });

  it("never sends a password or its hash back", async () => {
    const patient = await registerPatient(t.app);
    const bodies = [
      (await login(patient.email, patient.password)).body,
      (await me(patient.access_token)).body,
    ];
    for (const body of bodies) {
      expect(body).not.toContain("password");
      expect(body).not.toContain("$argon2");
      expect(body).not.toContain(patient.password);
    }
  });
});

describe("login throttling", () => {
  it("spaces an account's attempts out after 5 failures with waits that double, never a long lock", async () => {
    const patient = await registerPatient(t.app);
    for (let i = 0; i < 4; i++) {
      expect((await login(patient.email, `wrong-${i}-password`)).statusCode).toBe(401);
    }
    // A success forgets the failures so far.
    expect((await login(patient.email, patient.password)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await login(patient.email, `wrong-${i}-password`)).statusCode).toBe(401);
    }
    // Each attempt beyond the fifth opens a wait: 2 s, then 4 s, 8 s, … up to a minute.
    expect((await login(patient.email, "wrong-6-password")).statusCode).toBe(401);
    const waiting = await login(patient.email, patient.password);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toEqual({
      error: "Too many login attempts. Try again in 1 minute.",
      code: "TOO_MANY_LOGIN_ATTEMPTS",
    });
    expect(waiting.headers["retry-after"]).toBe("2");
    clock.advance(2_000);
    expect((await login(patient.email, "wrong-7-password")).statusCode).toBe(401);
    expect((await login(patient.email, patient.password)).headers["retry-after"]).toBe("4");

    // Someone failing on purpose at every chance never stretches a wait beyond a minute …
    for (let i = 0; i < 10; i++) {
      clock.advance(60_000);
      expect((await login(patient.email, `spite-${i}-password`)).statusCode).toBe(401);
    }
    const longest = await login(patient.email, patient.password);
    expect(longest.statusCode).toBe(429);
    expect(longest.headers["retry-after"]).toBe("60");
    // … and the owner gets in with the first attempt after it.
    clock.advance(60_000);
    expect((await login(patient.email, patient.password)).statusCode).toBe(200);
    expect((await login(patient.email, "wrong-again-password")).statusCode).toBe(401);
  });

  it("throttles an unknown e-mail the same way, so a 429 does not reveal an account", async () => {
    for (let i = 0; i < 6; i++) {
      expect((await login("ghost@example.org", "wrong-password")).statusCode).toBe(401);
    }
    expect((await login("ghost@example.org", "wrong-password")).statusCode).toBe(429);
    clock.advance(15 * 60_000);
  });

  it("limits one address to 20 failures across accounts; other addresses are unaffected", async () => {
    const patient = await registerPatient(t.app);
    const attacker = freshAddress();
    for (let i = 0; i < 20; i++) {
      const res = await login(`victim-${i}@example.org`, "wrong-password", attacker);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await login(patient.email, patient.password, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatch(/^Too many login attempts\. Try again in \d+ minutes?\.$/);
    expect((await login(patient.email, patient.password, freshAddress())).statusCode).toBe(200);
    clock.advance(15 * 60_000);
    expect((await login(patient.email, patient.password, attacker)).statusCode).toBe(200);
  });

  it("does not count the web server's own address (no visitor named) per address", async () => {
    for (let i = 0; i < 22; i++) {
      const res = await login(`typo-${i}@example.org`, "wrong-password", "127.0.0.1");
      expect(res.statusCode).toBe(401);
    }
  });

  it("uses the visitor's address that the web server signs for", async () => {
    const visitor = freshAddress();
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: LOGIN,
        payload: { email: `forwarded-${i}@example.org`, password: "wrong-password" },
        headers: visitorHeaders(TEST_PUBLIC_API_TOKEN, visitor),
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: "POST",
      url: LOGIN,
      payload: { email: "forwarded-x@example.org", password: "wrong-password" },
      headers: visitorHeaders(TEST_PUBLIC_API_TOKEN, visitor),
    });
    expect(blocked.statusCode).toBe(429);
    clock.advance(15 * 60_000);
  });

  it("never throttles right passwords sent in parallel, however many are still being checked", async () => {
    const patient = await registerPatient(t.app);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => login(patient.email, patient.password, freshAddress())),
    );
    expect(answers.map((res) => res.statusCode)).toEqual(Array.from({ length: 16 }, () => 200));
  });

  it("lets right passwords in parallel with fewer than 5 wrong ones through, then still spaces guesses", async () => {
    const patient = await registerPatient(t.app);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        login(patient.email, i % 3 === 0 ? `wrong-${i}-password` : patient.password),
      ),
    );
    const codes = answers.map((res) => res.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(8);
    expect(codes.filter((code) => code === 401)).toHaveLength(4);
    // After a success, five failures in a row still open the waits.
    expect((await login(patient.email, patient.password)).statusCode).toBe(200);
    for (let i = 0; i < 6; i++) {
      expect((await login(patient.email, `again-${i}-password`)).statusCode).toBe(401);
    }
    expect((await login(patient.email, patient.password)).statusCode).toBe(429);
    clock.advance(15 * 60_000);
  });

  it("counts attempts sent in parallel: a burst cannot slip past the limit", async () => {
    const patient = await registerPatient(t.app);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(patient.email, `wrong-${i}-password`)),
    );
    const codes = answers.map((res) => res.statusCode).sort();
    // Five failures, then one attempt that opens the first wait; the rest wait.
    expect(codes.filter((code) => code === 401)).toHaveLength(6);
    expect(codes.filter((code) => code === 429)).toHaveLength(6);
    clock.advance(15 * 60_000);
  });
});

describe("GET /api/v1/api/auth/me", () => {
  it.each([
    ["no Authorization header", {}],
    ["an empty header", { authorization: "" }],
    ["an empty bearer", { authorization: "Bearer " }],
    ["another scheme", { authorization: "Basic dXNlcjpwYXNz" }],
    ["an unknown token", bearer("x".repeat(43))],
    ["the public bearer", bearer(TEST_PUBLIC_API_TOKEN)],
  ])("answers 401 'Invalid access token' for %s", async (_label, headers) => {
    const res = await t.app.inject({ method: "GET", url: ME, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
  });

  it("stops accepting a token 5 hours after its login", async () => {
    const patient = await registerPatient(t.app);
    // Used every 20 minutes, so the session never ends for being idle, only for its age.
    const step = 20 * 60_000;
    const steps = Math.floor((ACCESS_TOKEN_TTL_S * 1000 - 1_000) / step);
    for (let i = 0; i < steps; i++) {
      clock.advance(step);
      expect((await me(patient.access_token)).statusCode).toBe(200);
    }
    clock.advance(ACCESS_TOKEN_TTL_S * 1000 - 1_000 - steps * step);
    expect((await me(patient.access_token)).statusCode).toBe(200);
    clock.advance(1_000);
    const expired = await me(patient.access_token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
  });

  it("answers 403 to the service account's token: it is nobody's account", async () => {
    const res = await me(await serviceToken(t.app));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: AUTH_ERRORS.ownAccountOnly, code: "OWN_ACCOUNT_ONLY" });
  });
});

describe("idle sessions", () => {
  it("ends a patient's session after 30 minutes without a call, however long the token would live", async () => {
    const patient = await registerPatient(t.app);
    clock.advance(29 * 60_000);
    expect((await me(patient.access_token)).statusCode).toBe(200);
    // Each use starts the 30 minutes again.
    clock.advance(29 * 60_000);
    expect((await me(patient.access_token)).statusCode).toBe(200);
    clock.advance(30 * 60_000);
    const idle = await me(patient.access_token);
    expect(idle.statusCode).toBe(401);
    expect(idle.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
  });

  it("takes its length from SESSION_IDLE_MINUTES", async () => {
    const short = await createTestApp({ clock, seed: false, env: { SESSION_IDLE_MINUTES: "5" } });
    try {
      const patient = await registerPatient(short.app);
      const whoAmI = () =>
        short.app.inject({ method: "GET", url: ME, headers: bearer(patient.access_token) });
      clock.advance(4 * 60_000);
      expect((await whoAmI()).statusCode).toBe(200);
      clock.advance(5 * 60_000);
      expect((await whoAmI()).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe("POST /api/v1/api/auth/logout", () => {
  it("revokes the token: it no longer works anywhere, and other sessions go on", async () => {
    const patient = await registerPatient(t.app);
    const other = (await login(patient.email, patient.password)).json().access_token as string;
    const res = await t.app.inject({ method: "POST", url: LOGOUT, headers: bearer(patient.access_token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { logged_out: true } });

    expect((await me(patient.access_token)).statusCode).toBe(401);
    const care = await t.app.inject({
      method: "GET",
      url: `/ambercare/get-user-details/${patient.user_id}`,
      headers: bearer(patient.access_token),
    });
    expect(care.statusCode).toBe(401);
    const again = await t.app.inject({ method: "POST", url: LOGOUT, headers: bearer(patient.access_token) });
    expect(again.statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
  });

  it("revokes a care API token too, so the web can end both sessions here", async () => {
    const patient = await registerPatient(t.app);
    const care = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: { email: patient.email, password: patient.password },
    });
    const careToken = care.json().access_token as string;
    const res = await t.app.inject({
      method: "POST",
      url: LOGOUT,
      headers: bearer(careToken),
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect((await me(careToken)).statusCode).toBe(401);
  });

  it("answers 401 without a token and 400 for an unexpected body", async () => {
    const anonymous = await t.app.inject({ method: "POST", url: LOGOUT });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    const patient = await registerPatient(t.app);
    const odd = await t.app.inject({
      method: "POST",
      url: LOGOUT,
      headers: bearer(patient.access_token),
      payload: { everywhere: "x".repeat(10_240) },
    });
    expect(odd.statusCode).toBe(400);
    expect((await me(patient.access_token)).statusCode).toBe(200);
  });
});

describe("POST /api/v1/api/auth/forgot-password", () => {
  it("needs the shared public bearer: none, a user's token or another value get 401", async () => {
    const patient = await registerPatient(t.app);
    for (const headers of [{}, bearer(patient.access_token), bearer(`${TEST_PUBLIC_API_TOKEN}x`)]) {
      const res = await forgot(patient.email, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: INVALID_ACCESS_TOKEN, code: "INVALID_ACCESS_TOKEN" });
    }
  });

  it("answers 200 { sent: true } whether or not the account exists, and mails only an account", async () => {
    await t.app.mailer.drain();
    const before = readMailFiles(t.dataDir).length;
    const patient = await registerPatient(t.app);
    await t.app.mailer.drain();
    expect(readMailFiles(t.dataDir)).toHaveLength(before + 2); // the sign-up link and the welcome e-mail

    const known = await forgot(patient.email.toUpperCase());
    const unknown = await forgot("no-such-patient@example.org");
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ data: { sent: true } });
    expect(unknown.body).toBe(known.body);

    await t.app.mailer.drain();
    const mails = readMailFiles(t.dataDir);
    expect(mails).toHaveLength(before + 3);
    const [welcome, reset] = mailFilesTo(t.dataDir, patient.email)
      .filter((m) => !m.file.includes("-sign-up-confirmation-"))
      .sort((a, b) => (a.file.includes("welcome") ? -1 : b.file.includes("welcome") ? 1 : 0));
    expect(welcome?.file).toMatch(/^2025-05-01T\d\d-\d\d-\d\d-\d{3}Z-\d{6}-welcome-[0-9a-f]{6}\.eml$/);
    expect(reset?.file).toMatch(/-password-reset-[0-9a-f]{6}\.eml$/);
    expect(reset?.text).toMatch(/\/reset-password\?token=[A-Za-z0-9_-]{43}/);
  });

  it("sends nothing for the service account's address", async () => {
    await t.app.mailer.drain();
    const before = readMailFiles(t.dataDir).length;
    expect((await forgot(TEST_SERVICE_ACCOUNT.email)).statusCode).toBe(200);
    await t.app.mailer.drain();
    expect(readMailFiles(t.dataDir)).toHaveLength(before);
  });

  it.each([
    ["a missing e-mail", undefined],
    ["a number", 7],
    ["a 10 kB string", `${"x".repeat(10_240)}@example.org`],
    ["an invalid address", "nope"],
  ])("answers 400 { error } for %s", async (_label, email) => {
    const res = await forgot(email);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe("string");
    expect(res.json().code).toBe("VALIDATION_FAILED");
  });
});
