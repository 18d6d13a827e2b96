import { loginResponse, userResponse } from "@ambercare/contracts/auth";
import { auditLogResponse } from "@ambercare/contracts/consultation";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import { clinicianProfileResponse, ROLE_ERRORS } from "@ambercare/contracts/roles";
import {
  pendingLoginResponse,
  recoveryCodesResponse,
  secondFactorSetupResponse,
} from "@ambercare/contracts/second-factor";
import { clinicians, providers, users } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCareTeamCommand, USAGE } from "#api/cli/care-team.ts";
import { createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { totpCodeAt } from "#api/modules/accounts/second-factor-codes.ts";
import { enableDemoClinicianSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import { auditClinicianAccess } from "#api/platform/audit-log.ts";
import { createManualClock } from "#api/platform/clock.ts";
import {
  bearer,
  createTestApp,
  parseMail,
  registerPatient,
  resetTokenIn,
  serviceToken,
  startSmtpServer,
  type TestApp,
} from "#api/test-support.ts";

const MAIN = "/api/v1/api/auth";
const CONSOLE_ME = "/api/v1/api/care-team/me";
const clock = createManualClock(new Date("2025-06-01T10:00:10Z"));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let address = 1;

/** A test route that reads a patient's data as a clinician would, to see the audit helper at work. */
const CLINICIAN_READ = "/test/clinician-reads/:patientId";

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    clock,
    env: { RATE_LIMIT_MAX: "100000", SMTP_URL: smtp.url, PUBLIC_URL: "https://care.example.org" },
  });
  const guards = createAuthGuards(t.app.accounts.sessions);
  t.app.get<{ Params: { patientId: string } }>(
    CLINICIAN_READ,
    { onRequest: guards.clinician },
    async (request) => {
      await auditClinicianAccess(request, {
        patientUserId: request.params.patientId,
        action: "consultation.read",
        resource: "consultation",
      });
      return { read: true };
    },
  );
}, 120_000);

afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, token: string | undefined, payload: object = {}) =>
  t.app.inject({
    method: "POST",
    url,
    headers: token === undefined ? {} : bearer(token),
    remoteAddress: `198.51.100.${address++ % 250}`,
    payload,
  });
const get = (url: string, token: string) => t.app.inject({ method: "GET", url, headers: bearer(token) });

function cli(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const run = runCareTeamCommand(argv, {
    careTeam: t.app.careTeam,
    operations: t.app.operations,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    now: () => clock.now(),
  });
  return run.then((code) => ({ code, out: out.join("\n"), err: err.join("\n") }));
}

/** The slug of the n-th provider (by slug): each test links its own. */
async function providerSlug(n: number): Promise<string> {
  const [row] = await t.db.db
    .select({ slug: providers.slug })
    .from(providers)
    .orderBy(providers.slug)
    .offset(n)
    .limit(1);
  if (!row) throw new Error("no provider");
  return row.slug;
}

/** Invites a clinician with the command, sets the password with the e-mailed link, logs in. */
async function invitedClinician(email: string, providerSlug: string, locale: "en" | "bg" = "en") {
  const before = smtp.received.length;
  const invited = await cli(["invite", "--email", email, "--provider", providerSlug, "--locale", locale]);
  expect(invited).toMatchObject({ code: 0, err: "" });
  expect(invited.out).toContain(`Invited ${email}`);
  const mail = smtp.received.slice(before).find((message) => message.to.includes(email));
  if (!mail) throw new Error("no invitation e-mail");
  const parsed = parseMail(mail.raw);
  const password = "lantern-orchard-quietly-42";
  const reset = await post("/auth/ambercare/reset-password", await serviceToken(t.app), {
    token: resetTokenIn(parsed),
    password,
  });
  expect(reset.statusCode).toBe(200);
  const login = await post(`${MAIN}/login`, undefined, { email, password });
  expect(login.statusCode).toBe(200);
  return { mail: parsed, password, session: loginResponse.parse(login.json()) };
}

/** Switches the second factor on for a session; answers the secret. */
async function turnOnSecondFactor(token: string): Promise<string> {
  const setup = secondFactorSetupResponse.parse(
    (await post(`${MAIN}/second-factor/setup`, token)).json(),
  ).data;
  const confirmed = await post(`${MAIN}/second-factor/confirm`, token, {
    code: totpCodeAt(setup.secret, clock.now()),
  });
  expect(confirmed.statusCode).toBe(200);
  recoveryCodesResponse.parse(confirmed.json());
  clock.advance(30_000);
  return setup.secret;
}

