import type { Page } from "playwright-core";
import { expect, inject } from "vitest";
import { type Account, signUp as signUpWithMail } from "./account-steps.ts";

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
 * the e-mails of the journeys' shared stack unless `stackDataDir` names another stack's DATA_DIR.
 */
export function signUp(
  page: Page,
  baseUrl: string,
  account: Account,
  stackDataDir: string = inject("dataDir"),
): Promise<void> {
  return signUpWithMail(page, baseUrl, account, stackDataDir);
}

/** Moves the API's test clock forward (POST /dev/clock/advance: trials ending, the next TOTP step). */
export async function advanceApiClock(seconds: number): Promise<void> {
  const response = await fetch(`${inject("apiUrl")}/dev/clock/advance`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seconds }),
  });
  expect(response.status, "POST /dev/clock/advance (the API must run outside production)").toBe(200);
}
