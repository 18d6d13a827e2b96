import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
// The web reaches the API only over HTTP; this test serves the real API app (on PGlite) on a
// loopback port for it, so it builds that app here (biome.jsonc allows it in web test files only).
import { createOffsetClock } from "@ambercare/api/src/platform/clock.ts";
import {
  bearer,
  createTestApp,
  mailFilesTo,
  registerPatient,
  resetTokenIn,
  serviceToken,
  signUpTokenFor,
  solveCaptcha,
  TEST_PUBLIC_API_TOKEN,
  TEST_SERVICE_ACCOUNT,
  type TestApp,
} from "@ambercare/api/src/test-support.ts";
import { AUTH_ERRORS, tooManyLoginAttempts } from "@ambercare/contracts/auth";
import { VISITOR_HEADER } from "@ambercare/contracts/visitor";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeApiError, retryAfterMinutes } from "#app/lib/api-errors.ts";

/**
 * The account flows of accounts.server.ts and the clients of api.server.ts against the real API,
 * served on a loopback port. The modules read their API URLs and credentials from the environment
 * when they load, so they are imported after it is set. `seen` is every call the API received from
 * the web (its hooks record method, path, bearer, the visitor it named and body).
 */

const PUBLIC_TOKEN = TEST_PUBLIC_API_TOKEN;
const JANE = { email: "jane@example.org", password: "correct horse" };

type Seen = { method: string; path: string; authorization?: string; visitor?: string; body: unknown };

let testApp: TestApp;
const clock = createOffsetClock();
let seen: Seen[] = [];
/** The tokens the API issued (logins and registrations), in order. */
let issued: string[] = [];
/** The tokens the API revoked on logout. */
let revoked: string[] = [];
/** The care API stands unavailable (as its proxy answers when the API behind it is down). */
let careLoginDown = false;
/** Another care login of the same account lands just before the web server's trade (a real race). */
let loginElsewhereFirst = false;
/** Marks that other login, so the record of the web server's own calls leaves it out. */
const ELSEWHERE_HEADER = "x-test-other-device";
let janeId: string;

