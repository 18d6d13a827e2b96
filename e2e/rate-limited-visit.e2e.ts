import { rmSync } from "node:fs";
import type { APIRequestContext, Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startStack } from "../scripts/lib/stack.mjs";
import { waitForHydration, waitForPath } from "./auth-helpers.ts";
import { launchBrowser, openPage, takeLoggedErrors, unexpected } from "./browser.ts";
import { requestVisit } from "./clinician-helpers.ts";
import { JOURNEY_API_ENV, journeyStackEnv } from "./journey-env.ts";
import { ownDataDir } from "./journey-stack.ts";
import { signedInSides } from "./video-call-steps.ts";

/**
 * A chat visit at one address that spends its page budget (ADR 025): a family home or a clinic
 * behind one NAT, as every browser of the journeys is on 127.0.0.1. The patient browses past their
 * budget in another tab, the clinician past theirs, and someone without an account at the same
 * address past the address's; meanwhile the visit goes on (messages both ways, its status live),
 * each refused page says how long to wait (never a 500), and comes back by itself once the wait is
 * over. A stack of its own: its page budget is small and its window short, so that the refusals
 * come within a few page views and end within seconds.
 */

/** Page views per window of one person (and of one address for anonymous visitors) on this stack. */
const PAGE_LIMIT = 20;
/** The window those are counted in, in seconds. */
const WINDOW_S = 12;
/** The patient's refusal the visit's steps are checked in: at least this many seconds left of the window. */
const REFUSED_FOR_S = 9;
/** The guest's refusal: long enough to read the page before it loads again by itself. */
const GUEST_REFUSED_FOR_S = 4;

let browser: Browser;
let site: string;
let api: string;
let dataDir: string;
let stopStack: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = ownDataDir("ambercare-rate-limit-");
  const [port, apiPort] = [await freePort(), await freePort()];
  const [stack, launched] = await Promise.all([
    startStack({
      quiet: !process.env.E2E_VERBOSE,
      env: {
        ...journeyStackEnv(port, apiPort, dataDir),
        WEB_RATE_LIMIT_MAX: String(PAGE_LIMIT),
        WEB_ADDRESS_RATE_LIMIT_MAX: String(PAGE_LIMIT),
        WEB_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_S),
      },
      apiEnv: JOURNEY_API_ENV,
    }),
    launchBrowser(),
  ]);
  browser = launched;
  site = stack.webUrl;
  api = stack.apiUrl;
  stopStack = async () => {
    await stack.stop();
  };
});
afterAll(async () => {
  await browser?.close();
  await stopStack?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Answer = { status: number; retryAfter: string | undefined };
/** `count` page loads of one visitor at once: the edge counts each as it arrives. */
type Views = (count: number) => Promise<Answer[]>;

/** Page loads by `client`, a browser context's request client: its cookies, the test's address. */
const requestViews =
  (client: APIRequestContext, url: string): Views =>
  (count) =>
    Promise.all(
      Array.from({ length: count }, async () => {
        const response = await client.get(url, { headers: { accept: "text/html" }, maxRedirects: 0 });
        return { status: response.status(), retryAfter: response.headers()["retry-after"] };
      }),
    );

/**
 * Page loads asked for by the script of `page`, a page of the site: the browser's own address,
 * which may not be the test's (localhost).
 */
const tabViews =
  (page: Page, url: string): Views =>
  (count) =>
    page.evaluate(
      ([href, times]) =>
        Promise.all(
          Array.from({ length: times }, async () => {
            const response = await fetch(href, { headers: { accept: "text/html" } });
            return { status: response.status, retryAfter: response.headers.get("retry-after") ?? undefined };
          }),
        ),
      [url, count] as const,
    );

/**
 * Page loads (of a person, or of an address when there is no session), a budget's worth at once,
 * until the web server refuses them with `atLeast` seconds or more to wait: a refusal nearer the end
 * of its window is waited out, and the budget spent again in the next. Answers the wait. At once,
 * so that a busy machine's slow pages still spend the budget within one window.
 */
async function spendPageBudget(views: Views, atLeast: number): Promise<number> {
  for (let round = 0; round < 4; round++) {
    const answers = await views(PAGE_LIMIT + 1);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status !== 429 && answer.status !== 200)).toEqual([]);
    if (refused.length === 0) continue;
    const wait = Math.min(...refused.map((answer) => Number(answer.retryAfter)));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(WINDOW_S);
    if (wait >= atLeast) return wait;
    await new Promise((resolve) => setTimeout(resolve, wait * 1_000));
  }
  throw new Error("four budgets' worth of page loads and never a refusal long enough");
}

