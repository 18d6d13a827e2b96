import { type APIRequestContext, type Browser, request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import bg from "../apps/web/app/locales/bg.json" with { type: "json" };
import en from "../apps/web/app/locales/en.json" with { type: "json" };
import { journeyStack, newPatient, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { expectAccessibleAtBothWidths, launchBrowser, openPage } from "./browser.ts";
import { demoClinician, requestVisit } from "./clinician-helpers.ts";
import { type Allowed, englishIn } from "./english-sweep.ts";
import { completeProfileSession, signUpPatient, startTrialSession } from "./session-fixtures.ts";
import { PROTECTED_ROUTES, PUBLIC_ROUTES } from "./spec-routes.ts";

/**
 * Each page carries only the strings its routes use (ADR 042). A string the list missed shows as
 * its key ("nav.findADoctor") where the text should be, and is told in the browser's console: these
 * journeys look for both on every page, in both languages, anonymous and logged in. A page in
 * Bulgarian shows no English either (english-sweep.ts), read from the server's HTML of every
 * public page and every page of a patient with a visit, and from what the browser shows of the
 * patient's pages once they are hydrated (text the page's scripts render, by the browser's language
 * or not at all on the server).
 */
const stack = journeyStack();
const { baseUrl } = stack;
const LANGUAGES = { en, bg } as const;
const NAMESPACES = Object.keys(en).join("|");
/** A key shown instead of its text: in an element's text or an attribute's value. */
const KEY_SHOWN = new RegExp(`(?:>|=")\\s*((?:${NAMESPACES})\\.[A-Za-z][\\w.]*)\\s*(?:<|")`);

function keyShownIn(html: string): string | null {
  const visible = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
  return KEY_SHOWN.exec(visible)?.[1] ?? null;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("the strings of each page", () => {
  for (const lang of ["en", "bg"] as const) {
    it.each(PUBLIC_ROUTES)(`$path (${lang}) shows no key in place of a string`, async (route) => {
      const response = await fetch(`${baseUrl}${route.path}?lang=${lang}`);
      expect(response.status).toBe(200);
      expect(keyShownIn(await response.text())).toBeNull();
    });
  }

  it("sends the home page's strings without those of other pages", async () => {
    const html = await (await fetch(`${baseUrl}/?lang=en`)).text();
    expect(html).toContain(JSON.stringify(en.pages.home.description).slice(1, -1));
    // The card form of checkout and the clinician's notes are other pages' strings.
    expect(html).not.toContain(en.billing.checkout.errors.cvc.invalid);
    expect(html).not.toContain(en.console.notes.stale);
  });

  it("brings the next page's strings with a client-side navigation, in the page's language", async () => {
    const { context, page } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/?lang=bg`);
      await waitForHydration(page);
      // The pricing page's lead is none of the home page's strings: the navigation must bring it.
      const lead = bg.membership.pricing.membershipLead;
      expect(await page.content()).not.toContain(lead);
      await page.locator('a[href="/pricing-options"]').first().click();
      await waitForPath(page, "/pricing-options");
      // The address changes before the new page renders: wait for its title.
      await expect.poll(() => page.title()).toBe(`${bg.pages.pricingOptions.title} | Ambercare`);
      await page.getByText(lead).waitFor();
      expect(keyShownIn(await page.content())).toBeNull();
      await page.goBack();
      await waitForPath(page, "/");
      expect(keyShownIn(await page.content())).toBeNull();
    } finally {
      await context.close();
    }
  });

  it("shows the pages of a logged-in patient in both languages without a missing string", async () => {
    const { context, page } = await openPage(browser);
    try {
      await newPatient(context);
      for (const lang of Object.keys(LANGUAGES)) {
        for (const path of PROTECTED_ROUTES) {
          await page.goto(`${baseUrl}${path}?lang=${lang}`);
          await waitForHydration(page);
          expect(keyShownIn(await page.content()), `${path} (${lang})`).toBeNull();
        }
      }
    } finally {
      await context.close();
    }
  });
});

/** English a Bulgarian page may show, each with why. */
const ALLOWED_ENGLISH: Allowed[] = [
  {
    text: /^(?:[A-Z]{2} )+[A-Z]{2}$/,
    reason: "the two-letter codes of the states, a filter's data (IN, OR, ME…)",
  },
  {
    text: /^Department of Health and Human Services$/,
    reason:
      "the postal address of the U.S. Department of Health and Human Services, written as the post reads it",
  },
  { text: /^My Health My Data Act$/, reason: "the name of a Washington law, a legal name" },
];

/** Public pages of the site's data, beside the spec's routes: a provider's profile, the openings. */
const PAGES_OF_DATA = [
  `/find-a-doctor/${demoClinician(stack.apiUrl).providerSlug}`,
  "/careers/clinical-operations-manager",
  "/careers/patient-support-specialist",
  "/careers/senior-frontend-engineer",
  "/careers/telehealth-nurse-practitioner",
  "/account-deleted",
];

/** The English of a page asked for in Bulgarian, told with where it shows. */
function englishOf(path: string, html: string): string[] {
  return englishIn(html, ALLOWED_ENGLISH).map(
    (finding) => `${path}: ${finding.key ? `${finding.key} ` : ""}"${finding.text}"`,
  );
}

/** The server's HTML of `path` in `lang`, asked for by `client` (its cookies), without following a redirect. */
async function htmlOf(client: APIRequestContext, path: string, lang: "en" | "bg" = "bg"): Promise<string> {
  const response = await client.get(`${baseUrl}${path}${path.includes("?") ? "&" : "?"}lang=${lang}`, {
    maxRedirects: 0,
  });
  expect(response.status(), `GET ${path}`).toBe(200);
  return response.text();
}

/**
 * A new patient logged in in `poster`, with a profile, a membership and a chat and a video visit
 * with the demo clinician; answers the chat visit and the paths of every page of theirs.
 */
async function patientWithVisits(poster: Parameters<typeof signUpPatient>[0]) {
  const account = await signUpPatient(poster, stack);
  await completeProfileSession(poster, baseUrl, account);
  await startTrialSession(poster, baseUrl);
  const visit = await requestVisit(stack.apiUrl, account, "chat", demoClinician(stack.apiUrl));
  const videoVisit = await requestVisit(stack.apiUrl, account, "video", demoClinician(stack.apiUrl));
  const paths = [
    ...PROTECTED_ROUTES,
    "/my-profile/security",
    "/my-profile/health-data",
    `/my-profile/consultations/${visit}`,
    `/my-profile/consultations/${videoVisit}`,
  ];
  return { visit, paths };
}

describe("the patient's pages in Bulgarian", () => {
  it("show no English on any public page", async () => {
    const client = await request.newContext();
    try {
      const pages = await Promise.all(
        [...PUBLIC_ROUTES.map((route) => route.path), ...PAGES_OF_DATA].map(async (path) =>
          englishOf(path, await htmlOf(client, path)),
        ),
      );
      expect(pages.flat()).toEqual([]);
      // The same sweep finds the English of a page asked for in English: it can fail.
      expect(englishOf("/", await htmlOf(client, "/", "en")).length).toBeGreaterThan(10);
    } finally {
      await client.dispose();
    }
  });

  it("show no English on any page of a patient with a profile, a membership and a visit", async () => {
    const client = await request.newContext();
    try {
      const { visit, paths } = await patientWithVisits(client);
      const pages = await Promise.all(paths.map(async (path) => englishOf(path, await htmlOf(client, path))));
      expect(pages.flat()).toEqual([]);
      // The visit page shows the visit (its provider), whose English the sweep finds in English.
      const visitPage = `/my-profile/consultations/${visit}`;
      expect(await htmlOf(client, visitPage)).toContain(demoClinician(stack.apiUrl).name);
      expect(englishOf(visitPage, await htmlOf(client, visitPage, "en")).length).toBeGreaterThan(3);
    } finally {
      await client.dispose();
    }
  });

  it("show no English once the browser has rendered them, on every page of a patient with a visit", async () => {
    // One context for all of them: an English browser (en-US) whose patient chose Bulgarian, so
    // that what the page's scripts render by the browser's language shows too.
    const { context, page } = await openPage(browser);
    try {
      const { visit, paths: patientPaths } = await patientWithVisits(context);
      const clinician = demoClinician(stack.apiUrl);
      const paths = [
        ...patientPaths,
        `/my-profile/messages?consultation=${visit}`,
        `/consultation/book?provider=${clinician.providerSlug}&type=chat`,
        `/consultation/book?provider=${clinician.providerSlug}&type=video`,
      ];
      const found: string[] = [];
      const sweepHere = async (path: string) => {
        await waitForHydration(page);
        expect(await page.getAttribute("html", "lang"), path).toBe("bg");
        found.push(...englishOf(path, await page.content()));
      };
      for (const path of paths) {
        await page.goto(`${baseUrl}${path}${path.includes("?") ? "&" : "?"}lang=bg`);
        await sweepHere(path);
      }
      // A free time chosen on the booking page (the last one: no other journey waits for it) is held
      // on the health questions' page, which says until when.
      await page.getByTestId("slot").last().click();
      await waitForPath(page, "/consultation/form");
      await page.getByTestId("held-time").waitFor();
      await sweepHere("/consultation/form (a time held)");
      expect(found).toEqual([]);
      // The same sweep of the rendered page finds the English of a page shown in English: it can fail.
      await page.goto(`${baseUrl}/my-profile/consultations/${visit}?lang=en`);
      await waitForHydration(page);
      expect(englishOf("visit", await page.content()).length).toBeGreaterThan(3);
    } finally {
      await context.close();
    }
  });

  it("have no axe violation on the visit page and /call-ended, at 1280 and 320 px", async () => {
    const { context, page } = await openPage(browser);
    try {
      const account = await signUpPatient(context, stack);
      await completeProfileSession(context, baseUrl, account);
      await startTrialSession(context, baseUrl);
      const visit = await requestVisit(stack.apiUrl, account, "video", demoClinician(stack.apiUrl));
      for (const path of [`/my-profile/consultations/${visit}`, "/call-ended"]) {
        await page.goto(`${baseUrl}${path}?lang=bg`);
        await waitForHydration(page);
        expect(await page.getAttribute("html", "lang"), path).toBe("bg");
        await expectAccessibleAtBothWidths(page);
      }
    } finally {
      await context.close();
    }
  });
});
