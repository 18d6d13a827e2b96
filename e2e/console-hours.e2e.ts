import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinicianFor, journeyStack } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openContext, openPage, unexpected } from "./browser.ts";
import { clinicianSession } from "./clinician-helpers.ts";

/**
 * The clinician's bookable hours on the console: the "My hours" page as a person fills it in (time
 * zone, two ranges on Monday, a longer video slot), a mistake shown beside its field with nothing
 * typed lost, the hours saved and read back after a reload; axe-clean at 1280 and 320 px.
 */

const { baseUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("my hours", () => {
  it("saves the clinician's weekly hours and shows them again after a reload", async () => {
    const clinician = clinicianFor("console-hours");
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await clinicianSession(context, baseUrl, clinician);
      await page.goto(`${baseUrl}/console`);
      await page.getByRole("heading", { level: 2, name: "Today's booked visits" }).waitFor();
      await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "My hours" }).click();
      await page.getByRole("heading", { level: 1, name: "My hours" }).waitFor();
      await expectNoAxeViolations(page);

      await page.getByLabel("Time zone").selectOption("Europe/Sofia");
      const monday = page.getByRole("group", { name: "Monday, range 1" });
      await monday.getByLabel("From").fill("09:00");
      await monday.getByLabel("Until").fill("12:00");
      const second = page.getByRole("group", { name: "Monday, range 2" });
      await second.getByLabel("From").fill("14:00");
      // A mistake: the second range ends before it starts.
      await second.getByLabel("Until").fill("13:00");
      await second.getByLabel("Chat").uncheck();
      await page.getByLabel("Video visit length (minutes)").fill("40");
      await page.getByRole("button", { name: "Save my hours" }).click();

      const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
      await summary.getByText("The end must be after the start.").waitFor();
      // Nothing typed is lost.
      expect(await monday.getByLabel("From").inputValue()).toBe("09:00");
      expect(await second.getByLabel("From").inputValue()).toBe("14:00");
      expect(await second.getByLabel("Chat").isChecked()).toBe(false);
      expect(await page.getByLabel("Video visit length (minutes)").inputValue()).toBe("40");
      await expectNoAxeViolations(page);

      await second.getByLabel("Until").fill("18:00");
      await page.getByRole("button", { name: "Save my hours" }).click();
      await page.getByRole("status").getByText("Your hours are saved.").waitFor();

      await page.reload();
      await page.getByRole("heading", { level: 1, name: "My hours" }).waitFor();
      expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Sofia");
      const mondayAgain = page.getByRole("group", { name: "Monday, range 1" });
      expect(await mondayAgain.getByLabel("From").inputValue()).toBe("09:00");
      expect(await mondayAgain.getByLabel("Until").inputValue()).toBe("12:00");
      const secondAgain = page.getByRole("group", { name: "Monday, range 2" });
      expect(await secondAgain.getByLabel("From").inputValue()).toBe("14:00");
      expect(await secondAgain.getByLabel("Until").inputValue()).toBe("18:00");
      expect(await secondAgain.getByLabel("Chat").isChecked()).toBe(false);
      expect(await secondAgain.getByLabel("Video").isChecked()).toBe(true);
      expect(await page.getByLabel("Video visit length (minutes)").inputValue()).toBe("40");

      await page.setViewportSize({ width: 320, height: 800 });
      await expectNoAxeViolations(page);
      expect(unexpected(consoleErrors)).toEqual([]);

      // The zones are sent once, as the field's options: the route data holds the chosen zone only.
      for (const [query, named] of [
        ["", "Bulgaria"],
        ["?lang=bg", "България — Източноевропейско време"],
      ] as const) {
        const html = await (await page.request.get(`${baseUrl}/console/hours${query}`)).text();
        console.info(`/console/hours${query}: ${Buffer.byteLength(html)} bytes of HTML`);
        expect(html.split("Africa/Abidjan").length - 1, query).toBe(1);
        expect(html.split(named).length - 1, query).toBe(1);
      }

      // Without JavaScript, in Bulgarian too: the server's list is the field's, and a plain post saves it.
      const { context: plain } = await openContext(browser, { javaScriptEnabled: false });
      try {
        await plain.addCookies(await context.cookies(baseUrl));
        const noScript = await plain.newPage();
        await noScript.goto(`${baseUrl}/console/hours?lang=bg`);
        const zone = noScript.getByLabel("Часова зона");
        expect(await zone.inputValue()).toBe("Europe/Sofia");
        expect(await zone.locator("option:checked").textContent()).toMatch(/^България — /);
        await zone.selectOption("America/Chicago");
        await noScript.getByRole("button", { name: "Запазете часовете" }).click();
        await noScript.getByRole("status").getByText("Часовете Ви са запазени.").waitFor();
        expect(await noScript.getByLabel("Часова зона").inputValue()).toBe("America/Chicago");
        // The newly saved zone comes first, after "Изберете…".
        const options = noScript.getByLabel("Часова зона").locator("option");
        expect(await options.nth(1).getAttribute("value")).toBe("America/Chicago");
      } finally {
        await plain.close();
      }
    } finally {
      await context.close();
    }
  });
});