/** The wait page of a refused page: how long to wait, the page trying again by itself, never a 500. */
async function expectToldToWait(page: Page) {
  // The error page's title, whichever it is: a 429 shown as a 500 fails here at once.
  const title = page.getByRole("heading", { level: 1, name: /^(Too many requests|Internal Server Error)$/ });
  await title.waitFor();
  expect(await title.innerText()).toBe("Too many requests");
  const told = (await page.locator("main").innerText()).replace(/\s+/g, " ");
  const seconds = Number(/Please wait (\d+) seconds and try again\./.exec(told)?.[1]);
  expect(seconds, told).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(WINDOW_S);
  expect(told).toContain("This page tries again by itself when the wait is over.");
  expect(told).not.toMatch(/Internal Server Error|500/);
}

describe("a visit at an address over its page budget", () => {
  it("goes on both ways while the pages around it wait, and the pages come back by themselves", async () => {
    // This stack's demo clinician, whom no other journey logs in, and a new member.
    const sides = await signedInSides(browser, site, api, dataDir);
    const { patient, doctor, clinician } = sides;
    const guest = await openPage(browser);
    try {
      const visitId = await requestVisit(api, sides.account, "chat", sides.doctorAccount);
      await clinician.step(visitId, "accept");
      await doctor.goto(`${site}/console/visits/${visitId}`);
      await waitForHydration(doctor);
      await patient.goto(`${site}/my-profile/consultations/${visitId}`);
      await waitForHydration(patient);
      // The patient's other tab, where they browse their profile.
      const browsing = await patient.context().newPage();
      await guest.page.goto(`${site}/find-a-doctor`);
      await browsing.goto(`${site}/my-profile`);
      await waitForHydration(browsing);

      // Everyone spends their page budget, all from one address. The guest first: their next page
      // is refused by the web server's own page, which says how long to wait, never a 500.
      await spendPageBudget(tabViews(guest.page, `${site}/about`), GUEST_REFUSED_FOR_S);
      expect((await guest.page.goto(`${site}/find-a-doctor`))?.status()).toBe(429);
      await expectToldToWait(guest.page);
      // The patient (in their other tab's name) and the clinician last, so that the visit's steps
      // below are all within their refusals.
      const spend = (side: Page) =>
        spendPageBudget(requestViews(side.context().request, `${site}/about`), REFUSED_FOR_S);
      const refusedUntil = new Map<Page, number>();
      await Promise.all(
        [patient, doctor].map(async (side) => {
          const wait = await spend(side);
          refusedUntil.set(side, Date.now() + wait * 1_000);
        }),
      );

      // The visit goes on: messages both ways, and its status, without a reload on either side.
      const patientThread = patient.getByRole("list", { name: "Messages of this visit" });
      const doctorThread = doctor.getByRole("list", { name: "Messages of this visit" });
      await doctor.getByRole("textbox", { name: "Your message" }).fill("Hello, how long have you had it?");
      await doctor.getByRole("button", { name: "Send" }).click();
      await patientThread.getByText("Hello, how long have you had it?").waitFor();
      await patient.getByRole("textbox", { name: "Your message" }).fill("Since Sunday.");
      await patient.getByRole("button", { name: "Send" }).click();
      await doctorThread.getByText("Since Sunday.").waitFor();
      await doctor.getByRole("button", { name: "Start visit" }).click();
      await patient.getByTestId("visit-status").filter({ hasText: "is in progress" }).waitFor();

      // Both sides' page views are still refused meanwhile: a page of the patient's other tab,
      // reached by a link, says how long to wait in the site's own error page. On a busy machine the
      // steps above can outlast the refusal they began in (its Retry-After is rounded up to a whole
      // second); that side's budget is then spent again, so that a 429 below is the budget's own.
      for (const [side, path] of [
        [patient, "/my-profile"],
        [doctor, "/console"],
      ] as const) {
        if (Date.now() > (refusedUntil.get(side) ?? 0) - 2_000) await spend(side);
        const refused = await side.context().request.get(`${site}${path}`, { maxRedirects: 0 });
        expect(refused.status(), `the visit went on while ${path}'s page budget was spent`).toBe(429);
      }
      await browsing.locator('a[href="/my-profile/past-appointments"]').first().click();
      await expectToldToWait(browsing);
      expect(await browsing.getByTestId("error-status").innerText()).toBe("429");
      expect(await browsing.getByRole("button", { name: "Try again now" }).count()).toBe(1);

      // Once the wait is over, each page loads again by itself: the patient's with its script, the
      // guest's with the refresh of the web server's page.
      await waitForPath(browsing, "/my-profile/past-appointments");
      await browsing
        .getByRole("heading", { level: 1, name: "Too many requests" })
        .waitFor({ state: "detached", timeout: (WINDOW_S + 5) * 1_000 });
      await waitForHydration(browsing);
      expect(await browsing.title()).toMatch(/^Past appointments \| Ambercare$/i);
      await expect
        .poll(() => guest.page.title(), { timeout: (WINDOW_S + 5) * 1_000 })
        .toBe("Find a doctor | Ambercare");

      // The refused page views are the browser's failed resources (429), nothing else.
      expect(unexpected(takeLoggedErrors())).toEqual([]);
    } finally {
      await guest.context.close();
      await sides.close();
    }
  }, 90_000);
});
