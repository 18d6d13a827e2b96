import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, sharedTab } from "./browser.ts";
import { journeyStack } from "./journey-stack.ts";
import { PUBLIC_ROUTES } from "./spec-routes.ts";

/**
 * The accessibility budget: axe-core finds no violation on any public route (spec-routes.ts),
 * on a desktop (1280 px) and on the narrowest supported phone (320 px), where the shell's pages
 * do not scroll sideways either.
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
  { name: "1280 px", width: 1280, height: 900 },
  { name: "320 px", width: 320, height: 700 },
] as const;

/** The shell's pages of either layout, and the login form: nothing on them is wider than a 320 px phone. */
const SHELL_PATHS = ["/", "/privacy-policy", "/blog", "/login"];

describe.each(VIEWPORTS)("axe-core at $name", (viewport) => {
  // A first-time visitor's tab: the cookie banner stays on every page until it is answered.
  const tab = sharedTab(() => browser, { viewport: { width: viewport.width, height: viewport.height } });
  it.each(PUBLIC_ROUTES.map((route) => route.path))("%s has no violations", async (path) => {
    const response = await tab.page.goto(`${baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    await expectNoAxeViolations(tab.page);
    if (viewport.width === 320 && SHELL_PATHS.includes(path)) {
      const overflow = await tab.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${path} scrolls sideways at 320 px`).toBeLessThanOrEqual(0);
    }
  });
});
