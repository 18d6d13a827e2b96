import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import bg from "../apps/web/app/locales/bg.json" with { type: "json" };
import en from "../apps/web/app/locales/en.json" with { type: "json" };
import { journeyStack, newPatient, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { launchBrowser, openPage } from "./browser.ts";
import { PROTECTED_ROUTES, PUBLIC_ROUTES } from "./spec-routes.ts";

/**
 * Each page carries only the strings its routes use (ADR 042). A string the list missed shows as
 * its key ("nav.findADoctor") where the text should be, and is told in the browser's console: these
 * journeys look for both on every page, in both languages, anonymous and logged in.
 */
const { baseUrl } = journeyStack();
const LANGUAGES = { en, bg } as const;
const NAMESPACES = Object.keys(en).join("|");
/** A key shown instead of its text: in an element's text or an attribute's value. */
const KEY_SHOWN = new RegExp(`(?:>|=")\\s*((?:${NAMESPACES})\\.[A-Za-z][\\w.]*)\\s*(?:<|")`);

function keyShownIn(html: string): string | null {
  const visible = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
  return KEY_SHOWN.exec(visible)?.[1] ?? null;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the strings of each page", () => {
  for (const lang of ["en", "bg"] as const) {
    it.each(PUBLIC_ROUTES)(`$path (${lang}) shows no key in place of a string`, async (route) => {
      const response = await fetch(`${baseUrl}${route.path}?lang=${lang}`);
      expect(response.status).toBe(200);
      expect(keyShownIn(await response.text())).toBeNull();
    });
  }

  it("sends the home page's strings without those of other pages", async () => {
    const html = await (await fetch(`${baseUrl}/?lang=en`)).text();
    expect(html).toContain(JSON.stringify(en.pages.home.description).slice(1, -1));
    // The card form of checkout and the clinician's notes are other pages' strings.
    expect(html).not.toContain(en.billing.checkout.errors.cvc.invalid);
    expect(html).not.toContain(en.console.notes.stale);
  });

  it("brings the next page's strings with a client-side navigation, in the page's language", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/?lang=bg`);
      await waitForHydration(page);
      // The pricing page's lead is none of the home page's strings: the navigation must bring it.
      const lead = bg.membership.pricing.membershipLead;
      expect(await page.content()).not.toContain(lead);
      await page.locator('a[href="/pricing-options"]').first().click();
      await waitForPath(page, "/pricing-options");
      // The address changes before the new page renders: wait for its title.
      await expect.poll(() => page.title()).toBe(`${bg.pages.pricingOptions.title} | Ambercare`);
      await page.getByText(lead).waitFor();
      expect(keyShownIn(await page.content())).toBeNull();
      await page.goBack();
      await waitForPath(page, "/");
      expect(keyShownIn(await page.content())).toBeNull();
    } finally {
      await context.close();
    }
  });

  it("shows the pages of a logged-in patient in both languages without a missing string", async () => {
    const { context, page } = await openPage(browser);
    try {
      await newPatient(context);
      for (const lang of Object.keys(LANGUAGES)) {
        for (const path of PROTECTED_ROUTES) {
          await page.goto(`${baseUrl}${path}?lang=${lang}`);
          await waitForHydration(page);
          expect(keyShownIn(await page.content()), `${path} (${lang})`).toBeNull();
        }
      }
    } finally {
      await context.close();
    }
  });
});
