import { Secret, TOTP } from "otpauth";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  advanceApiClock,
  fillProfile,
  journeyStack,
  latestMail,
  linkIn,
  login,
  logout,
  newAccount,
  newPatient,
  newPatientAccount,
  signUp,
  waitForHydration,
  waitForPath,
} from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openContext, openPage, unexpected } from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";

/**
 * The accounts journey in Chromium against the running web server and API: sign up → complete the
 * profile → log out → log in → forgot password → the link from the .eml file → new password → log in
 * with it → update the profile → log out; every page of it checked with axe. The sign-up, login and
 * two-step forms are driven through the pages here; the other journeys get their patients from the
 * session fixtures (session-fixtures.ts), and so do this file's journeys about something else.
 */

const { baseUrl, dataDir, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function errorSummary(page: Page) {
  const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
  await summary.waitFor();
  return summary;
}

describe("accounts journey", () => {
  it("signs up, completes the profile, logs out and in, resets the password, updates the profile", async () => {
    expect(dataDir, "E2E_DATA_DIR (the stack's DATA_DIR) is needed to read the e-mail").not.toBe("");
    const account = newAccount();
    const newPassword = "quiet river stone 77";
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      // A new patient has no membership: on a slow run the not-subscribed popup (5 s on /almost-there,
      // which is not one of its excluded pages) would cover the profile form's button.
      await dismissPopupBeforehand(context);
      // Sign up: an empty submission shows every error, announced and focused.
      await page.goto(`${baseUrl}/sign-up`);
      expect(await page.title()).toBe("Sign up | Ambercare");
      await waitForHydration(page);
      await expectNoAxeViolations(page);
      await page.getByLabel("First name", { exact: true }).fill(account.firstName);
      await page.getByRole("button", { name: "Create account" }).click();
      const summary = await errorSummary(page);
      await expect.poll(() => summary.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await summary.getByRole("link").allTextContents()).toEqual([
        "Enter your last name.",
        "Enter your e-mail address.",
        "Enter your password.",
        "To create an account, agree to the Terms of Use and the Privacy Policy.",
      ]);
      const lastName = page.getByLabel("Last name", { exact: true });
      expect(await lastName.getAttribute("aria-invalid")).toBe("true");
      expect(await lastName.getAttribute("aria-describedby")).toBe("sign-up-last-name-error");
      expect(await page.getByLabel("First name", { exact: true }).inputValue()).toBe(account.firstName);
      await expectNoAxeViolations(page);

      // The password can be shown and hidden again.
      const password = page.getByLabel("Password", { exact: true });
      await password.fill(account.password);
      await page.getByRole("button", { name: "Show password" }).click();
      expect(await password.getAttribute("type")).toBe("text");
      await page.getByRole("button", { name: "Hide password" }).click();
      expect(await password.getAttribute("type")).toBe("password");

      await signUp(page, baseUrl, account);

      // The session cookies, the tokens out of JavaScript's reach (ADR 002).
      const session = new Map((await context.cookies()).map((cookie) => [cookie.name, cookie]));
      for (const name of ["isLoggedIn", "accessToken", "userID", "fltAccessToken", "fltUserId"]) {
        expect(session.get(name)?.httpOnly, name).toBe(true);
        expect(session.get(name)?.sameSite, name).toBe("Lax");
      }
      expect(await page.evaluate(() => document.cookie)).not.toMatch(/accessToken|fltAccessToken/);

      // Almost there: the name is filled in; a half-filled form keeps what was typed.
      await expect.poll(() => page.title()).toBe("Almost there | Ambercare");
      expect(await page.getByLabel("First name").inputValue()).toBe(account.firstName);
      expect(await page.getByLabel("Last name").inputValue()).toBe(account.lastName);
      await expectNoAxeViolations(page);
      await page.getByLabel("City").fill("Seattle");
      await page.getByLabel("ZIP code").fill("981");
      await page.getByRole("button", { name: "Save and continue" }).click();
      const profileErrors = await errorSummary(page);
      expect(await profileErrors.getByRole("link").allTextContents()).toEqual([
        "Enter your date of birth.",
        "Enter your phone number.",
        "Enter the first line of your address.",
        "Choose your state.",
        "Enter a 5-digit ZIP code, like 98101, or a ZIP+4 code, like 98101-1234.",
        "Choose your gender.",
      ]);
      expect(await page.getByLabel("City").inputValue()).toBe("Seattle");
      expect(await page.getByLabel("ZIP code").inputValue()).toBe("981");
      await expectNoAxeViolations(page);
      await fillProfile(page);
      await page.getByRole("button", { name: "Save and continue" }).click();
      await waitForPath(page, "/my-profile");
      await page.getByText(account.email).waitFor();
      expect(await page.getByLabel("City").inputValue()).toBe("Seattle");
      expect(await page.getByLabel("State").inputValue()).toBe("WA");
      await expectNoAxeViolations(page);

      // Log out, then log in again.
      await logout(page);
      await expectNoAxeViolations(page);
      await login(page, baseUrl, account);
      await page.goto(`${baseUrl}/my-profile`);
      await waitForPath(page, "/my-profile");
      await logout(page);

      // Forgot password → the link in the e-mail → a new password.
      await page.goto(`${baseUrl}/forgot-password`);
      // The form's captcha runs once the page is hydrated.
      await waitForHydration(page);
      await expectNoAxeViolations(page);
      const requestedAt = Date.now();
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByRole("button", { name: "Send the link" }).click();
      const sent = page.getByRole("status").filter({ hasText: "Check your e-mail" });
      await sent.waitFor();
      expect(await sent.textContent()).toContain("If an account exists for this e-mail address");
      await expectNoAxeViolations(page);
      const mail = await latestMail(dataDir, {
        template: "password-reset",
        to: account.email,
        since: requestedAt,
      });
      const resetPath = linkIn(mail, "/reset-password");
      expect(resetPath).toMatch(/^\/reset-password\?token=/);

      await page.goto(`${baseUrl}${resetPath}`);
      expect(await page.title()).toBe("Reset password | Ambercare");
      await expectNoAxeViolations(page);
      await page.getByLabel("New password", { exact: true }).fill(newPassword);
      await page.getByLabel("Repeat the new password").fill(`${newPassword}!`);
      await page.getByRole("button", { name: "Save the new password" }).click();
      expect(await (await errorSummary(page)).getByRole("link").allTextContents()).toEqual([
        "The passwords do not match.",
      ]);
      await page.getByLabel("New password", { exact: true }).fill(newPassword);
      await page.getByLabel("Repeat the new password").fill(newPassword);
      await page.getByRole("button", { name: "Save the new password" }).click();
      const changed = page.getByRole("status").filter({ hasText: "Your password has been changed" });
      await changed.waitFor();
      await expectNoAxeViolations(page);

      // The link works once.
      await page.goto(`${baseUrl}${resetPath}`);
      await page.getByLabel("New password", { exact: true }).fill("another fine password");
      await page.getByLabel("Repeat the new password").fill("another fine password");
      await page.getByRole("button", { name: "Save the new password" }).click();
      await page.getByRole("alert").filter({ hasText: "This link cannot be used" }).waitFor();
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Request a new link" }).click();
      await waitForPath(page, "/forgot-password");

      // The old password no longer works; the new one does.
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await (await errorSummary(page)).getByText("Incorrect e-mail or password.").waitFor();
      await login(
        page,
        baseUrl,
        { email: account.email, password: newPassword },
        { from: "/login?redirectTo=%2Fmy-profile", expectPath: "/my-profile" },
      );

      // Update the profile: the change is saved, announced, and still there after a reload.
      await page.getByLabel("City").fill("Spokane");
      await page.getByLabel("ZIP code").fill("99201");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Your profile has been saved." }).waitFor();
      await expectNoAxeViolations(page);
      await page.reload();
      expect(await page.getByLabel("City").inputValue()).toBe("Spokane");
      expect(await page.getByLabel("ZIP code").inputValue()).toBe("99201");

      await logout(page);
      await expect.poll(() => page.title()).toBe("Log in | Ambercare");
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("keeps the e-mail and explains a wrong password", async () => {
    const account = await newPatientAccount();
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/login`);
      await waitForHydration(page);
      await page.getByLabel("E-mail address").fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill("not the password");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      const summary = await errorSummary(page);
      expect(await summary.textContent()).toContain("Incorrect e-mail or password.");
      await expect.poll(() => summary.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.getByLabel("E-mail address").inputValue()).toBe(account.email);
      expect(await page.getByLabel("Password", { exact: true }).inputValue()).toBe("not the password");
      await expectNoAxeViolations(page);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("sends the visitor to /login from a protected page after logout, and back after logging in", async () => {
    const { context, page } = await openPage(browser);
    try {
      const account = await newPatient(context);
      await page.goto(`${baseUrl}/almost-there`);
      await logout(page);
      const cookies = await context.cookies();
      expect(cookies.filter((c) => ["accessToken", "fltAccessToken", "isLoggedIn"].includes(c.name))).toEqual(
        [],
      );
      await page.goto(`${baseUrl}/my-profile`);
      const url = new URL(page.url());
      expect(url.pathname).toBe("/login");
      expect(url.searchParams.get("redirectTo")).toBe("/my-profile");
      // The profile is not complete yet: /almost-there comes first, then the page asked for.
      await login(page, baseUrl, account, { expectPath: "/almost-there" });
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/my-profile");
      await fillProfile(page);
      await page.getByRole("button", { name: "Save and continue" }).click();
      await waitForPath(page, "/my-profile");
    } finally {
      await context.close();
    }
  });

  it("logs out a session whose token the API no longer accepts", async () => {
    const { context, page } = await openPage(browser);
    try {
      await newPatient(context);
      await page.goto(`${baseUrl}/almost-there`);
      // Keep the cookies of this session, log out (the API revokes both tokens), then put them back.
      const stale = await context.cookies();
      await logout(page);
      await context.addCookies(stale.filter((c) => c.value !== ""));
      await page.goto(`${baseUrl}/my-profile`);
      await waitForPath(page, "/login");
      expect(new URL(page.url()).searchParams.get("redirectTo")).toBe("/my-profile");
      const names = (await context.cookies()).map((c) => c.name);
      expect(names).not.toContain("accessToken");
      expect(names).not.toContain("fltAccessToken");
    } finally {
      await context.close();
    }
  });

  it("works without JavaScript: the forms post and the errors render on the server", async () => {
    const { context } = await openContext(browser, {
      javaScriptEnabled: false,
      viewport: { width: 320, height: 800 },
    });
    const page = await context.newPage();
    try {
      await page.goto(`${baseUrl}/sign-up`);
      await page.getByLabel("E-mail address").fill("not-an-email");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("alert").filter({ hasText: "There is a problem" }).waitFor();
      expect(await page.getByLabel("E-mail address").inputValue()).toBe("not-an-email");
      expect(await page.getByText("Enter an e-mail address in the form name@example.com.").count()).toBe(2);
      // No Show button without JavaScript; the field still works.
      expect(await page.getByRole("button", { name: "Show password" }).count()).toBe(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });

  it("turns on two-step login with a code of the secret shown, then logs in with a code", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    /** What an authenticator app shows `stepsAhead` 30-second steps from the API's clock (which other journeys move). */
    const codeOf = async (secret: string, stepsAhead: number) => {
      const response = await fetch(`${apiUrl}/dev/clock`);
      const now = Date.parse(((await response.json()) as { data: { now: string } }).data.now);
      const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
      return totp.generate({ timestamp: now + stepsAhead * 30_000 });
    };
    try {
      const account = await newPatient(context);
      await page.goto(`${baseUrl}/my-profile/security`);
      expect(await page.title()).toBe("Security | Ambercare");
      await page.getByRole("button", { name: "Turn on two-step login" }).click();
      const secretText = page.locator("[data-totp-secret]");
      await secretText.waitFor();
      const secret = (await secretText.textContent())?.trim() ?? "";
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const qr = page.getByRole("img", { name: "QR code for your authenticator app" });
      expect(await qr.locator("svg").count()).toBe(1);
      await expectNoAxeViolations(page);

      // A wrong code is refused, announced, and the secret stays on the page.
      const code = page.getByLabel("Code from your authenticator app");
      await code.fill("12345");
      await page.getByRole("button", { name: "Turn on", exact: true }).click();
      const summary = await errorSummary(page);
      expect(await summary.textContent()).toContain("The code is incorrect");
      expect((await secretText.textContent())?.trim()).toBe(secret);

      await code.fill(await codeOf(secret, 0));
      await page.getByRole("button", { name: "Turn on", exact: true }).click();
      const recoveryCodes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      await recoveryCodes.first().waitFor();
      expect(await recoveryCodes.count()).toBe(10);
      const firstCode = await recoveryCodes.first().textContent();
      await expectNoAxeViolations(page);

      // Logging in now takes the password, then a code; no session before the code.
      await logout(page);
      await login(page, baseUrl, account, { expectPath: "/login/second-factor" });
      const cookies = new Map((await context.cookies()).map((cookie) => [cookie.name, cookie]));
      expect(cookies.get("pendingLogin")?.httpOnly).toBe(true);
      expect(cookies.get("isLoggedIn")?.value ?? "").toBe("");
      await expectNoAxeViolations(page);
      // The next step's code: the one used to switch it on cannot be used again.
      await page.getByLabel("Code from your authenticator app").fill(await codeOf(secret, 1));
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      // This patient never completed the profile: the login continues there.
      await waitForPath(page, "/almost-there");
      const session = new Map((await context.cookies()).map((cookie) => [cookie.name, cookie]));
      expect(session.get("isLoggedIn")?.value).toBe("true");
      expect(session.get("fltAccessToken")?.httpOnly).toBe(true);
      expect(session.get("pendingLogin")).toBeUndefined();
      await page.goto(`${baseUrl}/my-profile/security`);
      await page.getByText("Two-step login is on.", { exact: false }).first().waitFor();

      // Ten new recovery codes, with the password and a current code; the earlier ones stop working.
      // The code of the login above is spent: the next one comes with the next step.
      await advanceApiClock(60);
      const newCodesForm = page.locator("form", {
        has: page.locator('input[name="intent"][value="recovery-codes"]'),
      });
      await newCodesForm.getByLabel("Current password").fill(account.password);
      await newCodesForm.getByLabel("Code from your authenticator app").fill(await codeOf(secret, 0));
      await newCodesForm.getByRole("button", { name: "Get new recovery codes" }).click();
      await page.getByRole("heading", { name: "Your new recovery codes" }).waitFor();
      const fresh = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      expect(await fresh.count()).toBe(10);
      expect(await fresh.allTextContents()).not.toContain(firstCode);
      const newCode = (await fresh.first().textContent()) ?? "";
      await expectNoAxeViolations(page);

      // Turning it off with one of the new codes keeps this browser signed in, on both APIs' pages.
      await page.goto(`${baseUrl}/my-profile/security`);
      const offForm = page.locator("form", { has: page.locator('input[name="intent"][value="disable"]') });
      await offForm.getByLabel("Current password").fill(account.password);
      await offForm.getByLabel("Code from your authenticator app").fill(newCode);
      await offForm.getByRole("button", { name: "Turn off" }).click();
      await page.getByText("Two-step login is off. We have sent you an e-mail about it.").waitFor();
      for (const path of ["/my-profile/billing-history", "/my-profile"]) {
        await page.goto(`${baseUrl}${path}`);
        expect(new URL(page.url()).pathname).toBe(path);
      }
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
