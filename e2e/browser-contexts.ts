import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import { CHROMIUM_FLAGS, journeyBrowserPath } from "../scripts/lib/chromium.mjs";

/**
 * Chromium and its contexts as the journeys open them, free of the test runner so that a benchmark
 * drives the same browser the same way (browser.ts adds the journeys' assertions).
 */

/**
 * Chromium with a fake camera and microphone (a test pattern and a beep) that never asks for
 * permission: only for the journeys of the video call, so no other journey gets media it did not ask for.
 */
export const FAKE_MEDIA_FLAGS = Object.freeze([
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
]);

/**
 * The journeys' browser: Chromium's headless shell where installed, full Chromium for a journey that
 * needs `systemNotifications` (the pages' "turn on notifications" offers; journeyBrowserPath, ADR 073).
 */
export async function launchBrowser(
  extraFlags: readonly string[] = [],
  { systemNotifications = false }: { systemNotifications?: boolean } = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: journeyBrowserPath({ systemNotifications }),
    args: [...CHROMIUM_FLAGS, ...extraFlags],
  });
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

export type ContextOptions = BrowserContextOptions;

/**
 * The one place a journey gets a browser context: 1280×900 and en-US unless told otherwise. Every
 * page of it (popups and `context.newPage()` included) records its console errors and uncaught
 * exceptions, so any test fails on an unexpected one (conventions: "A test fails on an unexpected
 * console.error"); `consoleErrors` also lets a journey assert on them itself.
 * No service worker unless the journey asks for one (`serviceWorkers: "allow"`: the PWA's own
 * journeys, platform and notifications, which test what it does): each fresh context installing it
 * and precaching the app's 36 files cost about 8 % of the journeys' CPU, on a machine they keep busy.
 */
export async function openContext(
  browser: Browser,
  options: ContextOptions = {},
): Promise<{ context: BrowserContext; consoleErrors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: "en-US",
    serviceWorkers: "block",
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