beforeAll(async () => {
  testApp = await createTestApp({ seed: false, clock });
  const { app } = testApp;
  app.addHook("onRequest", async (request, reply) => {
    if (careLoginDown && request.url.startsWith("/auth/login")) {
      await reply.code(503).send({ error: "Service unavailable" });
    }
    if (loginElsewhereFirst && request.url === "/auth/login/companion") {
      loginElsewhereFirst = false;
      const elsewhere = await app.inject({
        method: "POST",
        url: "/auth/login",
        headers: { ...bearer(PUBLIC_TOKEN), [ELSEWHERE_HEADER]: "1" },
        payload: JANE,
      });
      if (elsewhere.statusCode !== 200) throw new Error(`the other login failed: ${elsewhere.body}`);
    }
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const path = request.url.split("?")[0] ?? "";
    if (
      !request.headers[ELSEWHERE_HEADER] &&
      reply.statusCode < 300 &&
      /\/(login|login\/companion|register)$/.test(path) &&
      typeof payload === "string"
    ) {
      issued.push((JSON.parse(payload) as { access_token: string }).access_token);
    }
    if (reply.statusCode === 200 && path === "/api/v1/api/auth/logout") {
      revoked.push(request.headers.authorization?.replace(/^Bearer /, "") ?? "");
    }
    return payload;
  });
  app.addHook("onResponse", async (request) => {
    if (request.headers[ELSEWHERE_HEADER]) return;
    seen.push({
      method: request.method,
      path: request.url.split("?")[0] ?? "",
      authorization: request.headers.authorization,
      visitor: request.headers[VISITOR_HEADER] as string | undefined,
      body: request.body ?? undefined,
    });
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  janeId = (await registerPatient(app, JANE)).user_id;
  vi.stubEnv("API_URL", origin);
  vi.stubEnv("PUBLIC_API_TOKEN", PUBLIC_TOKEN);
  vi.stubEnv("SERVICE_ACCOUNT_EMAIL", TEST_SERVICE_ACCOUNT.email);
  vi.stubEnv("SERVICE_ACCOUNT_PASSWORD", TEST_SERVICE_ACCOUNT.password);
  vi.stubEnv("PRODUCT_SLUG", app.config.PRODUCT_SLUG);
}, 120_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await testApp.close();
});

beforeEach(() => {
  seen = [];
  issued = [];
  revoked = [];
  careLoginDown = false;
  loginElsewhereFirst = false;
});

// Loaded once the environment points at the API above.
const load = async () => ({
  accounts: await import("#app/features/accounts/accounts.server.ts"),
  api: await import("#app/lib/api.server.ts"),
  client: await import("#app/lib/api-client.server.ts"),
});

const visitor = { clientIp: "203.0.113.7" };
const uniqueEmail = (name: string) => `${name}-${randomUUID()}@example.org`;

/** Jane's two logins (her account has no second factor, so the password opens a session). */
async function loggedIn(accounts: Awaited<ReturnType<typeof load>>["accounts"]) {
  const result = await accounts.logIn(JANE, undefined);
  if (result.status !== "ok") throw new Error("expected a session");
  return result.logins;
}

/** A fresh solved captcha, fetched from the API directly (not one of the web's calls in `seen`). */
async function captcha(): Promise<string> {
  const solved = await solveCaptcha(testApp.app);
  seen = [];
  return solved;
}

/** A password-reset token for `email`, as the reset e-mail carries it. */
async function resetToken(email: string): Promise<string> {
  const { app, dataDir } = testApp;
  await app.inject({
    method: "POST",
    url: `/auth/${app.config.PRODUCT_SLUG}/reset-password/token`,
    headers: bearer(await serviceToken(app)),
    payload: { email },
  });
  await app.mailer.drain();
  seen = [];
  issued = [];
  const resets = mailFilesTo(dataDir, email).filter((mail) => mail.file.includes("password-reset"));
  const latest = resets.sort((a, b) => a.file.localeCompare(b.file)).at(-1);
  if (!latest) throw new Error("no reset e-mail");
  return resetTokenIn(latest);
}

describe("logging in on both APIs", () => {
  it("logs in on the main API, then trades that login for the care API's with the public bearer, forwarding the visitor", async () => {
    const { accounts } = await load();
    const result = await accounts.logIn(JANE, visitor);
    expect(result).toEqual({
      status: "ok",
      logins: {
        main: { accessToken: issued[0], userId: janeId },
        care: { accessToken: issued[1], userId: janeId },
      },
    });
    if (result.status !== "ok") throw new Error("expected a session");
    const { logins } = result;
    expect(logins.main.accessToken).not.toBe(logins.care.accessToken);
    expect(seen.map((r) => [r.path, r.authorization, r.visitor])).toEqual([
      ["/api/v1/api/auth/login", undefined, "203.0.113.7"],
      ["/auth/login/companion", `Bearer ${PUBLIC_TOKEN}`, "203.0.113.7"],
    ]);
    // The password went to the main API only: the care API got the main login's token.
    expect(seen[1]?.body).toEqual({ main_access_token: logins.main.accessToken });
  });

  it("logs in on the care API with the password when the trade is refused", async () => {
    const { accounts } = await load();
    loginElsewhereFirst = true;
    const result = await accounts.logIn(JANE, visitor);
    expect(result.status).toBe("ok");
    expect(seen.map((r) => [r.path, r.authorization])).toEqual([
      ["/api/v1/api/auth/login", undefined],
      ["/auth/login/companion", `Bearer ${PUBLIC_TOKEN}`],
      ["/auth/login", `Bearer ${PUBLIC_TOKEN}`],
    ]);
  });

  it("stops at a refused main login, and maps it to 'wrong e-mail or password'", async () => {
    const { accounts, client } = await load();
    const error = await accounts
      .logIn({ email: JANE.email, password: "wrong" }, undefined)
      .catch((e: unknown) => e);
    if (!client.isApiError(error)) throw new Error("expected an ApiError");
    expect(seen).toHaveLength(1);
    expect(describeApiError(error)).toEqual({
      message: { key: "auth.errors.wrongCredentials" },
      status: 401,
    });
  });

  it("revokes the main token when the care login fails, so no half session remains", async () => {
    const { accounts } = await load();
    careLoginDown = true;
    const error = await accounts.logIn(JANE, undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(issued).toHaveLength(1);
    expect(revoked).toEqual([issued[0]]);
  });

  it("says how many minutes to wait when throttled", async () => {
    const { accounts, client } = await load();
    const email = uniqueEmail("throttled");
    // Past five wrong passwords the account's attempts are spaced out: the sixth opens a 2-second
    // wait, and an attempt during it is refused with Retry-After (rounded up to a minute).
    for (let attempt = 0; attempt < 6; attempt++) {
      await accounts.logIn({ email, password: "x" }, undefined).catch(() => undefined);
    }
    const error = await accounts.logIn({ email, password: "x" }, undefined).catch((e: unknown) => e);
    if (!client.isApiError(error)) throw new Error("expected an ApiError");
    expect(error.headers.get("Retry-After")).toBe("2");
    expect(describeApiError(error)).toEqual({
      message: { key: "auth.errors.throttled", values: { count: 1 } },
      status: 429,
    });
  });
});

describe("signing up", () => {
  it("registers on the main API in the visitor's language and starts no session", async () => {
    const { accounts } = await load();
    const input = { email: uniqueEmail("new"), password: "long enough", first_name: "N", last_name: "E" };
    expect(await accounts.signUp(input, "bg", visitor, await captcha())).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: "/api/v1/api/auth/register", body: { ...input, locale: "bg" } });
  });

  it("confirms with the e-mailed token (service credential): both logins of the new patient", async () => {
    const { accounts } = await load();
    const input = { email: uniqueEmail("new"), password: "long enough", first_name: "N", last_name: "E" };
    await accounts.signUp(input, "en", visitor, await captcha());
    const token = await signUpTokenFor(testApp.app, input.email);
    seen = [];
    const result = await accounts.confirmSignUp(token);
    if (result.status !== "ok") throw new Error("expected a confirmed sign-up");
    expect(result.logins.care.userId).toBe(result.logins.main.userId);
    const confirm = seen.find((call) => call.path === "/auth/ambercare/confirm-email");
    expect(confirm).toMatchObject({ method: "POST", body: { token } });
    const me = await testApp.app.inject({
      method: "GET",
      url: "/api/v1/api/auth/me",
      headers: bearer(result.logins.main.accessToken),
    });
    expect(me.json().data.email).toBe(input.email);
    // The link works once.
    expect(await accounts.confirmSignUp(token)).toEqual({ status: "invalid-link" });
  });

  it("answers a taken e-mail like a new one, and maps a common password to its field", async () => {
    const { accounts, client } = await load();
    const taken = await accounts.signUp(
      { ...JANE, password: "long enough", first_name: "J", last_name: "D" },
      "en",
      undefined,
      await captcha(),
    );
    expect(taken).toBeUndefined();
    const common = await accounts
      .signUp(
        { email: uniqueEmail("x"), password: "password123", first_name: "J", last_name: "D" },
        "en",
        undefined,
        await captcha(),
      )
      .catch((e: unknown) => e);
    if (!client.isApiError(common)) throw new Error("expected an ApiError");
    expect(describeApiError(common)).toEqual({
      field: "password",
      message: { key: "forms.errors.password.common" },
      status: 400,
    });
  });

  it("tells a patient who logs in before confirming to open the new link", async () => {
    const { accounts, client } = await load();
    const input = { email: uniqueEmail("early"), password: "long enough", first_name: "N", last_name: "E" };
    await accounts.signUp(input, "en", visitor, await captcha());
    const refused = await accounts
      .logIn({ email: input.email, password: input.password }, visitor)
      .catch((e: unknown) => e);
    if (!client.isApiError(refused)) throw new Error("expected an ApiError");
    expect(describeApiError(refused)).toEqual({
      message: { key: "auth.errors.emailNotConfirmed" },
      status: 403,
    });
  });
});

