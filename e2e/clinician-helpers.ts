import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import { Secret, TOTP } from "otpauth";

/**
 * The demo clinician's side of a journey, through the main API as the console's pages call it: its
 * current second-factor code and a logged-in token for the care-team calls. Free of the test runner
 * (node:assert checks): the benchmarks drive the same steps.
 */

/** The demo clinician's code by the API's clock (other journeys move it), `stepsAhead` steps on. */
export async function demoCode(apiUrl: string, stepsAhead = 0): Promise<string> {
  const response = await fetch(`${apiUrl}/dev/clock`);
  const now = Date.parse(((await response.json()) as { data: { now: string } }).data.now);
  const totp = new TOTP({
    secret: Secret.fromBase32(DEMO_CLINICIAN.totp_secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: now + stepsAhead * 30_000 });
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
  // A code is taken once: when another journey just used this one, the next step's is accepted too.
  let token = "";
  for (const stepsAhead of [0, 1]) {
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
