import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";

/**
 * The demo clinician's side of a journey, through the main API as the console's pages call it: its
 * current second-factor code and a logged-in token for the care-team calls. Free of the test runner
 * (node:assert checks): the benchmarks drive the same steps.
 */

const STEP_MS = 30_000;

/** The API's clock (GET /dev/clock): other journeys move it. */
async function apiNow(apiUrl: string): Promise<number> {
  const response = await fetch(`${apiUrl}/dev/clock`);
  return Date.parse(((await response.json()) as { data: { now: string } }).data.now);
}

/** The demo clinician's code by the API's clock, `stepsAhead` steps on. */
export async function demoCode(apiUrl: string, stepsAhead = 0): Promise<string> {
  const totp = new TOTP({
    secret: Secret.fromBase32(DEMO_CLINICIAN.totp_secret),
    algorithm: "SHA1",
    digits: 6,
    period: STEP_MS / 1000,
  });
  return totp.generate({ timestamp: (await apiNow(apiUrl)) + stepsAhead * STEP_MS });
}

/** This step's code, the next step's, then the next step's again once its window has come. */
const SECOND_FACTOR_ATTEMPTS = [
  { stepsAhead: 0, waitForNextStep: false },
  { stepsAhead: 1, waitForNextStep: false },
  { stepsAhead: 1, waitForNextStep: true },
] as const;

/**
 * On /login/second-factor, logs the demo clinician in with its current code and waits for the
 * console. A code is taken once, and every journey logs this one account in (in the browser and
 * through the API), so the journey before may have taken this step's code and the next one: then
 * the next step's is tried, and failing that, the one after once the API's clock reaches its window.
 */
export async function enterDemoCode(page: Page, apiUrl: string): Promise<void> {
  const attempts = SECOND_FACTOR_ATTEMPTS;
  for (const [index, { stepsAhead, waitForNextStep }] of attempts.entries()) {
    if (waitForNextStep) {
      const now = await apiNow(apiUrl);
      await new Promise((resolve) => setTimeout(resolve, STEP_MS - (now % STEP_MS) + 250));
    }
    await page.getByLabel("Code from your authenticator app").fill(await demoCode(apiUrl, stepsAhead));
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    // The waiter that loses the race times out later: caught, so that it fails nothing.
    const outcome = await Promise.race([
      page
        .waitForURL((url) => url.pathname === "/console")
        .then(() => "in" as const)
        .catch(() => "no answer" as const),
      page
        .locator('input[aria-invalid="true"]')
        .waitFor()
        .then(() => "refused" as const)
        .catch(() => "no answer" as const),
    ]);
    if (outcome === "in") return;
    if (outcome === "no answer")
      throw new Error("the second-factor form neither logged in nor refused the code");
    // A fresh form for the next code: the refused one keeps its error until it is sent again. A GET,
    // not a reload: a form sent before the page hydrated was a real POST, which a reload would repeat.
    if (index < attempts.length - 1) await page.goto(page.url());
  }
  throw new Error("the demo clinician's code was refused three times");
}

async function postJson(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.status < 300, text);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The demo clinician, logged in with password and code; `step` calls a care-team visit endpoint. */
export async function demoClinician(apiUrl: string) {
  const api = `${apiUrl}/api/v1/api`;
  const pending = await postJson(`${api}/auth/login`, {
    email: DEMO_CLINICIAN.email,
    password: DEMO_CLINICIAN.password,
  });
  // A code is taken once: when another journey just used this one, the next step's is accepted too;
  // when both were taken, the next step's is tried again once the API's clock reaches its window
  // (as enterDemoCode does in the browser).
  let token = "";
  for (const { stepsAhead, waitForNextStep } of SECOND_FACTOR_ATTEMPTS) {
    if (waitForNextStep) {
      const now = await apiNow(apiUrl);
      await new Promise((resolve) => setTimeout(resolve, STEP_MS - (now % STEP_MS) + 250));
    }
    const response = await fetch(`${api}/auth/login/second-factor`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        pending_login_token: pending.pending_login_token,
        code: await demoCode(apiUrl, stepsAhead),
      }),
    });
    if (response.ok) {
      token = String(((await response.json()) as { access_token: string }).access_token);
      break;
    }
  }
  assert.notEqual(token, "", "the demo clinician's second login step");
  return {
    step(visitId: string, step: "accept" | "start" | "complete", body: object = {}) {
      return postJson(`${api}/care-team/visits/${visitId}/${step}`, body, token);
    },
  };
}

/**
 * A visit the member requests with the demo clinician's provider (an adult with a cough in
 * California), through the API with the member's own login; returns its id.
 */
export async function requestVisit(
  apiUrl: string,
  patient: { email: string; password: string },
  type: "chat" | "video",
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
      provider_slug: "casey-carter-demo",
      intake: {
        patient: "self",
        gender: "female",
        race: "White",
        ethnicity: "Not Hispanic or Latino",
        state: "CA",
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
