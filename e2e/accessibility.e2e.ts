import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, sharedTab } from "./browser.ts";
import { journeyStack } from "./journey-stack.ts";
import { PUBLIC_ROUTES } from "./spec-routes.ts";

/**
 * Every public route of the specification (spec-routes.ts), each page loaded once per viewport:
 * - on a desktop (1280 px) in English, the route itself: it answers 200 at its own path with its
 *   title, one level-1 heading and its layout (the main one, or the "soon" one without the main
 *   navigation), and logs no console error;
 * - the accessibility budget: axe-core finds no violation, there and on the narrowest supported
 *   phone (320 px) in Bulgarian, whose longer words are the ones that widen a page: there, no page
 *   scrolls sideways either.
 */
const { baseUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The main layout has the main navigation; both have the footer's legal links. */
async function expectLayout(page: Page, layout: "main" | "soon") {
  const primaryNav = page.getByRole("navigation", { name: "Main", exact: true });
  const legalLink = page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" });
  await expect.poll(() => legalLink.count()).toBeGreaterThan(0);
  if (layout === "main") expect(await primaryNav.count()).toBeGreaterThan(0);
  else expect(await primaryNav.count()).toBe(0);
}

const VIEWPORTS = [
  // The route itself (path, title, heading, layout, console) is checked once, on the desktop.
  { name: "1280 px, in English", width: 1280, height: 900, locale: "en-US", lang: "en", checksRoute: true },
  { name: "320 px, in Bulgarian", width: 320, height: 700, locale: "bg-BG", lang: "bg", checksRoute: false },
] as const;

describe.each(VIEWPORTS)("every public route at $name", (viewport) => {
  // A first-time visitor's tab (the cookie banner stays on every page until it is answered), whose
  // browser asks for the language: a first visit is shown in it.
  const tab = sharedTab(() => browser, {
    viewport: { width: viewport.width, height: viewport.height },
    locale: viewport.locale,
  });
  it.each(PUBLIC_ROUTES)("$path answers with its page and has no violations", async (route) => {
    const { path } = route;
    tab.takeConsoleErrors();
    const response = await tab.page.goto(`${baseUrl}${path}`);
    expect(response?.status()).toBe(200);
    expect(await tab.page.getAttribute("html", "lang")).toBe(viewport.lang);
    if (viewport.checksRoute) {
      expect(new URL(tab.page.url()).pathname).toBe(path);
      expect(await tab.page.title()).toBe(route.title);
      expect(await tab.page.getByRole("heading", { level: 1 }).count()).toBe(1);
      await expectLayout(tab.page, route.layout);
    }
    await expectNoAxeViolations(tab.page);
    if (viewport.checksRoute) expect(tab.takeConsoleErrors()).toEqual([]);
    if (viewport.width === 320) {
      const overflow = await tab.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, `${path} scrolls sideways at 320 px`).toBeLessThanOrEqual(0);
    }
  });
});