describe("inviting a clinician", () => {
  it("creates the account linked to the provider and e-mails a set-password link in the chosen language", async () => {
    const slug = await providerSlug(0);
    const { mail, session } = await invitedClinician("Dr.Invited@Example.org".toLowerCase(), slug, "bg");
    expect(mail.headers.get("subject")).toBe("Вашият профил в медицинския екип на Ambercare");
    expect(mail.text).toContain("https://care.example.org/reset-password?token=");
    expect(mail.html).toContain('<html lang="bg">');
    const me = userResponse.parse((await get(`${MAIN}/me`, session.access_token)).json()).data;
    expect(me).toMatchObject({ email: "dr.invited@example.org", role: "clinician" });
    const [link] = await t.db.db
      .select({ slug: providers.slug })
      .from(clinicians)
      .innerJoin(providers, eq(providers.id, clinicians.providerId))
      .where(eq(clinicians.userId, session.user_id));
    expect(link).toEqual({ slug });
  });

  it("refuses a second account for the same provider, a patient's address and an unknown provider", async () => {
    const slug = await providerSlug(0);
    const again = await cli(["invite", "--email", "someone.else@example.org", "--provider", slug]);
    expect(again).toMatchObject({ code: 1, out: "" });
    expect(again.err).toContain("already has a clinician account");

    const patient = await registerPatient(t.app);
    const other = await cli(["invite", "--email", patient.email, "--provider", DEMO_CLINICIAN.provider_slug]);
    expect(other.code).toBe(1);
    expect(other.err).toContain("is a patient's account");

    const unknown = await cli(["invite", "--email", "new@example.org", "--provider", "no-such-doctor"]);
    expect(unknown).toEqual({ code: 1, out: "", err: 'No provider has the slug "no-such-doctor".' });
    expect(await t.db.db.select().from(users).where(eq(users.email, "new@example.org"))).toEqual([]);
  });

  it("answers wrong arguments with the usage and exit code 2", async () => {
    for (const argv of [
      [],
      ["promote"],
      ["invite", "--email", "a@example.org"],
      ["invite", "--email", "nope", "--provider", "x"],
      ["invite", "--email", "a@example.org", "--provider", "x", "--locale", "fr"],
      ["list", "--all"],
    ]) {
      const result = await cli(argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.err).toContain(USAGE);
    }
  });
});

describe("the role guards", () => {
  it("refuse a patient on the console's calls and a clinician on the patient's own-data calls, with 403 { error, code }", async () => {
    const patient = await registerPatient(t.app);
    const refused = await get(CONSOLE_ME, patient.access_token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: ROLE_ERRORS.clinicianOnly, code: "CLINICIAN_ONLY" });

    const slug = await providerSlug(1);
    const { session } = await invitedClinician("guarded@example.org", slug);
    for (const url of [
      "/ambercare/consultations",
      "/ambercare/my-data/export",
      "/ambercare/audit-log",
      "/ambercare/invoices",
    ]) {
      const res = await get(url, session.access_token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({ error: ROLE_ERRORS.patientOnly, code: "PATIENT_ONLY" });
    }
    // The account's own calls stay open to a clinician: who am I, the second factor's setup.
    expect((await get(`${MAIN}/me`, session.access_token)).statusCode).toBe(200);
    expect((await get(`${MAIN}/second-factor`, session.access_token)).statusCode).toBe(200);
  });

  it("keep a clinician out of the console until the second factor is on, then ask for the code at every login", async () => {
    const slug = await providerSlug(2);
    const { session, password } = await invitedClinician("totp.needed@example.org", slug);
    const before = await get(CONSOLE_ME, session.access_token);
    expect(before.statusCode).toBe(403);
    expect(before.json()).toEqual({
      error: ROLE_ERRORS.secondFactorSetupRequired,
      code: "SECOND_FACTOR_SETUP_REQUIRED",
    });

    const secret = await turnOnSecondFactor(session.access_token);
    const after = await get(CONSOLE_ME, session.access_token);
    expect(after.statusCode).toBe(200);
    expect(clinicianProfileResponse.parse(after.json()).data).toMatchObject({
      email: "totp.needed@example.org",
      provider: { slug },
    });

    const step = await post(`${MAIN}/login`, undefined, { email: "totp.needed@example.org", password });
    const pending = pendingLoginResponse.parse(step.json());
    const done = await post(`${MAIN}/login/second-factor`, undefined, {
      pending_login_token: pending.pending_login_token,
      code: totpCodeAt(secret, clock.now()),
    });
    expect(done.statusCode).toBe(200);
    expect((await get(CONSOLE_ME, loginResponse.parse(done.json()).access_token)).statusCode).toBe(200);
  });

  it("let the demo clinician in with the published password and the code demo-code prints", async () => {
    await enableDemoClinicianSecondFactor(t.db.db, t.app.config.SECOND_FACTOR_KEY, clock.now());
    const step = await post(`${MAIN}/login`, undefined, {
      email: DEMO_CLINICIAN.email,
      password: DEMO_CLINICIAN.password,
    });
    const pending = pendingLoginResponse.parse(step.json());
    const printed = await cli(["demo-code"]);
    expect(printed.code).toBe(0);
    const done = await post(`${MAIN}/login/second-factor`, undefined, {
      pending_login_token: pending.pending_login_token,
      code: printed.out,
    });
    expect(done.statusCode).toBe(200);
    const me = await get(CONSOLE_ME, loginResponse.parse(done.json()).access_token);
    expect(clinicianProfileResponse.parse(me.json()).data).toMatchObject({
      name: "Casey Carter",
      provider: { slug: DEMO_CLINICIAN.provider_slug, name: "Casey Carter, MD" },
    });
    clock.advance(30_000);
  });
});

