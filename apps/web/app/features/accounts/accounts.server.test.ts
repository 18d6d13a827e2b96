import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AUTH_ERRORS, tooManyLoginAttempts } from "@ambercare/contracts/auth";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { describeApiError, retryAfterMinutes } from "#app/lib/api-errors.ts";

/**
 * The account flows of accounts.server.ts and the clients of api.server.ts against a real local
 * HTTP server that answers as the API contract says (ADR 010). The modules read their API URLs and
 * credentials from the environment when they load, so they are imported after it is set.
 */

const PUBLIC_TOKEN = "public-bearer-token-0123456789abcdef";
const SERVICE = { email: "service@ambercare.invalid", password: "service-password-123" };
const USER_ID = "7d9c3a2e-4f1b-4c8a-9e2d-1a2b3c4d5e6f";
const RESET_TOKEN = "valid-reset-token-0123456789";

type Seen = { method: string; path: string; authorization?: string; visitor?: string; body: unknown };

let server: Server;
let origin: string;
let seen: Seen[] = [];
let users = new Map<string, string>();
let live = new Set<string>();
let revoked: string[] = [];
let careLoginDown = false;
let counter = 0;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(body));
}

function issue(res: ServerResponse, status: number, prefix: string) {
  counter += 1;
  const token = `${prefix}-${counter}`;
  live.add(token);
  send(res, status, { access_token: token, token_type: "Bearer", expires_in: 18_000, user_id: USER_ID });
}

