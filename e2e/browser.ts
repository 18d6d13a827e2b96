import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { takeLoggedErrors, unexpected } from "./browser-contexts.ts";

export {
  type ContextOptions,
  FAKE_MEDIA_FLAGS,
  launchBrowser,
  openContext,
  openPage,
  takeLoggedErrors,
  unexpected,
} from "./browser-contexts.ts";

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
