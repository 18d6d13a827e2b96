import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillProfile, journeyStack, newPatient, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openPage, unexpected } from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import { startTrialSession } from "./session-fixtures.ts";

/**
 * Times in the patient's time zone: a patient whose browser is in Seattle sees a consultation's time
 * in Pacific time from the first page that shows it (the browser's zone, no change after hydration);
 * after choosing Europe/Sofia on /my-profile the same time is shown in Sofia's, and in Bulgarian the
 * list names every zone in Bulgarian, the likely ones first.
 */

const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A chat visit requested on the API for the member; answers when the API says it was created. */
async function requestedVisit(patient: { email: string; password: string }): Promise<string> {
  const login = await fetch(`${apiUrl}/api/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: patient.email, password: patient.password }),
  });
  expect(login.status).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  const created = await fetch(`${apiUrl}/ambercare/create-consultation`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
    body: JSON.stringify({
      idempotency_key: randomUUID(),
      type: "chat",
      provider_slug: null,
      intake: {
        patient: "self",
        gender: "female",
        race: "White",
        ethnicity: "Not Hispanic or Latino",
        state: "WA",
        symptoms: ["Cough"],
        symptoms_started_on: "2026-01-02",
        recent_travel: false,
        transport: [],
      },
      consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    }),
  });
  const body = (await created.json()) as { data: { created_at: string } };
  expect(created.status, JSON.stringify(body)).toBe(201);
  return body.data.created_at;
}

/** The time as the page should show it in `timeZone` ("Nov 24, 2026, 11:58 AM PST"), spaces plain. */
function expected(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone,
  })
    .format(new Date(instant))
    .replace(/\s/g, " ");
}

/** The "Requested" time of the only consultation on /my-profile/consultations, spaces plain. */
async function requestedTime(page: Page): Promise<string> {
  await page.goto(`${baseUrl}/my-profile/consultations`);
  await waitForHydration(page);
  const card = page.getByRole("article").first();
  const text = await card
    .locator("dt", { hasText: "Requested" })
    .locator("xpath=following-sibling::dd[1]")
    .innerText();
  return text.replace(/\s/g, " ");
}

describe("times in the patient's time zone", () => {
  it("shows a consultation in the browser's zone, then in the zone chosen on /my-profile", async () => {
    const { context, page, consoleErrors } = await openPage(browser, { timezoneId: "America/Los_Angeles" });
    try {
      await dismissPopupBeforehand(context);
      const account = await newPatient(context);
      await page.goto(`${baseUrl}/almost-there`);
      await fillProfile(page);
      await page.getByRole("button", { name: "Save and continue" }).click();
      await waitForPath(page, "/my-profile");
      await startTrialSession(context, baseUrl);
      const createdAt = await requestedVisit(account);

      const pacific = expected(createdAt, "America/Los_Angeles");
      expect(pacific).toMatch(/ P[SD]T$/);
      expect(await requestedTime(page)).toBe(pacific);

      // The profile offers the browser's zone until the patient picks another.
      await page.goto(`${baseUrl}/my-profile`);
      await waitForHydration(page);
      const zone = page.getByLabel("Time zone");
      expect(await zone.inputValue()).toBe("America/Los_Angeles");
      await expectNoAxeViolations(page);
      await zone.selectOption("Europe/Sofia");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByRole("status").filter({ hasText: "Your profile has been saved." }).waitFor();
      expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Sofia");

      const sofia = expected(createdAt, "Europe/Sofia");
      expect(sofia).toMatch(/ GMT\+[23]$/);
      expect(await requestedTime(page)).toBe(sofia);
      // The same on a page rendered afresh by the server (the zone is remembered, not just shown).
      await page.reload();
      await waitForHydration(page);
      expect(await requestedTime(page)).toBe(sofia);

      // In Bulgarian the zones are named in Bulgarian (the engine's own names), the likely first.
      await page.goto(`${baseUrl}/my-profile?lang=bg`);
      await waitForHydration(page);
      const bgZone = page.getByLabel("Часова зона");
      expect(await bgZone.inputValue()).toBe("Europe/Sofia");
      expect(await bgZone.locator("option:checked").textContent()).toMatch(
        /^България — Източноевропейско време \(Гринуич\+0[23]:00\)$/,
      );
      const labels = await bgZone.locator("option").allTextContents();
      expect(labels.filter((label) => /[A-Za-z]{2}/.test(label))).toEqual([]);
      const groups = bgZone.locator("optgroup");
      expect(await groups.first().getAttribute("label")).toBe("Най-вероятни за вас");
      expect(await groups.first().locator("option").first().getAttribute("value")).toBe("Europe/Sofia");
      // The zones are sent once, as the field's options: the route data holds the chosen zone only.
      const html = await (await page.request.get(`${baseUrl}/my-profile?lang=bg`)).text();
      expect(html.split("България — Източноевропейско време").length - 1).toBe(1);
      expect(html.split("Africa/Abidjan").length - 1).toBe(1);
      await expectNoAxeViolations(page);
      await page.setViewportSize({ width: 320, height: 800 });
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
