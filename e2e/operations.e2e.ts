import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyStack, login, newPatient, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openPage, unexpected } from "./browser.ts";
import { buyVisit, dismissPopupBeforehand } from "./checkout-helpers.ts";
import {
  activateStaffAccount,
  apiNow,
  demoClinician,
  requestVisit,
  staffCodes,
} from "./clinician-helpers.ts";
import { E2E_OPERATOR_EMAIL } from "./clinician-pool.ts";

/**
 * The operations console (ADR 065): the operator the care-team command created chooses a password
 * with the e-mailed link and sets up two-step login, logs in with password and code, invites a
 * clinician and sets their hours (a mistake shown as on the console's page), finds a patient's paid visit by e-mail and refunds part of it (the patient's billing
 * history shows it), reads the operations log, and finds that visit's entries in the access log
 * across patients (and their CSV), sees the request waiting on today's board, and the reports'
 * charts, tables and CSV. A patient is refused the console.
 */

const { baseUrl, apiUrl, clinicians } = journeyStack();
/** A 1×1 PNG: a real image for the photo upload. */
const PIXEL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A directory provider no clinician account has: none of the journeys' nor the demo's. */
async function freeProviderSlug(): Promise<string> {
  const taken = new Set([
    DEMO_CLINICIAN.provider_slug,
    ...Object.values(clinicians ?? {}).map((clinician) => clinician.providerSlug),
  ]);
  const response = await fetch(`${apiUrl}/api/v1/api/provider?per_page=50&sort=name`);
  const found = ((await response.json()) as { data: Array<{ slug: string }> }).data;
  const free = found.map((provider) => provider.slug).filter((slug) => !taken.has(slug));
  const slug = free.at(-1);
  if (!slug) throw new Error("no free provider in the directory");
  return slug;
}

