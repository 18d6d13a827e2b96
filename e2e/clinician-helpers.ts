import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import type { VisitType } from "@ambercare/contracts/visit-types";
import { Secret, TOTP } from "otpauth";
import { type BrowserContext, type Page, request } from "playwright-core";
import { latestMail, linkIn } from "./account-steps.ts";
import type { InvitedClinician, ReadyClinician } from "./clinician-pool.ts";
import { logInSession, type Stack, secondFactorSession } from "./session-fixtures.ts";

/**
 * A clinician's side of a journey, through the main API as the console's pages call it, and the
 * clinician's session in a browser context. Free of the test runner (node:assert checks): the
 * benchmarks drive the same steps.
 *
 * A second-factor code is spent once per account and step (ADR 024). Each journey has its own
 * clinician (clinician-pool.ts), whose codes only it spends: `nextCode()` gives the next unspent
 * step's code by the API's clock, and when that step is more than one ahead of the clock (the
 * window the API accepts), moves the API's test clock on to it instead of waiting for it.
 */

const STEP_MS = 30_000;

/** The API's clock (GET /dev/clock): journeys move it. */
export async function apiNow(apiUrl: string): Promise<number> {
  const response = await fetch(`${apiUrl}/dev/clock`);
  assert.equal(response.status, 200, "GET /dev/clock (the API must run outside production)");
  return Date.parse(((await response.json()) as { data: { now: string } }).data.now);
}

