import { COMMUNICATION_ERRORS } from "@ambercare/contracts/communications";
import { captchaSolutions } from "@ambercare/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTCHA_TTL_MS, RECAPTCHA_VERIFY_URL } from "#api/modules/communications/captcha-service.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  fetchAltchaChallenge,
  newPatient,
  solveAltcha,
  solveCaptcha,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
} from "#api/test-support.ts";

const CHALLENGE = "/api/v1/api/captcha/challenge";
const REGISTER = "/api/v1/api/auth/register";
const FORGOT = "/api/v1/api/auth/forgot-password";

const decode = (payload: string) => JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");

describe("ALTCHA (the default captcha)", () => {
  let t: TestApp;
  const clock = createManualClock(new Date("2025-06-01T10:00:00Z"));

  beforeAll(async () => {
    t = await createTestApp({ seed: false, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  const register = (captcha?: string) =>
    t.app.inject({
      method: "POST",
      url: REGISTER,
      payload: { ...newPatient(), ...(captcha === undefined ? {} : { captcha }) },
    });

  it("hands out a fresh signed challenge that expires in 10 minutes, never cached", async () => {
    const res = await t.app.inject({ method: "GET", url: CHALLENGE });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { data } = res.json();
    expect(data.provider).toBe("altcha");
    expect(data.challenge).toMatchObject({ algorithm: "SHA-256", maxnumber: 2000 });
    expect(data.challenge.challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(data.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = Number(new URLSearchParams(data.challenge.salt.split("?")[1]).get("expires"));
    expect(expires * 1000).toBe(clock.now().getTime() + CAPTCHA_TTL_MS);
    const again = await fetchAltchaChallenge(t.app);
    expect(again.challenge).not.toBe(data.challenge.challenge);
  });

  it("accepts a real solution once: the same solution again is refused as used", async () => {
    const captcha = await solveCaptcha(t.app);
    const first = await register(captcha);
    expect(first.statusCode).toBe(202);
    const replay = await register(captcha);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaUsed, code: "CAPTCHA_USED" });
  });

  it("refuses a missing or blank captcha with its own message", async () => {
    for (const captcha of [undefined, "", "   "]) {
      const res = await register(captcha);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaMissing, code: "CAPTCHA_MISSING" });
    }
  });

  it("refuses forgeries: a wrong number, a re-signed challenge, another algorithm, garbage", async () => {
    const challenge = await fetchAltchaChallenge(t.app);
    const genuine = decode(await solveAltcha(challenge));
    const forgeries = [
      encode({ ...genuine, number: genuine.number + 1 }),
      encode({ ...genuine, signature: "0".repeat(64) }),
      // A challenge of the forger's own making, solved, but not signed with the server's key.
      encode({ ...genuine, salt: "0123456789ab?expires=9999999999&", number: 0 }),
      encode({ ...genuine, algorithm: "SHA-1" }),
      encode({ ...genuine, number: "7" }),
      "not base64 json",
      encode([1, 2, 3]),
    ];
    for (const captcha of forgeries) {
      const res = await register(captcha);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaInvalid, code: "CAPTCHA_INVALID" });
    }
    // The genuine solution still works: a forgery did not spend it.
    expect((await register(encode(genuine))).statusCode).toBe(202);
  });

  it("refuses a solution whose challenge expired", async () => {
    const captcha = await solveCaptcha(t.app);
    clock.advance(CAPTCHA_TTL_MS + 1_000);
    const res = await register(captcha);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaExpired, code: "CAPTCHA_EXPIRED" });
  });

  it("forgets used solutions once their challenge has expired", async () => {
    await register(await solveCaptcha(t.app));
    expect((await t.db.db.select().from(captchaSolutions)).length).toBeGreaterThan(0);
    clock.advance(CAPTCHA_TTL_MS + 1_000);
    await t.app.communications.captcha.sweep();
    expect(await t.db.db.select().from(captchaSolutions)).toEqual([]);
  });

  it("protects forgot-password too", async () => {
    const missing = await t.app.inject({
      method: "POST",
      url: FORGOT,
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: { email: "someone@example.org" },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaMissing, code: "CAPTCHA_MISSING" });
    const solved = await t.app.inject({
      method: "POST",
      url: FORGOT,
      headers: bearer(TEST_PUBLIC_API_TOKEN),
      payload: { email: "someone@example.org", captcha: await solveCaptcha(t.app) },
    });
    expect(solved.statusCode).toBe(200);
  });

  it("answers 400 for a captcha longer than any real one", async () => {
    const res = await register("x".repeat(5000));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Invalid body field "captcha"/);
    expect(res.json().code).toBe("VALIDATION_FAILED");
  });
});

