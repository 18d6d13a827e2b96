import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, sharedTab } from "./browser.ts";
import { journeyStack } from "./journey-stack.ts";
import { PUBLIC_ROUTES } from "./spec-routes.ts";

/**
 * The accessibility budget: axe-core finds no violation on any public route (spec-routes.ts),
 * on a desktop (1280 px) in English and on the narrowest supported phone (320 px) in Bulgarian,
 * whose longer words are the ones that widen a page: there, no page scrolls sideways either.
 */
const { baseUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const VIEWPORTS = [
  { name: "1280 px, in English", width: 1280, height: 900, locale: "en-US", lang: "en" },
  { name: "320 px, in Bulgarian", width: 320, height: 700, locale: "bg-BG", lang: "bg" },
] as const;

describe.each(VIEWPORTS)("axe-core at $name", (viewport) => {
  // A first-time visitor's tab (the cookie banner stays on every page until it is answered), whose
  // browser asks for the language: a first visit is shown in it.
  const tab = sharedTab(() => browser, {
    viewport: { width: viewport.width, height: viewport.height },
    locale: viewport.locale,
  });
  it.each(PUBLIC_ROUTES.map((route) => route.path))("%s has no violations", async (path) => {
    const response = await tab.page.goto(`${baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    expect(await tab.page.getAttribute("html", "lang")).toBe(viewport.lang);
    await expectNoAxeViolations(tab.page);
    if (viewport.width === 320) {
      const overflow = await tab.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${path} scrolls sideways at 320 px`).toBeLessThanOrEqual(0);
    }
  });
});
