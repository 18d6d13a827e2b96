import { DEMO_CLINICIAN, DEMO_PATIENT } from "@ambercare/contracts/demo";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyStack, logInContext, login, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openPage, unexpected } from "./browser.ts";
import { demoClinician, enterCode } from "./clinician-helpers.ts";

/**
 * Both sides of live care: the demo clinician logs in with the password and a TOTP code on the login
 * pages and lands on the console; a patient is refused the console; the clinician is sent from the
 * patient's pages to it. The one journey of the demo clinician: the others have their own.
 */

const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the care console", () => {
  it("lets the demo clinician in with password and code, and keeps them out of the patient's pages", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await login(page, baseUrl, DEMO_CLINICIAN, { expectPath: "/login/second-factor" });
      await enterCode(page, demoClinician(apiUrl));
      // The URL changes a moment before the new page renders: wait for its heading, then read the title.
      await page.getByRole("heading", { level: 1, name: "Care console" }).waitFor();
      // Requests other journeys left waiting lead the title with their count: "(2) Care console | Ambercare".
      expect(await page.title()).toMatch(/^(\(\d+\) )?Care console \| Ambercare$/);
      const identity = page.getByRole("banner").getByTestId("console-identity");
      expect(await identity.textContent()).toContain("Casey Carter, MD");
      await expectNoAxeViolations(page);

      await page.goto(`${baseUrl}/my-profile`);
      await waitForPath(page, "/console");
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("refuses a patient", async () => {
    const { context, page } = await openPage(browser);
    try {
      expect(await logInContext(context, DEMO_PATIENT)).toBe("/");
      const response = await page.goto(`${baseUrl}/console`);
      expect(response?.status()).toBe(403);
      await page.getByRole("heading", { level: 1, name: "Access denied" }).waitFor();
    } finally {
      await context.close();
    }
  });
});
