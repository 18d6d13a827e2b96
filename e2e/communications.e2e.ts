import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, WEB_DIR } from "../scripts/lib/stack.mjs";
import {
  type Account,
  journeyStack,
  latestMail,
  linkIn,
  newAccount,
  newPatient,
  waitForHydration,
  waitForPath,
} from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openContext, openPage, unexpected } from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import { JOURNEY_WEB_ENV } from "./journey-env.ts";

/**
 * The communications journeys in Chromium against the running web server and API: the contact form (with its
 * captcha, solved in the browser), the newsletter's double opt-in, unsubscribe and resubscribe from
 * the links of the .eml files, the support widget reaching My profile → Messages, and the
 * Washington My Health My Data page (export, deletion). Every new page is checked with axe at
 * 1280 and 320 px, and no journey may log a console error (the CSP included).
 */

const { baseUrl, apiUrl, dataDir } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function statusWith(page: Page, text: string) {
  const status = page.getByRole("status").filter({ hasText: text });
  await status.waitFor();
  return status;
}

/** A new patient logged in in the page's context (the sign-up form is the accounts journey's). */
function signedUp(page: Page): Promise<Account> {
  return newPatient(page.context());
}

describe("contact form", () => {
  it("sends a message past the captcha, acknowledges it by e-mail, and keeps what was typed on a failure", async () => {
    expect(dataDir, "E2E_DATA_DIR (the stack's DATA_DIR) is needed to read the e-mail").not.toBe("");
    const email = newAccount().email;
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/contact-us`);
      expect(await page.title()).toBe("Contact us | Ambercare");
      await waitForHydration(page);
      const main = page.getByRole("main");
      await main.getByLabel("Your name").fill("Ana Tester");
      await main.getByLabel("E-mail address").fill(email);
      const message = "Can I change the pharmacy for my prescription?\nThank you.";
      await main.getByLabel("Message").fill(message);
      expect(await main.getByLabel("Message").getAttribute("rows")).toBe("5");

      // No topic: the error is announced, and nothing typed is lost.
      await main.getByRole("button", { name: "Send message" }).click();
      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await summary.getByRole("link", { name: "Choose a topic." }).waitFor();
      expect(await main.getByLabel("Your name").inputValue()).toBe("Ana Tester");
      expect(await main.getByLabel("E-mail address").inputValue()).toBe(email);
      expect(await main.getByLabel("Message").inputValue()).toBe(message);

      const sentAt = Date.now();
      await main.getByLabel("Topic").selectOption({ label: "Consultations" });
      await main.getByRole("button", { name: "Send message" }).click();
      const sent = await statusWith(page, "Message sent");
      expect(await sent.textContent()).toContain("We have received your message");
      await expectNoAxeViolations(page);

      const ack = await latestMail(dataDir, {
        template: "contact-acknowledgement",
        to: email,
        since: sentAt,
      });
      expect(ack).toContain("Ana Tester");
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("without JavaScript says what the captcha needs and keeps everything typed", async () => {
    const { context } = await openContext(browser, {
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${baseUrl}/contact-us`);
      const main = page.getByRole("main");
      expect(await main.getByText("needs JavaScript").count()).toBeGreaterThan(0);
      await main.getByLabel("Your name").fill("No Script");
      await main.getByLabel("E-mail address").fill("noscript@example.org");
      await main.getByLabel("Topic").selectOption({ label: "Feedback" });
      await main.getByLabel("Message").fill("Sent without JavaScript.");
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST"),
        main.getByRole("button", { name: "Send message" }).click(),
      ]);
      expect(response.status()).toBe(400);
      await page.getByRole("alert").filter({ hasText: "Please complete the captcha" }).waitFor();
      expect(await main.getByLabel("Your name").inputValue()).toBe("No Script");
      expect(await main.getByLabel("Message").inputValue()).toBe("Sent without JavaScript.");
    } finally {
      await context.close();
    }
  });
});