/** The elements that stick out of a 320 px page (a table scrolls inside its own box). */
function widerThan320(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > 321)
      .filter((element) => !element.parentElement?.closest(".overflow-x-auto"))
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().width)}`,
      ),
  );
}

describe("the operations console", () => {
  it("lets the operator in with two-step login, invite a clinician, refund part of a visit and read the log", async () => {
    const stack = journeyStack();
    // A patient buys a chat visit and requests it with the demo clinician's provider.
    const patientSide = await openPage(browser);
    await dismissPopupBeforehand(patientSide.context);
    const patient = await newPatient(patientSide.context);
    await buyVisit(patientSide.page, baseUrl, "chat");
    const visitId = await requestVisit(apiUrl, patient, "chat", demoClinician(apiUrl));

    const ready = await activateStaffAccount(stack, E2E_OPERATOR_EMAIL, "operator-invite");
    const nextCode = staffCodes(apiUrl, ready.secret, ready.lastUsedStep);
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await login(
        page,
        baseUrl,
        { email: E2E_OPERATOR_EMAIL, password: ready.password },
        {
          expectPath: "/login/second-factor",
        },
      );
      await page.getByLabel("Code from your authenticator app").fill(await nextCode());
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await waitForPath(page, "/operations");
      await page.getByRole("heading", { level: 1, name: "The care team" }).waitFor();
      expect(await page.getByTestId("operations-identity").textContent()).toContain(E2E_OPERATOR_EMAIL);
      await expectNoAxeViolations(page);

      // Invite a clinician for a provider without an account.
      const slug = await freeProviderSlug();
      const email = `e2e-invited-${Date.now()}@example.org`;
      await page.getByLabel("Clinician's e-mail").fill(email);
      await page.getByLabel("Directory provider").fill(slug);
      await page.getByRole("button", { name: "Send the invitation" }).click();
      await page.getByRole("status").getByText(`Invitation sent to ${email}.`).waitFor();
      const row = page.getByTestId("team").getByRole("row").filter({ hasText: email });
      expect(await row.textContent()).toContain("Active");
      await expectNoAxeViolations(page);

      // Set the invited clinician's hours: a mistake is shown as on the console's page, then saved.
      await row.getByRole("link", { name: `Hours of ${email}` }).click();
      await page.getByRole("heading", { level: 1, name: `Hours of ${email}` }).waitFor();
      const monday = page.getByRole("group", { name: "Monday, range 1" });
      await page.getByLabel("Time zone").selectOption("Europe/Sofia");
      await monday.getByLabel("From").fill("09:00");
      await monday.getByLabel("Until").fill("08:00");
      await page.getByRole("button", { name: "Save the clinician's hours" }).click();
      const problem = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await problem.getByText("The end must be after the start.").waitFor();
      await monday.getByLabel("Until").fill("12:00");
      await page.getByRole("button", { name: "Save the clinician's hours" }).click();
      await page.getByRole("status").getByText("The clinician's hours are saved.").waitFor();
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Back to the team" }).click();
      await waitForPath(page, "/operations");

      // Find the patient's visit and refund part of it.
      await page
        .getByRole("navigation", { name: "Operations" })
        .getByRole("link", { name: "Visits and payments" })
        .click();
      await waitForPath(page, "/operations/visits");
      await page.getByLabel("Patient's e-mail (or part of it)").fill(patient.email);
      await page.getByRole("button", { name: "Find visits" }).click();
      await page.getByTestId("visit-results").waitFor();
      await expectNoAxeViolations(page);
      await page.getByTestId("visit-results").getByRole("link").first().click();
      await page.getByRole("heading", { level: 2, name: "Payments" }).waitFor();
      expect(await page.getByTestId("timeline").textContent()).toContain("Requested");
      expect(await page.content()).not.toContain("Cough");
      await page.getByLabel("Amount in dollars").fill("5.00");
      await page.getByLabel("Reason (the patient reads it in the e-mail)").fill("The wait was too long");
      await page.getByRole("button", { name: "Refund", exact: true }).click();
      await page.getByRole("status").getByText("Refunded $5.00.", { exact: false }).waitFor();
      expect(await page.getByTestId("refunded").textContent()).toContain("$5.00 refunded");
      await expectNoAxeViolations(page);

      // The operations log names the refund, with the operator.
      await page
        .getByRole("navigation", { name: "Operations" })
        .getByRole("link", { name: "Operations log" })
        .click();
      await waitForPath(page, "/operations/log");
      const log = page.getByTestId("operations-log");
      await log.waitFor();
      expect(await log.textContent()).toContain("Refunded a payment");
      expect(await log.textContent()).toContain("Invited a clinician");
      await expectNoAxeViolations(page);

      // The directory: add a provider licensed in WY, see patients find them, let the licence lapse,
      // upload a photo, unlist them.
      await page
        .getByRole("navigation", { name: "Operations" })
        .getByRole("link", { name: "Directory" })
        .click();
      await waitForPath(page, "/operations/directory");
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Add a provider" }).click();
      await waitForPath(page, "/operations/directory/new");
      const tag = Date.now().toString(36);
      const lastName = `Journeytest${tag}`;
      const providerSlug = `journey-${tag}`;
      await page.getByLabel("Address name (slug)").fill(providerSlug);
      await page.getByLabel("First name").fill("Vesna");
      await page.getByLabel("Last name").fill(lastName);
      await page.getByLabel("Credentials").selectOption("NP");
      await page.getByLabel("Biography in English").fill("Nurse practitioner for families.");
      await page.getByLabel("Biography in Bulgarian").fill("Медицинска сестра за семейства.");
      await page.getByLabel("Languages consulted in").fill("english");
      await page.getByLabel("Add a licence", { exact: true }).selectOption("WY");
      await page.getByRole("button", { name: "Add the provider" }).click();
      // A refused form: the problem is announced, what was typed stays.
      await page.getByRole("alert").getByText("Enter two-letter language codes", { exact: false }).waitFor();
      expect(await page.getByLabel("Last name").inputValue()).toBe(lastName);
      await expectNoAxeViolations(page);
      await page.getByLabel("Languages consulted in").fill("en, bg");
      await page.getByRole("button", { name: "Add the provider" }).click();
      await page.getByRole("status").getByText("Added. Patients find the provider now.").waitFor();
      const inState = async (state: string) => {
        const found = await fetch(`${apiUrl}/api/v1/api/provider?state=${state}&q=${lastName}`);
        return ((await found.json()) as { data: Array<{ slug: string }> }).data.map((card) => card.slug);
      };
      expect(await inState("WY")).toEqual([providerSlug]);
      await expectNoAxeViolations(page);
      // Its last valid day was yesterday (the API's clock): no longer offered in WY.
      const yesterday = new Date((await apiNow(apiUrl)) - 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel("Last valid day (WY)").fill(yesterday);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await page.getByRole("status").getByText("Saved. Patients see the change now.").waitFor();
      await page.getByTestId("licences").getByText("Expired").waitFor();
      expect(await inState("WY")).toEqual([]);
      // A photo, checked by the API and served by the image service.
      await page
        .getByLabel("Photo file")
        .setInputFiles({ name: "face.png", mimeType: "image/png", buffer: PIXEL_PNG });
      await page.getByRole("button", { name: "Upload the photo" }).click();
      await page.getByRole("status").getByText("The new photo is in the directory.").waitFor();
      const photo = page.locator("main img").first();
      await expect
        .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      await page
        .getByLabel("Photo file")
        .setInputFiles({ name: "face.png", mimeType: "image/png", buffer: Buffer.from("<svg/>") });
      await page.getByRole("button", { name: "Upload the photo" }).click();
      await page.getByRole("alert").getByText("This file is not a JPEG, PNG or WebP image.").waitFor();
      // Unlisted: the provider's page is gone for patients.
      await page.getByRole("button", { name: "Unlist" }).click();
      await page.getByRole("status").getByText("Unlisted. Patients no longer find this provider.").waitFor();
      expect((await fetch(`${apiUrl}/api/v1/api/provider/${providerSlug}`)).status).toBe(404);
      await expectNoAxeViolations(page);
      // 320 px wide: the editor fits (the licences table scrolls inside its own box).
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await widerThan320(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await page.setViewportSize({ width: 1280, height: 720 });

      // The access log across patients: the operator's reads and refund of that visit, and the
      // same search as CSV through the web.
      await page
        .getByRole("navigation", { name: "Operations" })
        .getByRole("link", { name: "Access log" })
        .click();
      await waitForPath(page, "/operations/access-log");
      await page.getByLabel("Patient's e-mail (or part of it)").fill(patient.email);
      await page.getByLabel("Who acted: e-mail (or part of it)").fill(E2E_OPERATOR_EMAIL);
      await page.getByRole("button", { name: "Search the access log" }).click();
      const access = page.getByTestId("access-log-results");
      await access.waitFor();
      const entries = access.getByRole("row").filter({ hasText: patient.email });
      expect(await entries.filter({ hasText: "Read a visit's steps and payments" }).count()).toBeGreaterThan(
        0,
      );
      expect(await entries.filter({ hasText: "Refunded a payment" }).count()).toBe(1);
      expect(await access.textContent()).toContain(E2E_OPERATOR_EMAIL);
      await expectNoAxeViolations(page);
      await page
        .getByLabel("Action (optional)", { exact: true })
        .selectOption({ label: "Refunded a payment" });
      await page.getByRole("button", { name: "Search the access log" }).click();
      await page.getByRole("heading", { level: 2, name: "Entries found (1 entry)" }).waitFor();
      const exported = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
      expect(exported).toContain("action=payment.refund");
      const csv = await context.request.get(`${baseUrl}${exported}`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-type"]).toContain("text/csv");
      const lines = (await csv.text()).trimEnd().split("\r\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`${patient.email},${E2E_OPERATOR_EMAIL},operator,payment.refund`);
      // Days in the wrong order: the error is announced, what was typed stays.
      await page.goto(
        `${baseUrl}/operations/access-log?${new URLSearchParams({ patient: patient.email, from: "2026-11-27", to: "2026-11-01" })}`,
      );
      await page.getByRole("alert").getByText("The last day cannot be before the first day.").waitFor();
      expect(await page.getByLabel("Patient's e-mail (or part of it)").inputValue()).toBe(patient.email);
      expect(await page.getByLabel("To day (optional)", { exact: true }).getAttribute("aria-invalid")).toBe(
        "true",
      );
      await expectNoAxeViolations(page);

      // Today's board: the patient's request waits, and links to its visit.
      await page.getByRole("navigation", { name: "Operations" }).getByRole("link", { name: "Today" }).click();
      await waitForPath(page, "/operations/today");
      await page.getByRole("heading", { level: 1, name: "Today" }).waitFor();
      const waiting = page.getByTestId("board-waiting");
      await waiting.getByRole("table", { name: "Requests waiting" }).waitFor();
      expect(await waiting.locator(`a[href="/operations/visits/${visitId}"]`).count()).toBe(1);
      await page.getByTestId("board-alerts").waitFor();
      await expectNoAxeViolations(page);

      // The reports of the last 30 days (the API's days): each a chart, its table and its CSV.
      await page
        .getByRole("navigation", { name: "Operations" })
        .getByRole("link", { name: "Reports" })
        .click();
      await waitForPath(page, "/operations/reports");
      await page.getByRole("heading", { level: 1, name: "Reports" }).waitFor();
      expect(await page.locator('svg[role="img"]').count()).toBe(5);
      const visitsTable = page.getByRole("table", { name: "Visits per day: the figures" });
      await visitsTable.waitFor();
      await page.getByRole("table", { name: "Wait from request to accept: the figures" }).waitFor();
      await page.getByRole("table", { name: "Revenue and refunds: the figures" }).waitFor();
      const today = new Date(await apiNow(apiUrl)).toISOString().slice(0, 10);
      const todayRow = visitsTable.getByRole("row", { name: new RegExp(`^${today}`) });
      expect(Number((await todayRow.getByRole("cell").first().textContent()) ?? "0")).toBeGreaterThan(0);
      await expectNoAxeViolations(page);
      const visitsCsv = await page
        .getByRole("link", { name: "Visits per day: export CSV" })
        .getAttribute("href");
      const report = await context.request.get(`${baseUrl}${visitsCsv}`);
      expect(report.status()).toBe(200);
      expect(report.headers()["content-type"]).toContain("text/csv");
      const reportLines = (await report.text()).trimEnd().split("\r\n");
      expect(reportLines[0]).toBe("day,chat,video,total");
      expect(reportLines).toHaveLength(31);
      expect(Number(reportLines.at(-1)?.split(",")[1])).toBeGreaterThan(0);

      // 320 px wide: the console still fits (no page-wide horizontal scroll).
      await page.setViewportSize({ width: 320, height: 640 });
      for (const path of ["/operations", "/operations/today", "/operations/reports"]) {
        await page.goto(`${baseUrl}${path}`);
        // Nothing sticks out of the page (a table scrolls inside its own box).
        expect(await widerThan320(page), path).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(
          320,
        );
      }
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }

    // The patient's billing history shows the refund.
    try {
      await patientSide.page.goto(`${baseUrl}/my-profile/billing-history`);
      expect(await patientSide.page.locator("main").textContent()).toContain("Refunded $5 on");
    } finally {
      await patientSide.context.close();
    }
    // A long journey (two-step login, an invitation followed through, a refund, the log): on a
    // busy two-core machine it took up to a minute.
  }, 120_000);

  it("refuses a patient with the 403 page", async () => {
    const { context, page } = await openPage(browser);
    try {
      await newPatient(context);
      const response = await page.goto(`${baseUrl}/operations`);
      expect(response?.status()).toBe(403);
      await page.getByRole("heading", { level: 1, name: "Access denied" }).waitFor();
    } finally {
      await context.close();
    }
  });
});