describe("logging out", () => {
  it("revokes both tokens and never throws, even when the API refuses", async () => {
    const { accounts } = await load();
    const logins = await loggedIn(accounts);
    await accounts.revokeSession({
      userId: janeId,
      careUserId: janeId,
      accessToken: logins.main.accessToken,
      careAccessToken: logins.care.accessToken,
    });
    expect(revoked.sort()).toEqual([logins.main.accessToken, logins.care.accessToken].sort());
    await expect(
      accounts.revokeSession({
        userId: janeId,
        careUserId: janeId,
        accessToken: "gone",
        careAccessToken: "gone-too",
      }),
    ).resolves.toBeUndefined();
  });
});

describe("a 401 with the user's token is the logout event", () => {
  it("throws the redirect to /login?redirectTo=… with every session cookie cleared", async () => {
    const { api } = await load();
    const request = new Request("http://localhost/my-profile/messages?thread=3");
    const user = { userId: janeId, careUserId: janeId, accessToken: "expired", careAccessToken: "expired" };
    for (const call of [
      () => api.userApi(request, user).accounts.me(),
      () => api.userApi(request, user).accounts.updateUser({ body: { user_id: janeId } }),
    ]) {
      const thrown = await call().catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(Response);
      const response = thrown as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(
        `/login?redirectTo=${encodeURIComponent("/my-profile/messages?thread=3")}`,
      );
      expect(response.headers.getSetCookie()).toHaveLength(12);
      expect(response.headers.getSetCookie().every((c) => c.includes("Max-Age=0"))).toBe(true);
    }
  });

  it("passes a live token's answer through", async () => {
    const { accounts, api } = await load();
    const logins = await loggedIn(accounts);
    const request = new Request("http://localhost/my-profile");
    const me = await api
      .userApi(request, {
        userId: janeId,
        careUserId: janeId,
        accessToken: logins.main.accessToken,
        careAccessToken: "x",
      })
      .accounts.me();
    expect(me.data.email).toBe("jane@example.org");
  });
});

