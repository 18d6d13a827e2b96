import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import { expect } from "vitest";
import { CHROMIUM_FLAGS, ensureChromium } from "../scripts/lib/chromium.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/**
 * Chromium with a fake camera and microphone (a test pattern and a beep) that never asks for
 * permission: only for the journeys of the video call, so no other journey gets media it did not ask for.
 */
export const FAKE_MEDIA_FLAGS = Object.freeze([
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
]);

export async function launchBrowser(extraFlags: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: [...CHROMIUM_FLAGS, ...extraFlags] });
}

/**
 * The console errors and uncaught page errors of every context opened since the last check, for
 * the check after each test (console-check.ts). Kept on globalThis so the setup file and the
 * journeys share one list whatever module instance each of them gets.
 */
const shared = globalThis as { __ambercareConsoleErrors?: string[] };
shared.__ambercareConsoleErrors ??= [];
const pendingErrors = shared.__ambercareConsoleErrors;

/** Returns and forgets the errors logged since the last call. */
export function takeLoggedErrors(): string[] {
  return pendingErrors.splice(0);
}

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

export type ContextOptions = BrowserContextOptions;

/**
 * The one place a journey gets a browser context: 1280×900 and en-US unless told otherwise. Every
 * page of it (popups and `context.newPage()` included) records its console errors and uncaught
 * exceptions, so any test fails on an unexpected one (conventions: "A test fails on an unexpected
 * console.error"); `consoleErrors` also lets a journey assert on them itself.
 */
export async function openContext(
  browser: Browser,
  options: ContextOptions = {},
): Promise<{ context: BrowserContext; consoleErrors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: "en-US",
    ...options,
  });
  const consoleErrors: string[] = [];
  const record = (text: string) => {
    consoleErrors.push(text);
    pendingErrors.push(text);
  };
  context.on("console", (message) => {
    if (message.type() === "error") record(message.text());
  });
  context.on("weberror", (webError) => record(String(webError.error())));
  return { context, consoleErrors };
}

/** A new context with one page in it (see openContext). */
export async function openPage(
  browser: Browser,
  options: ContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const { context, consoleErrors } = await openContext(browser, options);
  const page = await context.newPage();
  return { context, page, consoleErrors };
}

/** Runs axe-core in the page and fails with the rule ids and targets of every violation. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Evaluated, not added as a <script>: the CSP rightly refuses inline scripts without the nonce.
  await page.evaluate(axeSource);
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

/**
 * The console errors a journey does not expect. A refused form answers 4xx (a wrong password 401, a
 * failed validation 400, a declined card 402), which the browser reports as a failed resource;
 * nothing else may appear (a CSP violation, a hydration error, an exception).
 */
export function unexpected(errors: string[]): string[] {
  return errors.filter(
    (e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e),
  );
}
