import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openPage, sharedTab } from "./browser.ts";
import { journeyStack } from "./journey-stack.ts";
import { PROTECTED_ROUTES } from "./spec-routes.ts";

const { baseUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("every protected route, unknown paths and /logout as an anonymous visitor", () => {
  const tab = sharedTab(() => browser);
  // Each public route answering at its path with its title and layout is checked where its page is
  // loaded anyway, with axe-core (accessibility.e2e.ts).

  it.each(PROTECTED_ROUTES)("%s sends the visitor to /login and keeps the return path", async (path) => {
    const page = tab.page;
    await page.goto(`${baseUrl}${path}`);
    const url = new URL(page.url());
    expect(url.pathname).toBe("/login");
    expect(url.searchParams.get("redirectTo")).toBe(path);
    expect(await page.title()).toBe("Log in | Ambercare");
  });

  it("redirects unknown paths to /", async () => {
    const page = tab.page;
    await page.goto(`${baseUrl}/no-such-page/at/all?x=1`);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.title()).toBe("Ambercare");
  });

  it("takes the visitor from /logout to /login", async () => {
    const page = tab.page;
    await page.goto(`${baseUrl}/logout`);
    expect(new URL(page.url()).pathname).toBe("/login");
  });
});

describe("error pages", () => {
  it("shows the 404 page with its texts and a way home", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      const response = await page.goto(`${baseUrl}/careers/no-such-opening`);
      expect(response?.status()).toBe(404);
      await expect.poll(() => page.getByText("Page Not Found").count()).toBeGreaterThan(0);
      expect(await page.getByText("404").count()).toBeGreaterThan(0);
      expect(await page.getByText("Sorry, the page you are looking for could not be found.").count()).toBe(1);
      await page.getByRole("link", { name: "Go back home" }).click();
      await page.waitForURL(`${baseUrl}/`);
      // The browser reports the 404 document itself as a failed resource; nothing else may fail.
      expect(consoleErrors.filter((e) => !e.includes("404"))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("session rules", () => {
  it("sends a logged-in visitor away from /login and /sign-up to /", async () => {
    const { context, page } = await openPage(browser);
    try {
      const { hostname } = new URL(baseUrl);
      await context.addCookies([
        { name: "isLoggedIn", value: "true", domain: hostname, path: "/" },
        { name: "fltAccessToken", value: "token-for-the-redirect-rule", domain: hostname, path: "/" },
      ]);
      for (const path of ["/login", "/sign-up"]) {
        await page.goto(`${baseUrl}${path}`);
        expect(new URL(page.url()).pathname).toBe("/");
      }
    } finally {
      await context.close();
    }
  });

  it("does not follow a redirectTo that leaves the site", async () => {
    const { context, page } = await openPage(browser);
    try {
      const { hostname } = new URL(baseUrl);
      await context.addCookies([
        { name: "isLoggedIn", value: "true", domain: hostname, path: "/" },
        { name: "fltAccessToken", value: "token-for-the-redirect-rule", domain: hostname, path: "/" },
      ]);
      await page.goto(`${baseUrl}/login?redirectTo=${encodeURIComponent("//evil.example/phish")}`);
      expect(new URL(page.url()).host).toBe(new URL(baseUrl).host);
    } finally {
      await context.close();
    }
  });
});

describe("languages", () => {
  it("switches to Bulgarian with ?lang=bg, remembers it, and sets <html lang>", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/privacy-policy?lang=bg`);
      expect(await page.getAttribute("html", "lang")).toBe("bg");
      expect(await page.title()).toBe("Политика за поверителност | Ambercare");
      await page.goto(`${baseUrl}/terms-of-use`);
      expect(await page.getAttribute("html", "lang")).toBe("bg");
      await page.getByRole("link", { name: "English" }).first().click();
      await expect.poll(() => page.getAttribute("html", "lang")).toBe("en");
    } finally {
      await context.close();
    }
  });

  it("follows Accept-Language on a first visit", async () => {
    const { context, page } = await openPage(browser, { locale: "bg-BG" });
    try {
      await page.goto(`${baseUrl}/`);
      expect(await page.getAttribute("html", "lang")).toBe("bg");
    } finally {
      await context.close();
    }
  });
});
