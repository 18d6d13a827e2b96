import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { CHROMIUM_FLAGS, ensureChromium } from "../scripts/lib/chromium.mjs";

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: [...CHROMIUM_FLAGS] });
}

/**
 * A page that records console errors and failed page loads, so a journey fails on an unexpected
 * `console.error` (conventions: "A test fails on an unexpected console.error").
 */
export async function openPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: options.locale ?? "en-US",
  });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
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
