import type { Clock } from "#api/platform/clock.ts";
import { bearer, createTestApp, registerOperator, registerPatient, type TestApp } from "#api/test-support.ts";

/**
 * A test app for the operations console's figures: an operator (second factor on) and a patient
 * whose visits a test writes, sessions that outlast the clock's jumps, and a GET as the operator.
 */
export async function operationsTestApp(clock: Clock & { now(): Date }, env: Record<string, string> = {}) {
  const t: TestApp = await createTestApp({
    clock,
    env: { RATE_LIMIT_MAX: "100000", SESSION_IDLE_MINUTES: "300", ...env },
  });
  const operator = await registerOperator(t, clock.now());
  const patient = await registerPatient(t.app);
  const get = (url: string, token = operator.access_token) =>
    t.app.inject({ method: "GET", url, headers: bearer(token), remoteAddress: "203.0.113.9" });
  return { t, operator, patient, get };
}