describe("public calls", () => {
  it("asks for a reset link with the shared public bearer", async () => {
    const { accounts } = await load();
    const solved = await captcha();
    await accounts.requestPasswordReset(JANE.email, visitor, solved);
    expect(seen).toEqual([
      {
        method: "POST",
        path: "/api/v1/api/auth/forgot-password",
        authorization: `Bearer ${PUBLIC_TOKEN}`,
        visitor: "203.0.113.7",
        body: { email: "jane@example.org", captcha: solved },
      },
    ]);
  });

  it("resets the password with the service token; an unknown link reads 'invalid link'", async () => {
    const { accounts, api } = await load();
    const { email } = await registerPatient(testApp.app, { email: uniqueEmail("reset") });
    const token = await resetToken(email);
    api.careService.invalidate();
    await expect(accounts.resetPassword(token, "a new password")).resolves.toBe("ok");
    expect(seen.map((r) => r.path)).toEqual([
      "/auth/login",
      `/auth/${testApp.app.config.PRODUCT_SLUG}/reset-password`,
    ]);
    expect(seen[1]?.authorization).toMatch(/^Bearer /);
    expect(seen[1]?.authorization).toBe(`Bearer ${issued[0]}`);
    await expect(accounts.resetPassword("unknown-reset-token-0000", "a new password")).resolves.toBe(
      "invalid-link",
    );
    const common = await accounts
      .resetPassword(await resetToken(email), "password123")
      .catch((e: unknown) => e);
    if (!(await load()).client.isApiError(common)) throw new Error("expected an ApiError");
    expect(describeApiError(common, { fields: { password: "new_password" } })).toMatchObject({
      field: "new_password",
      message: { key: "forms.errors.newPassword.common" },
    });
  });

  it("says 'service unavailable' when the service login fails", async () => {
    const { accounts, api } = await load();
    const token = await resetToken(JANE.email);
    api.careService.invalidate();
    careLoginDown = true;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(accounts.resetPassword(token, "a new password")).resolves.toBe("service-unavailable");
    expect(warn).toHaveBeenCalledWith("care service login failed (HTTP 503)");
    warn.mockRestore();
  });
});

