import { loginResponse } from "@ambercare/contracts/auth";
import {
  pendingLoginResponse,
  RECOVERY_CODE_COUNT,
  recoveryCodesResponse,
  secondFactorSetupResponse,
  secondFactorStatusResponse,
} from "@ambercare/contracts/second-factor";
import { auditLog, secondFactors } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createLogCapture,
  createTestApp,
  parseMail,
  registerPatient,
  serviceToken,
  startSmtpServer,
  TEST_PUBLIC_API_TOKEN,
  type TestApp,
} from "#api/test-support.ts";

const MAIN = "/api/v1/api/auth";
const STATUS = `${MAIN}/second-factor`;
const SETUP = `${MAIN}/second-factor/setup`;
const CONFIRM = `${MAIN}/second-factor/confirm`;
const DISABLE = `${MAIN}/second-factor/disable`;
const RESET = `${MAIN}/second-factor/reset`;
const MAIN_LOGIN = `${MAIN}/login`;
const MAIN_STEP = `${MAIN}/login/second-factor`;
const LOST_DEVICE = `${MAIN}/login/lost-device`;
const CARE_LOGIN = "/auth/login";
const CARE_STEP = "/auth/login/second-factor";

const clock = createManualClock(new Date("2025-06-01T10:00:10Z"));
const logs = createLogCapture();
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let address = 1;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    clock,
    env: {
      RATE_LIMIT_MAX: "100000",
      SMTP_URL: smtp.url,
      PUBLIC_URL: "https://care.example.org",
      LOG_LEVEL: "debug",
    },
    logStream: logs.stream,
  });
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Each call from another documentation address, so the per-address limit stays out of the way. */
const post = (url: string, token: string | undefined, payload: object = {}) =>
  t.app.inject({
    method: "POST",
    url,
    headers: token === undefined ? {} : bearer(token),
    remoteAddress: `198.51.100.${address++ % 250}`,
    payload,
  });

/** What an authenticator app shows for `secret` now (computed here from the secret, as a phone would). */
function codeOf(secret: string, at = clock.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: at.getTime(),
  });
}

/** Moves to the next 30-second step, so that a new code exists. */
const nextStep = () => clock.advance(30_000);

