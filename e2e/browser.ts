import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { type ContextOptions, openPage, takeLoggedErrors, unexpected } from "./browser-contexts.ts";

export {
  type ContextOptions,
  FAKE_MEDIA_FLAGS,
  launchBrowser,
  openContext,
  openPage,
  takeLoggedErrors,
  unexpected,
} from "./browser-contexts.ts";

/**
 * One anonymous visitor's tab for the tests of the enclosing `describe` that only read pages: it goes
 * from page to page instead of opening a context per test, which costs Chromium about as much as a
 * page's checks. Call in a `describe` body; `page` is there once its tests run.
 */
export function sharedTab(browser: () => Browser, options: ContextOptions = {}) {
  let opened: Awaited<ReturnType<typeof openPage>> | undefined;
  beforeAll(async () => {
    opened = await openPage(browser(), options);
  });
  afterAll(async () => {
    await opened?.context.close();
  });
  const tab = () => {
    if (!opened) throw new Error("sharedTab's page is there only while its describe's tests run");
    return opened;
  };
  return {
    get page(): Page {
      return tab().page;
    },
    /** The console errors the tab logged since the last call. */
    takeConsoleErrors(): string[] {
      return tab().consoleErrors.splice(0);
    },
  };
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * For a journey that provokes console errors on purpose: takes what its pages have logged so far and
 * fails unless every error matches one of `expected` or `tolerated`, and each of `expected` did
 * appear (`tolerated` ones depend on timing). The check after the test then sees only what is
 * logged later.
 */
export function expectLoggedErrors(expected: RegExp[], tolerated: RegExp[] = []): void {
  const logged = unexpected(takeLoggedErrors());
  const allowed = [...expected, ...tolerated];
  expect(
    logged.filter((error) => !allowed.some((pattern) => pattern.test(error))),
    "console errors beyond the expected ones",
  ).toEqual([]);
  for (const pattern of expected) expect(logged).toContainEqual(expect.stringMatching(pattern));
}

/** Runs axe-core in the page and fails with the rule ids and targets of every violation. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Evaluated, not added as a <script>: the CSP rightly refuses inline scripts without the nonce.
  // Once per document: parsing axe-core again on a page that has it costs as much as a check.
  if (await page.evaluate(() => !("axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
}

/** The page at 1280 px and at 320 px: no axe violation, nothing wider than the phone's screen. */
export async function expectAccessibleAtBothWidths(page: Page) {
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
}