describe("listing and disabling", () => {
  it("lists the clinicians; disable ends every session and refuses the next login", async () => {
    const slug = await providerSlug(3);
    const { session, password } = await invitedClinician("leaving@example.org", slug);
    const second = await post(`${MAIN}/login`, undefined, { email: "leaving@example.org", password });
    const otherSession = loginResponse.parse(second.json());

    const listed = await cli(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`leaving@example.org\\t${slug}\\t[^\\t]+\\toff\\tactive`));
    expect(listed.out).toContain(DEMO_CLINICIAN.email);

    const disabled = await cli(["disable", "--email", "Leaving@example.org"]);
    expect(disabled).toEqual({
      code: 0,
      out: "Disabled leaving@example.org: 2 session(s) ended; its logins are refused.",
      err: "",
    });
    for (const token of [session.access_token, otherSession.access_token]) {
      expect((await get(`${MAIN}/me`, token)).statusCode).toBe(401);
    }
    const login = await post(`${MAIN}/login`, undefined, { email: "leaving@example.org", password });
    expect(login.statusCode).toBe(401);
    expect(login.json()).toMatchObject({ code: "INVALID_CREDENTIALS" });
    expect((await cli(["list"])).out).toMatch(/leaving@example.org\t.*\tdisabled 2025-/);

    const unknown = await cli(["disable", "--email", "nobody@example.org"]);
    expect(unknown).toMatchObject({
      code: 1,
      err: "No clinician account has the address nobody@example.org.",
    });
  });
});

describe("the audit helper", () => {
  it("writes the clinician's read into the patient's access log, with the clinician's name", async () => {
    const patient = await registerPatient(t.app);
    const step = await post(`${MAIN}/login`, undefined, {
      email: DEMO_CLINICIAN.email,
      password: DEMO_CLINICIAN.password,
    });
    const pending = pendingLoginResponse.parse(step.json());
    const done = await post(`${MAIN}/login/second-factor`, undefined, {
      pending_login_token: pending.pending_login_token,
      code: totpCodeAt(DEMO_CLINICIAN.totp_secret, clock.now()),
    });
    expect(done.statusCode).toBe(200);
    const clinician = loginResponse.parse(done.json());
    const read = await get(CLINICIAN_READ.replace(":patientId", patient.user_id), clinician.access_token);
    expect(read.statusCode).toBe(200);
    // The helper is behind guards.clinician: a patient cannot write such a row.
    expect(
      (await get(CLINICIAN_READ.replace(":patientId", patient.user_id), patient.access_token)).statusCode,
    ).toBe(403);

    const log = auditLogResponse.parse((await get("/ambercare/audit-log", patient.access_token)).json()).data;
    const byClinician = log.filter((entry) => entry.actor === "clinician");
    expect(byClinician).toEqual([
      expect.objectContaining({
        actor: "clinician",
        actor_name: "Casey Carter, MD",
        action: "consultation.read",
        resource_type: "consultation",
      }),
    ]);
    expect(
      log.filter((entry) => entry.actor !== "clinician").every((entry) => entry.actor_name === null),
    ).toBe(true);
    clock.advance(30_000);
  });
});