const account = {
  id: USER_ID,
  email: "jane@example.org",
  first_name: "Jane",
  last_name: "Doe",
  date_of_birth: "1990-02-28",
  phone: "206 555 0100",
  address_line1: "1 Pine St",
  address_line2: null,
  city: "Seattle",
  state: "WA",
  zip: "98101",
  gender: "female",
  locale: "en",
  profile_completed: true,
  created_at: "2026-11-22T05:00:00.000Z",
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = (await readBody(req)) as Record<string, string> | undefined;
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const authorization = req.headers.authorization;
    const token = authorization?.replace(/^Bearer /, "") ?? "";
    seen.push({
      method: req.method ?? "",
      path,
      authorization,
      visitor: req.headers["x-ambercare-visitor"] as string | undefined,
      body,
    });
    switch (path) {
      case "/api/v1/api/auth/register": {
        if (!body) return send(res, 400, { error: "Invalid request", code: "VALIDATION_FAILED" });
        if (users.has(body.email ?? ""))
          return send(res, 409, { error: AUTH_ERRORS.emailTaken, code: "EMAIL_TAKEN" });
        if (body.password === "password123")
          return send(res, 400, { error: AUTH_ERRORS.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
        users.set(body.email ?? "", body.password ?? "");
        return issue(res, 201, "main");
      }
      case "/api/v1/api/auth/login": {
        if (body?.email === "throttled@example.org")
          return send(
            res,
            429,
            { error: tooManyLoginAttempts(3), code: "TOO_MANY_LOGIN_ATTEMPTS" },
            { "Retry-After": "125" },
          );
        if (users.get(body?.email ?? "") !== body?.password)
          return send(res, 401, { error: AUTH_ERRORS.incorrectCredentials, code: "INVALID_CREDENTIALS" });
        return issue(res, 200, "main");
      }
      case "/auth/login": {
        if (token !== PUBLIC_TOKEN)
          return send(res, 401, { error: "Invalid access token", code: "INVALID_ACCESS_TOKEN" });
        // As the API: the login body is strict.
        if (Object.keys(body ?? {}).some((key) => key !== "email" && key !== "password"))
          return send(res, 400, { error: "Invalid body" });
        if (careLoginDown) return send(res, 503, { error: "Service unavailable" });
        if (body?.email === SERVICE.email && body.password === SERVICE.password)
          return issue(res, 200, "service");
        if (users.get(body?.email ?? "") !== body?.password)
          return send(res, 401, { error: AUTH_ERRORS.incorrectCredentials, code: "INVALID_CREDENTIALS" });
        return issue(res, 200, "care");
      }
      case "/api/v1/api/auth/logout": {
        if (body === undefined) return send(res, 400, { error: "Invalid body: expected object" });
        if (!live.delete(token))
          return send(res, 401, { error: "Invalid access token", code: "INVALID_ACCESS_TOKEN" });
        revoked.push(token);
        return send(res, 200, { data: { logged_out: true } });
      }
      case "/api/v1/api/auth/forgot-password":
        if (token !== PUBLIC_TOKEN)
          return send(res, 401, { error: "Invalid access token", code: "INVALID_ACCESS_TOKEN" });
        return send(res, 200, { data: { sent: true } });
      case "/auth/ambercare/reset-password": {
        if (!token.startsWith("service-") || !live.has(token))
          return send(res, 401, { error: "Invalid access token", code: "INVALID_ACCESS_TOKEN" });
        if (body?.token !== RESET_TOKEN)
          return send(res, 400, { error: AUTH_ERRORS.resetLinkInvalid, code: "RESET_LINK_INVALID" });
        if (body.password === "password123")
          return send(res, 400, { error: AUTH_ERRORS.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
        return send(res, 200, { data: { password_changed: true } });
      }
      case "/ambercare/update-user":
      case "/api/v1/api/auth/me":
        if (!live.has(token))
          return send(res, 401, { error: "Invalid access token", code: "INVALID_ACCESS_TOKEN" });
        return send(res, 200, { data: account });
      default:
        return send(res, 404, { error: "No route" });
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.stubEnv("API_URL", origin);
  vi.stubEnv("PUBLIC_API_TOKEN", PUBLIC_TOKEN);
  vi.stubEnv("SERVICE_ACCOUNT_EMAIL", SERVICE.email);
  vi.stubEnv("SERVICE_ACCOUNT_PASSWORD", SERVICE.password);
  vi.stubEnv("PRODUCT_SLUG", "ambercare");
});

afterAll(() => {
  vi.unstubAllEnvs();
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  seen = [];
  users = new Map([["jane@example.org", "correct horse"]]);
  live = new Set();
  revoked = [];
  careLoginDown = false;
  counter = 0;
});

// Loaded once the environment points at the server above.
const load = async () => ({
  accounts: await import("#app/features/accounts/accounts.server.ts"),
  api: await import("#app/lib/api.server.ts"),
  client: await import("#app/lib/api-client.server.ts"),
});

const visitor = { clientIp: "203.0.113.7" };
const SESSION = { userId: USER_ID, careUserId: USER_ID };

describe("logging in on both APIs", () => {
  it("logs in on the main API, then on the care API with the public bearer, forwarding the visitor", async () => {
    const { accounts } = await load();
    const logins = await accounts.logIn({ email: "jane@example.org", password: "correct horse" }, visitor);
    expect(logins).toEqual({
      main: { accessToken: "main-1", userId: USER_ID },
      care: { accessToken: "care-2", userId: USER_ID },
    });
    expect(seen.map((r) => [r.path, r.authorization, r.visitor])).toEqual([
      ["/api/v1/api/auth/login", undefined, "203.0.113.7"],
      ["/auth/login", `Bearer ${PUBLIC_TOKEN}`, "203.0.113.7"],
    ]);
  });

  it("stops at a refused main login, and maps it to 'wrong e-mail or password'", async () => {
    const { accounts, client } = await load();
    const error = await accounts
      .logIn({ email: "jane@example.org", password: "wrong" }, undefined)
      .catch((e: unknown) => e);
    expect(client.isApiError(error)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(describeApiError(error as never)).toEqual({
      message: { key: "auth.errors.wrongCredentials" },
      status: 401,
    });
  });

  it("revokes the main token when the care login fails, so no half session remains", async () => {
    const { accounts } = await load();
    careLoginDown = true;
    const error = await accounts
      .logIn({ email: "jane@example.org", password: "correct horse" }, undefined)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(revoked).toEqual(["main-1"]);
  });

  it("says how many minutes to wait when throttled", async () => {
    const { accounts } = await load();
    const error = await accounts
      .logIn({ email: "throttled@example.org", password: "x" }, undefined)
      .catch((e: unknown) => e);
    expect(describeApiError(error as never)).toEqual({
      message: { key: "auth.errors.throttled", values: { count: 3 } },
      status: 429,
    });
  });
});

describe("signing up", () => {
  it("registers on the main API in the visitor's language, then logs in on the care API", async () => {
    const { accounts } = await load();
    const input = { email: "new@example.org", password: "long enough", first_name: "N", last_name: "E" };
    const result = await accounts.signUp(input, "bg", visitor);
    expect(result).toEqual({
      status: "ok",
      logins: {
        main: { accessToken: "main-1", userId: USER_ID },
        care: { accessToken: "care-2", userId: USER_ID },
      },
    });
    expect(seen[0]).toMatchObject({ path: "/api/v1/api/auth/register", body: { ...input, locale: "bg" } });
    expect(seen[1]).toMatchObject({
      path: "/auth/login",
      body: { email: input.email, password: input.password },
    });
  });

  it("maps a taken e-mail and a common password to their fields", async () => {
    const { accounts } = await load();
    const taken = await accounts
      .signUp(
        { email: "jane@example.org", password: "long enough", first_name: "J", last_name: "D" },
        "en",
        undefined,
      )
      .catch((e: unknown) => e);
    expect(describeApiError(taken as never)).toEqual({
      field: "email",
      message: { key: "forms.errors.email.taken" },
      status: 409,
    });
    const common = await accounts
      .signUp(
        { email: "x@example.org", password: "password123", first_name: "J", last_name: "D" },
        "en",
        undefined,
      )
      .catch((e: unknown) => e);
    expect(describeApiError(common as never)).toEqual({
      field: "password",
      message: { key: "forms.errors.password.common" },
      status: 400,
    });
  });

  it("reports an account whose care login failed, and revokes its main token", async () => {
    const { accounts } = await load();
    careLoginDown = true;
    const result = await accounts.signUp(
      { email: "new@example.org", password: "long enough", first_name: "N", last_name: "E" },
      "en",
      undefined,
    );
    expect(result).toEqual({ status: "login-failed" });
    expect(revoked).toEqual(["main-1"]);
  });
});

describe("logging out", () => {
  it("revokes both tokens and never throws, even when the API refuses", async () => {
    const { accounts } = await load();
    live = new Set(["main-9", "care-9"]);
    await accounts.revokeSession({ ...SESSION, accessToken: "main-9", careAccessToken: "care-9" });
    expect(revoked.sort()).toEqual(["care-9", "main-9"]);
    await expect(
      accounts.revokeSession({ ...SESSION, accessToken: "gone", careAccessToken: "gone-too" }),
    ).resolves.toBeUndefined();
  });
});

describe("a 401 with the user's token is the logout event (spec §8)", () => {
  it("throws the redirect to /login?redirectTo=… with every session cookie cleared", async () => {
    const { api } = await load();
    const request = new Request("http://localhost/my-profile/messages?thread=3");
    const user = { ...SESSION, accessToken: "expired", careAccessToken: "expired" };
    for (const call of [
      () => api.userApis(request, user).main.get("/api/auth/me"),
      () => api.userApis(request, user).care.post("/ambercare/update-user", { body: {} }),
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
    const { api } = await load();
    live.add("main-live");
    const request = new Request("http://localhost/my-profile");
    const me = await api
      .userApis(request, { ...SESSION, accessToken: "main-live", careAccessToken: "x" })
      .main.get<{ data: { email: string } }>("/api/auth/me");
    expect(me.data.email).toBe("jane@example.org");
  });
});

describe("public calls", () => {
  it("asks for a reset link with the shared public bearer", async () => {
    const { accounts } = await load();
    await accounts.requestPasswordReset("jane@example.org", visitor);
    expect(seen).toEqual([
      {
        method: "POST",
        path: "/api/v1/api/auth/forgot-password",
        authorization: `Bearer ${PUBLIC_TOKEN}`,
        visitor: "203.0.113.7",
        body: { email: "jane@example.org" },
      },
    ]);
  });

  it("resets the password with the service token; an unknown link reads 'invalid link'", async () => {
    const { accounts, api } = await load();
    api.careService.invalidate();
    await expect(accounts.resetPassword(RESET_TOKEN, "a new password")).resolves.toBe("ok");
    expect(seen.map((r) => r.path)).toEqual(["/auth/login", "/auth/ambercare/reset-password"]);
    expect(seen[1]?.authorization).toMatch(/^Bearer service-/);
    await expect(accounts.resetPassword("unknown-reset-token-0000", "a new password")).resolves.toBe(
      "invalid-link",
    );
    const common = await accounts.resetPassword(RESET_TOKEN, "password123").catch((e: unknown) => e);
    expect(describeApiError(common as never, { fields: { password: "new_password" } })).toMatchObject({
      field: "new_password",
      message: { key: "forms.errors.newPassword.common" },
    });
  });

  it("says 'service unavailable' when the service login fails", async () => {
    const { accounts, api } = await load();
    api.careService.invalidate();
    careLoginDown = true;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await expect(accounts.resetPassword(RESET_TOKEN, "a new password")).resolves.toBe("service-unavailable");
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
    const failure = describeApiError(await error(409, AUTH_ERRORS.emailTaken, undefined, "EMAIL_TAKEN"));
    expect(accounts.failureResult({ email: "a@b.co", password: "secret" }, failure)).toEqual({
      status: "error",
      values: { email: "a@b.co" },
      fieldErrors: { email: { key: "forms.errors.email.taken" } },
    });
    expect(accounts.failureResult({ first_name: "A" }, failure)).toEqual({
      status: "error",
      values: { first_name: "A" },
      fieldErrors: {},
      formError: { key: "forms.errors.email.taken" },
    });
  });
});