describe("reCAPTCHA v3 (when both keys are set)", () => {
  let t: TestApp;
  const calls: Array<{ url: string; body: URLSearchParams }> = [];
  let answer: () => Promise<Response> = async () => Response.json({ success: true });

  beforeAll(async () => {
    t = await createTestApp({
      seed: false,
      env: { RECAPTCHA_SITE_KEY: "site-key-123", RECAPTCHA_SECRET: "secret-456", RECAPTCHA_MIN_SCORE: "0.5" },
      fetch: async (url, init) => {
        calls.push({ url, body: new URLSearchParams(String(init?.body)) });
        return answer();
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const register = (captcha: string, remoteAddress = "203.0.113.9") =>
    t.app.inject({ method: "POST", url: REGISTER, payload: { ...newPatient(), captcha }, remoteAddress });

  it("gives the site key instead of a challenge", async () => {
    const res = await t.app.inject({ method: "GET", url: CHALLENGE });
    expect(res.json()).toEqual({ data: { provider: "recaptcha", site_key: "site-key-123" } });
  });

  it("verifies the token with Google and accepts a human score for the right action", async () => {
    calls.length = 0;
    answer = async () =>
      Response.json({ success: true, score: 0.9, action: "register", hostname: "localhost" });
    const res = await register("token-abc");
    expect(res.statusCode).toBe(202);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(RECAPTCHA_VERIFY_URL);
    expect(Object.fromEntries(calls[0]!.body)).toEqual({
      secret: "secret-456",
      response: "token-abc",
      remoteip: "203.0.113.9",
    });
  });

  it.each([
    [
      "a low score",
      { success: true, score: 0.2, action: "register" },
      COMMUNICATION_ERRORS.captchaInvalid,
      "CAPTCHA_INVALID",
    ],
    [
      "another form's token",
      { success: true, score: 0.9, action: "contact" },
      COMMUNICATION_ERRORS.captchaInvalid,
      "CAPTCHA_INVALID",
    ],
    [
      "an invalid token",
      { success: false, "error-codes": ["invalid-input-response"] },
      COMMUNICATION_ERRORS.captchaInvalid,
      "CAPTCHA_INVALID",
    ],
    [
      "a token used before",
      { success: false, "error-codes": ["timeout-or-duplicate"] },
      COMMUNICATION_ERRORS.captchaUsed,
      "CAPTCHA_USED",
    ],
  ])("refuses %s with 400", async (_label, body, message, code) => {
    answer = async () => Response.json(body);
    const res = await register("token-xyz");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message, code });
  });

  it("answers 400, not 5xx, when Google cannot be reached", async () => {
    answer = async () => {
      throw new TypeError("fetch failed");
    };
    const down = await register("token-1");
    expect(down.statusCode).toBe(400);
    expect(down.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaInvalid, code: "CAPTCHA_INVALID" });
    answer = async () => new Response("oops", { status: 502 });
    expect((await register("token-2")).statusCode).toBe(400);
  });

  it("still wants a captcha", async () => {
    const res = await t.app.inject({ method: "POST", url: REGISTER, payload: newPatient() });
    expect(res.json()).toEqual({ error: COMMUNICATION_ERRORS.captchaMissing, code: "CAPTCHA_MISSING" });
  });
});