async function advanceApiClock(apiUrl: string, seconds: number): Promise<void> {
  const response = await fetch(`${apiUrl}/dev/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
  assert.equal(response.status, 200, "POST /dev/clock/advance (the API must run outside production)");
}

/** A clinician's account as a journey holds it: the password and the authenticator's secret. */
export type ClinicianAccount = {
  email: string;
  password: string;
  providerSlug: string;
  /** The provider's name after "Dr": "Casey Carter". */
  name: string;
  /** A state the provider is licensed in, where the journey's visits are. */
  state: { code: string; name: string };
  /** The code of the next step no login of this account has spent yet (see above). */
  nextCode(): Promise<string>;
};

/** `nextCode` of an account whose steps up to `lastUsedStep` are spent. */
function codeSource(apiUrl: string, secret: string, spent: { lastUsedStep: number }) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return async () => {
    const current = Math.floor((await apiNow(apiUrl)) / STEP_MS);
    const step = Math.max(current, spent.lastUsedStep + 1);
    // The API accepts the codes of one step either side of its clock.
    if (step > current + 1) await advanceApiClock(apiUrl, ((step - current - 1) * STEP_MS) / 1000);
    spent.lastUsedStep = step;
    return totp.generate({ timestamp: step * STEP_MS });
  };
}

/** What the demo clinician's logins have spent, per stack: its secret is the README's. */
const demoSpent = new Map<string, { lastUsedStep: number }>();

/**
 * The demo clinician of the demo seed (its password and TOTP secret are published): for the
 * journey that checks it works, and for benchmarks on a stack of their own.
 */
export function demoClinician(apiUrl: string): ClinicianAccount {
  let spent = demoSpent.get(apiUrl);
  if (!spent) {
    spent = { lastUsedStep: Number.NEGATIVE_INFINITY };
    demoSpent.set(apiUrl, spent);
  }
  return {
    email: DEMO_CLINICIAN.email,
    password: DEMO_CLINICIAN.password,
    providerSlug: DEMO_CLINICIAN.provider_slug,
    name: `${DEMO_CLINICIAN.first_name} ${DEMO_CLINICIAN.last_name}`,
    // Licensed in every state.
    state: { code: "CA", name: "California" },
    nextCode: codeSource(apiUrl, DEMO_CLINICIAN.totp_secret, spent),
  };
}

async function postJson(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.status < 300, `POST ${new URL(url).pathname}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Makes an invited staff account (a clinician or an operator) ready to work, as the invited person
 * would: the password chosen on the web's /reset-password page with the link of the invitation
 * e-mail (`template`), then two-step login set up with an authenticator (the main API's setup and
 * confirm calls, which the security page makes).
 */
export async function activateStaffAccount(
  stack: Stack,
  email: string,
  template: "clinician-invite" | "operator-invite",
): Promise<{ password: string; secret: string; lastUsedStep: number }> {
  const password = `journey ${randomUUID()}`;
  const mail = await latestMail(stack.dataDir, { template, to: email, since: 0 });
  const link = linkIn(mail, "/reset-password");
  const token = new URL(link, stack.baseUrl).searchParams.get("token") ?? "";
  const client = await request.newContext();
  try {
    const reset = await client.post(`${stack.baseUrl}${link}`, {
      form: { token, new_password: password, confirm_password: password },
      maxRedirects: 0,
    });
    const text = await reset.text();
    assert.ok(
      reset.status() === 200 && text.includes("Your password has been changed"),
      `POST /reset-password for ${email}: ${reset.status()} ${text.slice(0, 300)}`,
    );
  } finally {
    await client.dispose();
  }

  const api = `${stack.apiUrl}/api/v1/api`;
  const session = await postJson(`${api}/auth/login`, { email, password });
  const accessToken = String(session.access_token);
  const setup = await postJson(`${api}/auth/second-factor/setup`, {}, accessToken);
  const secret = String((setup.data as { secret: string }).secret);
  const spent = { lastUsedStep: Number.NEGATIVE_INFINITY };
  const nextCode = codeSource(stack.apiUrl, secret, spent);
  await postJson(`${api}/auth/second-factor/confirm`, { code: await nextCode() }, accessToken);
  await postJson(`${api}/auth/logout`, {}, accessToken);
  return { password, secret, lastUsedStep: spent.lastUsedStep };
}

/**
 * Makes an invited clinician (global-setup.ts, with the care-team command) ready to work
 * (activateStaffAccount). Each account is made ready once per stack.
 */
export async function activateClinician(stack: Stack, invited: InvitedClinician): Promise<ReadyClinician> {
  return { ...invited, ...(await activateStaffAccount(stack, invited.email, "clinician-invite")) };
}

/** The next unspent codes of a staff account whose steps up to `lastUsedStep` are spent. */
export function staffCodes(apiUrl: string, secret: string, lastUsedStep: number): () => Promise<string> {
  return codeSource(apiUrl, secret, { lastUsedStep });
}

/** A ready clinician (activateClinician) as a journey uses it, spending its codes from here on. */
export function clinicianAccount(apiUrl: string, ready: ReadyClinician): ClinicianAccount {
  const { secret, lastUsedStep, ...account } = ready;
  return { ...account, nextCode: codeSource(apiUrl, secret, { lastUsedStep }) };
}

/**
 * Logs the clinician in in `context` through the web's login and second-step forms (their cookies
 * are the web's own), as the care-team journey does on the pages; answers the main API token of
 * that session, for the care-team calls a journey makes on the clinician's behalf.
 */
export async function clinicianSession(
  context: BrowserContext,
  baseUrl: string,
  clinician: ClinicianAccount,
): Promise<string> {
  assert.equal(await logInSession(context, baseUrl, clinician), "/login/second-factor");
  assert.equal(await secondFactorSession(context, baseUrl, await clinician.nextCode()), "/console");
  const token = (await context.cookies(baseUrl)).find((cookie) => cookie.name === "accessToken")?.value;
  assert.ok(token, "the clinician's session has a main API token");
  return token;
}

/** The care-team visit steps with a clinician's main API token. */
export function careTeamSteps(apiUrl: string, token: string) {
  const api = `${apiUrl}/api/v1/api`;
  return {
    token,
    step(visitId: string, step: "accept" | "start" | "complete" | "cancel", body: object = {}) {
      return postJson(`${api}/care-team/visits/${visitId}/${step}`, body, token);
    },
  };
}

/** The clinician logged in on the main API with password and code, for the care-team calls. */
export async function clinicianApi(apiUrl: string, clinician: ClinicianAccount) {
  const api = `${apiUrl}/api/v1/api`;
  const pending = await postJson(`${api}/auth/login`, {
    email: clinician.email,
    password: clinician.password,
  });
  const done = await postJson(`${api}/auth/login/second-factor`, {
    pending_login_token: pending.pending_login_token,
    code: await clinician.nextCode(),
  });
  return careTeamSteps(apiUrl, String(done.access_token));
}

/**
 * On /login/second-factor, enters the clinician's next code in the form and waits for the console:
 * the second login step as a person takes it.
 */
export async function enterCode(page: Page, clinician: ClinicianAccount): Promise<void> {
  await page.getByLabel("Code from your authenticator app").fill(await clinician.nextCode());
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/console");
}

/**
 * A visit the member requests with the clinician's provider (an adult with a cough in the
 * provider's state), through the API with the member's own login; returns its id.
 */
export async function requestVisit(
  apiUrl: string,
  patient: { email: string; password: string },
  type: VisitType,
  clinician: Pick<ClinicianAccount, "providerSlug" | "state">,
): Promise<string> {
  const session = await postJson(`${apiUrl}/api/v1/api/auth/login`, {
    email: patient.email,
    password: patient.password,
  });
  const created = await postJson(
    `${apiUrl}/ambercare/create-consultation`,
    {
      idempotency_key: randomUUID(),
      type,
      provider_slug: clinician.providerSlug,
      intake: {
        patient: "self",
        gender: "female",
        race: "White",
        ethnicity: "Not Hispanic or Latino",
        state: clinician.state.code,
        symptoms: ["Cough"],
        symptoms_started_on: "2026-01-02",
        recent_travel: false,
        transport: [],
      },
      consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    },
    String(session.access_token),
  );
  return (created.data as { id: string }).id;
}
