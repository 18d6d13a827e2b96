import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { type Account, signUp as signUpWithMail } from "./account-steps.ts";
import { type ClinicianAccount, clinicianAccount } from "./clinician-helpers.ts";
import type { ClinicianJourney } from "./clinician-pool.ts";
import { journeyStack } from "./journey-stack.ts";
import { createPatient, logInSession, signUpPatient } from "./session-fixtures.ts";

export {
  type Account,
  fillProfile,
  latestMail,
  linkIn,
  login,
  logout,
  mailText,
  newAccount,
  PROFILE,
  waitForHydration,
  waitForPath,
} from "./account-steps.ts";

/**
 * Signs up through /sign-up and follows the link of the sign-up e-mail (account-steps.ts), reading
 * the e-mails of this test file's stack (journey-stack.ts) unless `stackDataDir` names another stack's DATA_DIR.
 */
export function signUp(
  page: Page,
  baseUrl: string,
  account: Account,
  stackDataDir: string = journeyStack().dataDir,
): Promise<void> {
  return signUpWithMail(page, baseUrl, account, stackDataDir);
}

export { journeyStack } from "./journey-stack.ts";

/**
 * A new patient logged in in `context`, made through the public API and the web's own
 * confirmation step (session-fixtures.ts) instead of the sign-up form, which the accounts journey
 * drives; the profile is not completed yet (its next page is /almost-there).
 */
export function newPatient(context: BrowserContext, overrides: Partial<Account> = {}): Promise<Account> {
  return signUpPatient(context, journeyStack(), overrides);
}

/** A confirmed patient account without a session, for a journey that logs in itself. */
export function newPatientAccount(overrides: Partial<Account> = {}): Promise<Account> {
  return createPatient(journeyStack(), overrides);
}

/**
 * Logs `credentials` in in `context` through the web's login form, posted without the page (the
 * login form itself is the accounts journey's); answers where the login continues.
 */
export function logInContext(
  context: BrowserContext,
  credentials: Pick<Account, "email" | "password">,
  redirectTo?: string,
): Promise<string> {
  return logInSession(context, journeyStack().baseUrl, credentials, redirectTo);
}

/**
 * This journey's own clinician (clinician-pool.ts): invited before the stack started, its password
 * and second factor set before the journeys ran; only this journey spends its codes.
 */
export function clinicianFor(journey: ClinicianJourney): ClinicianAccount {
  const { apiUrl, clinicians: pool } = journeyStack();
  if (!pool)
    throw new Error("The journeys' clinicians are invited by global-setup.ts with the stack it starts");
  return clinicianAccount(apiUrl, pool[journey]);
}

/** Moves the API's test clock forward (POST /dev/clock/advance: trials ending, the next TOTP step). */
export async function advanceApiClock(seconds: number): Promise<void> {
  const response = await fetch(`${journeyStack().apiUrl}/dev/clock/advance`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
  expect(response.status, "POST /dev/clock/advance (the API must run outside production)").toBe(200);
}