describe("newsletter with double opt-in", () => {
  it("signs up in the footer, confirms from the e-mail, unsubscribes from the welcome e-mail and resubscribes", async () => {
    const email = newAccount().email;
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/about`);
      await waitForHydration(page);
      const footer = page.getByRole("contentinfo");
      const requestedAt = Date.now();
      await footer.getByLabel("Your e-mail").fill(email);
      await footer.getByRole("button", { name: "Subscribe" }).click();
      await statusWith(page, "we have sent you an e-mail with a link to confirm");
      // The visitor stayed on the page.
      expect(new URL(page.url()).pathname).toBe("/about");

      const confirmation = await latestMail(dataDir, {
        template: "list-confirmation",
        to: email,
        since: requestedAt,
      });
      const confirmPath = linkIn(confirmation, "/confirm-subscription");
      // Opening the link confirms nothing (mail scanners open links): the button does.
      await page.goto(`${baseUrl}${confirmPath}`);
      expect(await page.title()).toBe("Confirm your subscription | Ambercare");
      await expectNoAxeViolations(page);
      const confirmedAt = Date.now();
      await page.getByRole("button", { name: "Confirm my subscription" }).click();
      const confirmed = await statusWith(page, "Subscription confirmed");
      expect(await confirmed.textContent()).toContain(email);
      await expectNoAxeViolations(page);

      const welcome = await latestMail(dataDir, { template: "list-welcome", to: email, since: confirmedAt });
      const unsubscribePath = linkIn(welcome, "/unsubscribe");
      await page.goto(`${baseUrl}${unsubscribePath}`);
      await page.getByText(`Stop sending our newsletter to ${email}?`).waitFor();
      await expectNoAxeViolations(page);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await statusWith(page, "You are unsubscribed");
      await expectNoAxeViolations(page);
      await page.getByRole("button", { name: "Resubscribe" }).click();
      await statusWith(page, "Welcome back");
      await page.getByRole("button", { name: "Unsubscribe" }).waitFor();
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("refuses a forged unsubscribe link with the spec's words or the API's reason", async () => {
    const { context, page } = await openPage(browser);
    try {
      const forged = `${Buffer.from("newsletter\nsomeone@example.org").toString("base64url")}.forged-signature-0000`;
      await page.goto(`${baseUrl}/unsubscribe?token=${encodeURIComponent(forged)}`);
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await page
        .getByRole("alert")
        .filter({ hasText: /Failed to unsubscribe|This link is invalid/ })
        .waitFor();
    } finally {
      await context.close();
    }
  });
});

describe("support widget", () => {
  it("is a small button that loads its panel on demand; a patient's message reaches My profile → Messages", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      // A patient without a membership: the not-subscribed popup would cover the panel on a slow run.
      await dismissPopupBeforehand(context);
      await signedUp(page);
      const panelChunks: string[] = [];
      page.on("request", (request) => {
        if (/support-panel/.test(request.url())) panelChunks.push(request.url());
      });
      await page.goto(`${baseUrl}/`);
      await waitForHydration(page);
      expect(panelChunks, "the panel's code is not part of the first paint").toEqual([]);

      const launcher = page.getByRole("button", { name: "E-mail support" });
      await launcher.click();
      const dialog = page.getByRole("dialog", { name: "Support" });
      await dialog.waitFor();
      expect(panelChunks.length).toBeGreaterThan(0);
      // Focus starts in the message; Esc closes and gives focus back to the button.
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("TEXTAREA");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("E-mail support");

      await launcher.click();
      await dialog.waitFor();
      await expectNoAxeViolations(page);
      // Logged in: the reply goes to the account's address, no e-mail field.
      expect(await dialog.getByLabel("E-mail address").count()).toBe(0);
      const text = `Widget message ${Date.now()}`;
      await dialog.getByLabel("Your message").fill(text);
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await dialog.getByRole("status").filter({ hasText: "Message sent" }).waitFor();
      await dialog.getByRole("link", { name: "See my messages" }).click();
      await waitForPath(page, "/my-profile/messages");

      const support = page.getByRole("region", { name: "Support" });
      await support.getByText(text).waitFor();
      expect(await support.getByText("Support form").count()).toBeGreaterThan(0);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("takes a visitor's message with the e-mail for the reply", async () => {
    const { context, page, consoleErrors } = await openPage(browser, {
      viewport: { width: 320, height: 700 },
    });
    try {
      await page.goto(`${baseUrl}/pricing-options`);
      await waitForHydration(page);
      await page.getByRole("button", { name: "E-mail support" }).click();
      const dialog = page.getByRole("dialog", { name: "Support" });
      await dialog.getByLabel("Your message").fill("Do you accept HSA cards?");
      await dialog.getByLabel("E-mail address").fill(newAccount().email);
      await expectNoAxeViolations(page);
      await dialog.getByRole("button", { name: "Send", exact: true }).click();
      await dialog.getByRole("status").filter({ hasText: "We will reply by e-mail" }).waitFor();
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("Washington My Health My Data", () => {
  it("downloads the patient's own data only, then deletes the account, logging out for good", async () => {
    // Another patient, whose data must not appear in the export.
    const other = await openPage(browser);
    const otherAccount = await signedUp(other.page);
    await other.context.close();

    const { context, page, consoleErrors } = await openPage(browser);
    try {
      const account = await signedUp(page);
      await page.goto(`${baseUrl}/my-profile/health-data`);
      expect(await page.title()).toBe("Your health data | Ambercare");
      await waitForHydration(page);
      expect(await page.getByText("Billing records").count()).toBeGreaterThan(0);

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download as JSON" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^ambercare-my-data-\d{4}-\d{2}-\d{2}\.json$/);
      const exported = await readFile((await download.path()) as string, "utf8");
      const parsed = JSON.parse(exported) as { format_version: number; sections: Record<string, unknown[]> };
      expect(parsed.format_version).toBe(1);
      expect(parsed.sections.account).toEqual([expect.objectContaining({ email: account.email })]);
      expect(exported).toContain(account.email);
      expect(exported).not.toContain(otherAccount.email);

      const [htmlDownload] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download as a readable page (HTML)" }).click(),
      ]);
      const html = await readFile((await htmlDownload.path()) as string, "utf8");
      expect(html).toContain("<h1>Your data at Ambercare</h1>");
      expect(html).toContain(account.email);

      // Consent: give, then withdraw.
      await page.getByRole("button", { name: "Give consent" }).click();
      await statusWith(page, "your consent has been recorded");
      await page.getByRole("button", { name: "Withdraw consent" }).click();
      await statusWith(page, "Your consent has been withdrawn");

      // Deletion: a wrong password keeps the account; the right one closes it.
      await page.getByLabel("Your password").fill("not my password at all");
      await page.getByRole("checkbox", { name: /I understand/ }).check();
      await page.getByRole("button", { name: "Delete my account and data" }).click();
      await page.getByRole("alert").filter({ hasText: "Your password is incorrect." }).waitFor();
      await page.getByLabel("Your password").fill(account.password);
      await page.getByRole("button", { name: "Delete my account and data" }).click();
      await waitForPath(page, "/account-deleted");
      await page.getByRole("heading", { level: 1, name: "Account deleted" }).waitFor();
      await expectNoAxeViolations(page);

      // Logged out: the profile asks for a login, and the old credentials no longer work.
      await page.goto(`${baseUrl}/my-profile`);
      await waitForPath(page, "/login");
      await page.getByLabel("E-mail address", { exact: true }).fill(account.email);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await page.getByRole("alert").filter({ hasText: "Incorrect e-mail or password." }).waitFor();
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each([
  { name: "1280 px", width: 1280, height: 900 },
  { name: "320 px", width: 320, height: 700 },
])("the communication pages at $name", (viewport) => {
  it("have no axe violations, no console errors and no sideways scrolling", async () => {
    const { context, page, consoleErrors } = await openPage(browser, {
      viewport: { width: viewport.width, height: viewport.height },
    });
    try {
      const check = async (path: string) => {
        const response = await page.goto(`${baseUrl}${path}`);
        expect(response?.status(), path).toBe(200);
        await waitForHydration(page);
        await expectNoAxeViolations(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, path).toBeLessThanOrEqual(0);
      };
      for (const path of [
        "/contact-us",
        "/unsubscribe",
        "/unsubscribe?token=bmV3c2xldHRlcgphbmFAZXhhbXBsZS5vcmc.signature-for-the-layout",
        "/confirm-subscription",
        "/confirm-subscription?token=a-token-for-the-layout-check",
        "/account-deleted",
        "/blog",
      ]) {
        await check(path);
      }
      await signedUp(page);
      for (const path of ["/my-profile/messages", "/my-profile/health-data"]) await check(path);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("analytics after consent", () => {
  /** A stand-in for the analytics provider: its script marks the page and counts its loads. */
  let provider: Server;
  let scriptLoads = 0;
  /** A second web server of the same build and API, with ANALYTICS_SCRIPT_URL set. */
  let web: ChildProcess;
  let analyticsBase = "";
  let providerOrigin = "";

  beforeAll(async () => {
    provider = createServer((req, res) => {
      if (req.url?.startsWith("/script.js")) scriptLoads += 1;
      res
        .writeHead(200, { "Content-Type": "text/javascript" })
        .end('document.documentElement.dataset.analytics = "loaded";');
    });
    provider.listen(0, "127.0.0.1");
    await new Promise((resolve) => provider.once("listening", resolve));
    providerOrigin = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    const scriptUrl = `${providerOrigin}/script.js?site=ambercare`;
    const port = await freePort();
    web = spawn(process.execPath, [join(WEB_DIR, "server.mjs")], {
      cwd: WEB_DIR,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        API_PORT: new URL(apiUrl).port,
        DATA_DIR: dataDir,
        ANALYTICS_SCRIPT_URL: scriptUrl,
        ...JOURNEY_WEB_ENV,
      },
      stdio: "ignore",
    });
    analyticsBase = `http://localhost:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${analyticsBase}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline || web.exitCode !== null)
        throw new Error("the analytics web server did not start");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  afterAll(async () => {
    web?.kill("SIGTERM");
    provider?.closeAllConnections();
    provider?.close();
  });

  it("loads no third-party script before consent, asks in a banner, and loads only after Accept", async () => {
    const { context, page, consoleErrors } = await openPage(browser, {
      viewport: { width: 320, height: 700 },
    });
    try {
      const response = await page.goto(`${analyticsBase}/`);
      // The CSP allows exactly the provider's origin, for scripts and calls.
      const csp = new Map(
        (response?.headers()["content-security-policy"] ?? "").split("; ").map((directive) => {
          const [name = "", ...values] = directive.split(" ");
          return [name, values] as const;
        }),
      );
      expect(csp.get("script-src")?.filter((value) => !value.startsWith("'"))).toEqual([providerOrigin]);
      expect(csp.get("connect-src")).toEqual(["'self'", providerOrigin]);
      await waitForHydration(page);
      const banner = page.getByRole("region", { name: "Cookies and analytics" });
      await banner.waitFor();
      await expectNoAxeViolations(page);
      expect(scriptLoads).toBe(0);

      // Decline: the banner goes, nothing loads, also on the next page.
      await banner.getByRole("button", { name: "Decline" }).click();
      await banner.waitFor({ state: "detached" });
      await page.goto(`${analyticsBase}/about`);
      await waitForHydration(page);
      expect(await banner.count()).toBe(0);
      expect(scriptLoads).toBe(0);

      // "Cookie preferences" in the footer asks again; Accept loads the script at once.
      await page.getByRole("contentinfo").getByRole("button", { name: "Cookie preferences" }).click();
      await banner.waitFor();
      await banner.getByRole("button", { name: "Accept" }).click();
      await page.waitForFunction(() => document.documentElement.dataset.analytics === "loaded");
      expect(scriptLoads).toBe(1);
      const consent = (await context.cookies()).find((cookie) => cookie.name === "analyticsConsent");
      expect(consent?.value).toBe("granted");
      const days = ((consent?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(364);

      // Remembered: the next page loads it from the start, with no banner.
      await page.goto(`${analyticsBase}/contact-us`);
      await page.waitForFunction(() => document.documentElement.dataset.analytics === "loaded");
      expect(await banner.count()).toBe(0);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows no banner and loads nothing when no analytics script is configured", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/`);
      await waitForHydration(page);
      expect(await page.getByRole("region", { name: "Cookies and analytics" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Cookie preferences" }).count()).toBe(0);
      const external = await page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((entry) => entry.name)
          .filter((name) => new URL(name).origin !== location.origin),
      );
      expect(external).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