describe("API errors as form messages", () => {
  const error = async (status: number, message: string, headers?: HeadersInit, code?: string) => {
    const { client } = await load();
    return new client.ApiError(message, {
      status,
      body: { error: message, ...(code ? { code } : {}) },
      method: "POST",
      path: "/x",
      headers: new Headers(headers),
    });
  };

  it.each([
    [
      "WRONG_CURRENT_PASSWORD",
      AUTH_ERRORS.wrongCurrentPassword,
      400,
      "current_password",
      "forms.errors.currentPassword.incorrect",
    ],
    ["PASSWORD_IS_EMAIL", AUTH_ERRORS.passwordIsEmail, 400, "password", "forms.errors.password.isEmail"],
    [
      "PASSWORD_HAS_PRODUCT_NAME",
      AUTH_ERRORS.passwordHasProductName,
      400,
      "password",
      "forms.errors.password.hasProductName",
    ],
    [
      "DATE_OF_BIRTH_IN_FUTURE",
      AUTH_ERRORS.dateOfBirthInFuture,
      400,
      "date_of_birth",
      "forms.errors.dateOfBirth.future",
    ],
  ])("puts %s next to its field", async (code, text, status, field, key) => {
    expect(describeApiError(await error(status, text, undefined, code))).toEqual({
      field,
      message: { key },
      status,
    });
  });

  it("reads the wait from Retry-After, or else from the text", async () => {
    const fromHeader = await error(429, "Slow down", { "Retry-After": "61" });
    expect(retryAfterMinutes(fromHeader)).toBe(2);
    const fromDate = await error(429, "Slow down", { "Retry-After": new Date(90_000).toUTCString() });
    expect(retryAfterMinutes(fromDate, 0)).toBe(2);
    expect(retryAfterMinutes(await error(429, tooManyLoginAttempts(15)))).toBe(15);
    expect(retryAfterMinutes(await error(429, "?"))).toBe(1);
  });

  it("says 'service unavailable' for an unreachable API or a 5xx, and never shows an unknown 4xx's English text", async () => {
    for (const status of [0, 500, 502]) {
      expect(describeApiError(await error(status, "boom"))).toEqual({
        message: { key: "auth.errors.serviceUnavailable" },
        status: 503,
      });
    }
    expect(describeApiError(await error(400, "Something new"))).toEqual({
      message: { key: "auth.errors.unexpected" },
      status: 400,
    });
    expect(describeApiError(await error(400, "Something new", undefined, "NOT_A_KNOWN_CODE"))).toEqual({
      message: { key: "auth.errors.unexpected" },
      status: 400,
    });
  });

  it("puts a field message on the form when the form has no such field", async () => {
    const { accounts } = await load();
    const failure = describeApiError(
      await error(400, AUTH_ERRORS.passwordTooCommon, undefined, "PASSWORD_TOO_COMMON"),
    );
    expect(accounts.failureResult({ email: "a@b.co", password: "secret" }, failure)).toEqual({
      status: "error",
      values: { email: "a@b.co" },
      fieldErrors: { password: { key: "forms.errors.password.common" } },
    });
    expect(accounts.failureResult({ first_name: "A" }, failure)).toEqual({
      status: "error",
      values: { first_name: "A" },
      fieldErrors: {},
      formError: { key: "forms.errors.password.common" },
    });
  });
});