async function status(token: string) {
  const res = await t.app.inject({ method: "GET", url: STATUS, headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return secondFactorStatusResponse.parse(res.json()).data;
}

/** A patient with TOTP switched on: their password, secret and recovery codes. */
async function patientWithTotp(overrides: { locale?: "en" | "bg" } = {}) {
  const patient = await registerPatient(t.app, overrides);
  const setup = secondFactorSetupResponse.parse((await post(SETUP, patient.access_token)).json()).data;
  const confirmed = await post(CONFIRM, patient.access_token, { code: codeOf(setup.secret) });
  expect(confirmed.statusCode).toBe(200);
  const { recovery_codes } = recoveryCodesResponse.parse(confirmed.json()).data;
  nextStep();
  return { ...patient, secret: setup.secret, recoveryCodes: recovery_codes };
}

async function passwordStep(patient: { email: string; password: string }, url = MAIN_LOGIN) {
  const token = url === CARE_LOGIN ? TEST_PUBLIC_API_TOKEN : undefined;
  const res = await post(url, token, { email: patient.email, password: patient.password });
  expect(res.statusCode).toBe(200);
  return pendingLoginResponse.parse(res.json()).pending_login_token;
}

async function auditActions(userId: string): Promise<string[]> {
  const rows = await t.db.db.select().from(auditLog).where(eq(auditLog.userId, userId));
  return rows.map((row) => row.action);
}

const mailsTo = (email: string) =>
  smtp.received.filter((mail) => mail.to.includes(email)).map((mail) => parseMail(mail.raw));

describe("setting the second factor up", () => {
  it("shows a secret until it is confirmed with a current code, then only says it is on", async () => {
    const patient = await registerPatient(t.app);
    expect(await status(patient.access_token)).toEqual({
      enabled: false,
      recovery_codes_left: 0,
      pending_setup: null,
    });

    const res = await post(SETUP, patient.access_token);
    expect(res.statusCode).toBe(200);
    const setup = secondFactorSetupResponse.parse(res.json()).data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(setup.otpauth_uri);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/Ambercare:${patient.email}`);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret: setup.secret,
      issuer: "Ambercare",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
    expect((await status(patient.access_token)).pending_setup).toEqual(setup);

    // Stored encrypted: neither the base32 secret nor its bytes are in the row.
    const [row] = await t.db.db.select().from(secondFactors).where(eq(secondFactors.userId, patient.user_id));
    expect(row?.secretCiphertext).not.toContain(setup.secret);
    expect(row?.enabledAt).toBeNull();

    const wrong = await post(CONFIRM, patient.access_token, {
      code: codeOf(setup.secret, new Date(clock.now().getTime() + 120_000)),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("SECOND_FACTOR_CODE_INVALID");
    expect((await post(CONFIRM, patient.access_token, { code: "12ab56" })).statusCode).toBe(400);

    const confirmed = await post(CONFIRM, patient.access_token, { code: codeOf(setup.secret) });
    expect(confirmed.statusCode).toBe(200);
    const codes = recoveryCodesResponse.parse(confirmed.json()).data.recovery_codes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);

    expect(await status(patient.access_token)).toEqual({
      enabled: true,
      recovery_codes_left: RECOVERY_CODE_COUNT,
      pending_setup: null,
    });
    const again = await post(SETUP, patient.access_token);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("SECOND_FACTOR_ALREADY_ENABLED");
    expect(await auditActions(patient.user_id)).toContain("second_factor.enable");
    // The secret and the recovery codes never reach the log, whatever its level.
    expect(logs.text()).not.toContain(setup.secret);
    for (const code of codes) expect(logs.text()).not.toContain(code);
  });

  it("is refused to the service account", async () => {
    const res = await post(SETUP, await serviceToken(t.app));
    expect(res.statusCode).toBe(403);
  });
});

describe("logging in with the second factor", () => {
  it("answers a pending login, not a session, to the right password on either API", async () => {
    const patient = await patientWithTotp();
    for (const url of [MAIN_LOGIN, CARE_LOGIN]) {
      const token = url === CARE_LOGIN ? TEST_PUBLIC_API_TOKEN : undefined;
      const res = await post(url, token, { email: patient.email, password: patient.password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty("access_token");
      expect(pendingLoginResponse.parse(res.json()).expires_in).toBe(300);
    }
    // A wrong password is still the same 401 as for any account.
    const wrong = await post(MAIN_LOGIN, undefined, { email: patient.email, password: "not the password" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("INVALID_CREDENTIALS");
  });

  it("gives each API one session once a code verified the pending login", async () => {
    const patient = await patientWithTotp();
    const pending = await passwordStep(patient);

    const wrong = await post(MAIN_STEP, undefined, { pending_login_token: pending, code: "000000" });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("SECOND_FACTOR_CODE_INVALID");
    const noCode = await post(MAIN_STEP, undefined, { pending_login_token: pending });
    expect(noCode.statusCode).toBe(401);

    const main = await post(MAIN_STEP, undefined, {
      pending_login_token: pending,
      code: codeOf(patient.secret),
    });
    expect(main.statusCode).toBe(200);
    const session = loginResponse.parse(main.json());
    expect(session.user_id).toBe(patient.user_id);
    const me = await t.app.inject({
      method: "GET",
      url: `${MAIN}/me`,
      headers: bearer(session.access_token),
    });
    expect(me.statusCode).toBe(200);

    const care = await post(CARE_STEP, TEST_PUBLIC_API_TOKEN, { pending_login_token: pending });
    expect(care.statusCode).toBe(200);
    expect(loginResponse.parse(care.json()).access_token).not.toBe(session.access_token);

    // One session per API and pending login.
    for (const [url, token] of [
      [MAIN_STEP, undefined],
      [CARE_STEP, TEST_PUBLIC_API_TOKEN],
    ] as const) {
      const again = await post(url, token, { pending_login_token: pending, code: codeOf(patient.secret) });
      expect(again.statusCode).toBe(401);
      expect(again.json().code).toBe("PENDING_LOGIN_INVALID");
    }
  });

  it("refuses a code that was already used, also on a new pending login", async () => {
    const patient = await patientWithTotp();
    const code = codeOf(patient.secret);
    const first = await passwordStep(patient);
    expect((await post(MAIN_STEP, undefined, { pending_login_token: first, code })).statusCode).toBe(200);

    const second = await passwordStep(patient, CARE_LOGIN);
    const replay = await post(CARE_STEP, TEST_PUBLIC_API_TOKEN, { pending_login_token: second, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe("SECOND_FACTOR_CODE_INVALID");
    // The previous step's code is refused too: it is older than the one used.
    const older = codeOf(patient.secret, new Date(clock.now().getTime() - 30_000));
    expect(
      (await post(CARE_STEP, TEST_PUBLIC_API_TOKEN, { pending_login_token: second, code: older })).statusCode,
    ).toBe(401);

    nextStep();
    const fresh = await post(CARE_STEP, TEST_PUBLIC_API_TOKEN, {
      pending_login_token: second,
      code: codeOf(patient.secret),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it("accepts the code of the next step (a phone's clock a little ahead), not two steps away", async () => {
    const patient = await patientWithTotp();
    const pending = await passwordStep(patient);
    const far = codeOf(patient.secret, new Date(clock.now().getTime() + 60_000));
    expect((await post(MAIN_STEP, undefined, { pending_login_token: pending, code: far })).statusCode).toBe(
      401,
    );
    const ahead = codeOf(patient.secret, new Date(clock.now().getTime() + 30_000));
    expect((await post(MAIN_STEP, undefined, { pending_login_token: pending, code: ahead })).statusCode).toBe(
      200,
    );
  });

  it("takes each recovery code once, and logs its use", async () => {
    const patient = await patientWithTotp();
    const [recovery] = patient.recoveryCodes;
    const first = await passwordStep(patient);
    // As typed by hand: capitals and spaces instead of dashes.
    const typed = recovery!.toUpperCase().replaceAll("-", " ");
    expect((await post(MAIN_STEP, undefined, { pending_login_token: first, code: typed })).statusCode).toBe(
      200,
    );
    expect(await auditActions(patient.user_id)).toContain("second_factor.recovery_code_used");

    const second = await passwordStep(patient);
    const reused = await post(MAIN_STEP, undefined, { pending_login_token: second, code: recovery });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe("SECOND_FACTOR_CODE_INVALID");
    // Another patient's code does not work either.
    const other = await patientWithTotp();
    const foreign = await post(MAIN_STEP, undefined, {
      pending_login_token: second,
      code: other.recoveryCodes[0],
    });
    expect(foreign.statusCode).toBe(401);

    const me = await t.app.inject({ method: "GET", url: STATUS, headers: bearer(patient.access_token) });
    expect(secondFactorStatusResponse.parse(me.json()).data.recovery_codes_left).toBe(
      RECOVERY_CODE_COUNT - 1,
    );
  });

  it("replaces the recovery codes with the password and a current code: the old ones stop working", async () => {
    const patient = await patientWithTotp();
    const NEW_CODES = `${MAIN}/second-factor/recovery-codes`;
    const [oldCode] = patient.recoveryCodes;
    const wrongPassword = await post(NEW_CODES, patient.access_token, {
      password: "not it at all",
      code: codeOf(patient.secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().code).toBe("WRONG_CURRENT_PASSWORD");
    const wrongCode = await post(NEW_CODES, patient.access_token, {
      password: patient.password,
      code: "000000",
    });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().code).toBe("SECOND_FACTOR_CODE_INVALID");

    const res = await post(NEW_CODES, patient.access_token, {
      password: patient.password,
      code: codeOf(patient.secret),
    });
    expect(res.statusCode).toBe(200);
    const fresh = recoveryCodesResponse.parse(res.json()).data.recovery_codes;
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(fresh).not.toContain(oldCode);
    expect((await status(patient.access_token)).recovery_codes_left).toBe(RECOVERY_CODE_COUNT);
    expect(await auditActions(patient.user_id)).toContain("second_factor.recovery_codes_replaced");
    expect(logs.text()).not.toContain(fresh[0]!);

    const pending = await passwordStep(patient);
    const old = await post(MAIN_STEP, undefined, { pending_login_token: pending, code: oldCode });
    expect(old.statusCode).toBe(401);
    const ok = await post(MAIN_STEP, undefined, { pending_login_token: pending, code: fresh[0] });
    expect(ok.statusCode).toBe(200);
    // Without the factor on there is nothing to replace.
    const plain = await registerPatient(t.app);
    const none = await post(NEW_CODES, plain.access_token, { password: plain.password, code: "123456" });
    expect(none.statusCode).toBe(409);
  });

  it("ends a pending login after 5 wrong codes, and throttles the account's codes like passwords", async () => {
    const patient = await patientWithTotp();
    const pending = await passwordStep(patient);
    for (let i = 0; i < 5; i++) {
      expect(
        (await post(MAIN_STEP, undefined, { pending_login_token: pending, code: "000000" })).statusCode,
      ).toBe(401);
    }
    const worn = await post(MAIN_STEP, undefined, {
      pending_login_token: pending,
      code: codeOf(patient.secret),
    });
    expect(worn.statusCode).toBe(401);
    expect(worn.json().code).toBe("PENDING_LOGIN_INVALID");

    // The right password does not wipe the failed codes: the next wrong ones meet growing waits.
    const next = await passwordStep(patient);
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await post(MAIN_STEP, undefined, { pending_login_token: next, code: "000000" });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = String(res.headers["retry-after"]);
    }
    expect(statuses).toContain(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(
      (await post(MAIN_STEP, undefined, { pending_login_token: next, code: codeOf(patient.secret) }))
        .statusCode,
    ).toBe(429);

    // After the wait, the right code gets in and the failures are forgotten.
    clock.advance(60_000);
    const ok = await post(MAIN_STEP, undefined, { pending_login_token: next, code: codeOf(patient.secret) });
    expect(ok.statusCode).toBe(200);
  });

  it("keeps the specified login answer for an account without the second factor", async () => {
    const patient = await registerPatient(t.app);
    const res = await post(MAIN_LOGIN, undefined, { email: patient.email, password: patient.password });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(loginResponse.parse(res.json())).sort()).toEqual(
      ["access_token", "expires_in", "token_type", "user_id"].sort(),
    );
  });
});

describe("turning the second factor off", () => {
  it("needs the password and a current code, and tells the owner", async () => {
    const patient = await patientWithTotp();
    const token = patient.access_token;
    const wrongPassword = await post(DISABLE, token, {
      password: "not it at all",
      code: codeOf(patient.secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().code).toBe("WRONG_CURRENT_PASSWORD");
    const wrongCode = await post(DISABLE, token, { password: patient.password, code: "000000" });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().code).toBe("SECOND_FACTOR_CODE_INVALID");
    expect((await status(token)).enabled).toBe(true);

    const ok = await post(DISABLE, token, { password: patient.password, code: codeOf(patient.secret) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ data: { second_factor_disabled: true } });
    expect(await status(token)).toEqual({ enabled: false, recovery_codes_left: 0, pending_setup: null });
    expect(await auditActions(patient.user_id)).toContain("second_factor.disable");

    const login = await post(MAIN_LOGIN, undefined, { email: patient.email, password: patient.password });
    expect(loginResponse.safeParse(login.json()).success).toBe(true);
    await t.app.mailer.drain();
    expect(mailsTo(patient.email).map((mail) => mail.headers.get("subject"))).toContain(
      "Two-step login was turned off for Ambercare",
    );
  });

  it("ends every other session; both tokens of the session that turned it off stay", async () => {
    const patient = await patientWithTotp();
    const pending = await passwordStep(patient);
    const main = await post(MAIN_STEP, undefined, {
      pending_login_token: pending,
      code: codeOf(patient.secret),
    });
    const care = await post(CARE_STEP, TEST_PUBLIC_API_TOKEN, { pending_login_token: pending });
    const session = {
      main: loginResponse.parse(main.json()).access_token,
      care: loginResponse.parse(care.json()).access_token,
    };
    nextStep();
    const ok = await post(DISABLE, session.main, {
      password: patient.password,
      code: codeOf(patient.secret),
    });
    expect(ok.statusCode).toBe(200);
    expect((await status(session.main)).enabled).toBe(false);
    const careDetails = await t.app.inject({
      method: "GET",
      url: `/ambercare/get-user-details/${patient.user_id}`,
      headers: bearer(session.care),
    });
    expect(careDetails.statusCode).toBe(200);
    // The session opened before (at sign-up) was opened with the factor's protection in place for
    // whoever holds it: it ends with the factor.
    const other = await t.app.inject({ method: "GET", url: STATUS, headers: bearer(patient.access_token) });
    expect(other.statusCode).toBe(401);
  });
});

describe("lost device", () => {
  it("e-mails a single-use link that turns the second factor off after the password", async () => {
    const patient = await patientWithTotp({ locale: "bg" });
    const pending = await passwordStep(patient);
    expect((await post(LOST_DEVICE, undefined, { pending_login_token: pending })).statusCode).toBe(401);
    const bogus = await post(LOST_DEVICE, TEST_PUBLIC_API_TOKEN, { pending_login_token: "x".repeat(43) });
    expect(bogus.statusCode).toBe(401);
    expect(bogus.json().code).toBe("PENDING_LOGIN_INVALID");

    const sent = await post(LOST_DEVICE, TEST_PUBLIC_API_TOKEN, { pending_login_token: pending });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ data: { sent: true } });
    await t.app.mailer.drain();
    const [mail] = mailsTo(patient.email).filter((m) => m.headers.get("subject")?.startsWith("Изключване"));
    expect(mail).toBeDefined();
    const link = /https:\/\/care\.example\.org\/login\/lost-device\?token=([A-Za-z0-9_-]+)/.exec(mail!.text);
    expect(link).not.toBeNull();
    expect(mail!.html).toContain(`href="${link![0]}"`);
    expect(mail!.html).toContain('<html lang="bg">');
    const linkToken = link![1]!;
    expect(logs.text()).not.toContain(linkToken);

    const wrong = await post(RESET, TEST_PUBLIC_API_TOKEN, {
      token: linkToken,
      password: "not the password",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("WRONG_CURRENT_PASSWORD");
    expect((await status(patient.access_token)).enabled).toBe(true);

    const reset = await post(RESET, TEST_PUBLIC_API_TOKEN, { token: linkToken, password: patient.password });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ data: { second_factor_disabled: true } });
    const reused = await post(RESET, TEST_PUBLIC_API_TOKEN, { token: linkToken, password: patient.password });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().code).toBe("SECOND_FACTOR_RESET_LINK_INVALID");

    // Every session ends, the lost device's included; the password alone opens a new one.
    const before = await t.app.inject({ method: "GET", url: STATUS, headers: bearer(patient.access_token) });
    expect(before.statusCode).toBe(401);
    expect(await auditActions(patient.user_id)).toContain("second_factor.reset");
    const login = await post(MAIN_LOGIN, undefined, { email: patient.email, password: patient.password });
    expect((await status(loginResponse.parse(login.json()).access_token)).enabled).toBe(false);
    await t.app.mailer.drain();
    const notice = mailsTo(patient.email).find(
      (m) => m.headers.get("subject") === "Влизането в две стъпки за Ambercare е изключено",
    );
    expect(notice?.text).toContain("https://care.example.org/forgot-password");
  });

  it("refuses an expired link", async () => {
    const patient = await patientWithTotp();
    const pending = await passwordStep(patient);
    expect(
      (await post(LOST_DEVICE, TEST_PUBLIC_API_TOKEN, { pending_login_token: pending })).statusCode,
    ).toBe(200);
    await t.app.mailer.drain();
    const mail = mailsTo(patient.email).at(-1);
    const linkToken = /lost-device\?token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
    expect(linkToken).toBeDefined();
    clock.advance(31 * 60_000);
    const res = await post(RESET, TEST_PUBLIC_API_TOKEN, { token: linkToken!, password: patient.password });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("SECOND_FACTOR_RESET_LINK_INVALID");
  });
});
