import { randomBytes } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clinicianFor,
  fillProfile,
  journeyStack,
  newPatient,
  waitForHydration,
  waitForPath,
} from "./auth-helpers.ts";
import {
  expectAccessibleAtBothWidths,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  unexpected,
} from "./browser.ts";
import { buyVisit, dismissPopupBeforehand } from "./checkout-helpers.ts";
import { clinicianApi } from "./clinician-helpers.ts";
import { fillIntakeForChild } from "./intake-steps.ts";
import { startTrialSession } from "./session-fixtures.ts";

/**
 * The consultation journeys in Chromium: a member requests a video visit for a dependent child; a patient
 * without a membership is refused (402, explained) and succeeds once they have bought a one-time
 * visit; an uploaded document appears in the medical records and downloads byte-identical. The
 * membership and the visit are paid on the demo checkout page with the success card.
 */

const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type DirectoryProvider = {
  slug: string;
  name: string;
  credentials: string;
  states: string[];
  offers_chat: boolean;
  taking_visits: boolean;
};

/** A provider of the demo directory who offers video visits only, asked of the API. */
async function videoOnlyProvider(): Promise<DirectoryProvider> {
  const response = await fetch(`${apiUrl}/api/v1/api/provider?type=video&per_page=50`);
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: DirectoryProvider[] };
  const provider = data.find((candidate) => !candidate.offers_chat && candidate.states.length < 50);
  if (!provider) throw new Error("the demo directory has no video-only provider on the first page");
  return provider;
}

/**
 * A provider of the demo directory licensed in California who offers video visits and takes them (a
 * clinician account works as them, ADR 059) or, asked for, does not; asked of the API page by page:
 * a provider without a clinician account cannot be requested.
 */
async function videoProviderInCalifornia(takingVisits = true): Promise<DirectoryProvider> {
  for (let page = 1; page <= 20; page++) {
    const response = await fetch(
      `${apiUrl}/api/v1/api/provider?type=video&state=CA&per_page=50&page=${page}`,
    );
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: DirectoryProvider[] };
    const provider = data.find((candidate) => candidate.taking_visits === takingVisits);
    if (provider) return provider;
    if (data.length < 50) break;
  }
  throw new Error(
    `the demo directory has no video provider in California with taking_visits ${takingVisits}`,
  );
}

/** Two-letter codes and English names of the states, as the state select lists them. */
const STATE_NAMES: Record<string, string> = {
  CA: "California",
  NY: "New York",
  TX: "Texas",
  WA: "Washington",
  FL: "Florida",
  IL: "Illinois",
  OR: "Oregon",
  AK: "Alaska",
  HI: "Hawaii",
  VT: "Vermont",
};

describe("consultations", () => {
  it("a member requests a video visit for a dependent child and sees it listed", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      await newPatient(context);
      await startTrialSession(context, baseUrl);

      await page.goto(`${baseUrl}/consultation/consult`);
      await waitForHydration(page);
      await expectNoAxeViolations(page);
      // A member is told the visit is included, and is not offered one to buy.
      await page.getByText("Your membership includes this visit").waitFor();
      expect(await page.getByRole("link", { name: "Buy a one-time visit" }).count()).toBe(0);
      await page
        .getByRole("radio", { name: "Video — see a doctor face to face (included in your membership)" })
        .check();
      await page.getByRole("button", { name: "Continue to the health questions" }).click();
      await waitForPath(page, "/consultation/form");
      await waitForHydration(page);
      await page.getByText("Step 1 of 4").waitFor();
      await expectNoAxeViolations(page);

      await fillIntakeForChild(page);
      // A reload loses nothing: the draft comes back from this tab's storage.
      await page.reload();
      await waitForHydration(page);
      await page.getByRole("button", { name: "Next" }).click();
      await expect
        .poll(() => page.getByRole("checkbox", { name: "Cough", exact: true }).isChecked())
        .toBe(true);
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByRole("button", { name: "Next" }).click();
      expect(await page.getByRole("checkbox", { name: /informed consent/ }).isChecked()).toBe(true);
      await expectNoAxeViolations(page);

      await page.getByRole("button", { name: "Request the visit" }).click();
      await waitForPath(page, "/consultation/thank-you");
      await page.getByRole("heading", { name: "What happens next" }).waitFor();
      await expectNoAxeViolations(page);

      await page.getByRole("link", { name: "See my consultations" }).click();
      await waitForPath(page, "/my-profile/consultations");
      const card = page.getByRole("article").filter({ hasText: "Video visit · Requested" });
      await card.waitFor();
      expect(await card.textContent()).toContain("Mia Tester");
      await expectNoAxeViolations(page);

      // The intake answers are in the medical records.
      await page.goto(`${baseUrl}/my-profile/medical-records`);
      const records = page.getByRole("region", { name: "Visits" });
      for (const text of ["Fever", "Cough", "Sore Throat", "101.3 °F (Mouth)", "Penicillin", "Daughter"]) {
        expect(await records.textContent()).toContain(text);
      }
      await expectNoAxeViolations(page);

      for (const path of ["/my-profile/messages", "/my-profile/past-appointments", "/call-ended"]) {
        await page.goto(`${baseUrl}${path}`);
        await waitForHydration(page);
        await expectNoAxeViolations(page);
      }
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a new patient's pages say what they are for; a canceled request stays in the history, labelled", async () => {
    const provider = await videoProviderInCalifornia();
    const name = `${provider.name}, ${provider.credentials}`;
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      await newPatient(context);

      // Before any visit: each page says what it is for and offers the next step.
      const empty: Array<[string, string, string]> = [
        ["/my-profile/consultations", "consultations-empty", "You have no current consultations."],
        ["/my-profile/past-appointments", "past-appointments-empty", "No past appointments yet."],
        ["/my-profile/messages", "messages-empty", "No messages yet"],
        ["/my-profile/medical-records", "records-empty", "No visits yet."],
      ];
      for (const [path, testId, title] of empty) {
        await page.goto(`${baseUrl}${path}`);
        await waitForHydration(page);
        const state = page.getByTestId(testId);
        await state.getByRole("heading", { name: title }).waitFor();
        expect((await state.textContent())?.length, path).toBeGreaterThan(title.length + 80);
        expect(await state.getByRole("link", { name: "Request a visit" }).getAttribute("href"), path).toBe(
          "/consultation/consult",
        );
        await expectAccessibleAtBothWidths(page);
      }

      // A video visit with a chosen provider, then canceled while it waits.
      await startTrialSession(context, baseUrl);
      await page.goto(`${baseUrl}/consultation/form?type=video&provider=${provider.slug}&state=CA`);
      await waitForHydration(page);
      await page.getByText(`Provider: ${name}.`).waitFor();
      await fillIntakeForChild(page);
      await page.getByRole("button", { name: "Request the visit" }).click();
      await waitForPath(page, "/consultation/thank-you");

      // Its thread is named by the type of visit and the provider, not by a date alone.
      await page.goto(`${baseUrl}/my-profile/messages`);
      const threads = page.getByRole("navigation", { name: "Consultation threads" });
      await threads.getByRole("link", { name: new RegExp(`^Video visit · ${name}`) }).waitFor();
      await expectAccessibleAtBothWidths(page);

      await page.goto(`${baseUrl}/my-profile/consultations`);
      await waitForHydration(page);
      await page.getByRole("button", { name: "Cancel this request" }).click();
      await page.getByRole("status").filter({ hasText: "The request was canceled." }).waitFor();
      await page.getByTestId("consultations-empty").waitFor();
      // The page says where the canceled request went, and it is there, shown as canceled.
      await page.getByTestId("history-note").getByRole("link", { name: "Past appointments" }).click();
      await waitForPath(page, "/my-profile/past-appointments");
      const canceled = page.getByRole("article").filter({ hasText: "Video visit · Canceled" });
      await canceled.waitFor();
      expect(await canceled.textContent()).toContain(
        "This visit did not take place: the request was canceled.",
      );
      expect(await canceled.textContent()).toContain(name);
      expect(await canceled.getByRole("button", { name: "Rate this provider" }).count()).toBe(0);
      await expectAccessibleAtBothWidths(page);

      // Messages still holds its thread, now marked canceled.
      await page.goto(`${baseUrl}/my-profile/messages`);
      await threads.getByRole("link", { name: new RegExp(`^Video visit · ${name}.*Canceled$`) }).waitFor();
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it("a member waits for a chat visit in the waiting room, which follows the clinician live to the summary and the rating", async () => {
    const clinician = clinicianFor("consultations-waiting-room");
    // Full Chromium for this journey only: the waiting room offers "Notify me when a clinician
    // accepts" only where the browser can show a notification, which the headless shell cannot, and
    // the full browser costs about 2.6 times the CPU per page (ADR 073).
    const withNotifications = await launchBrowser([], { systemNotifications: true });
    try {
      const { context, page, consoleErrors } = await openPage(withNotifications);
      await dismissPopupBeforehand(context);
      await newPatient(context);
      await startTrialSession(context, baseUrl);
      await page.goto(`${baseUrl}/consultation/form?type=chat`);
      await waitForHydration(page);
      // In the state of this journey's own clinician, who takes the visit.
      await fillIntakeForChild(page, clinician.state.name);
      await page.getByRole("button", { name: "Request the visit" }).click();
      await waitForPath(page, "/consultation/thank-you");
      await page.getByRole("link", { name: "Go to your waiting room" }).click();
      await page.waitForURL(/\/my-profile\/consultations\/[0-9a-f-]{36}$/);
      const visitId = new URL(page.url()).pathname.split("/").pop() ?? "";
      await waitForHydration(page);
      const status = page.getByTestId("visit-status");
      expect(await status.textContent()).toBe("Waiting for a clinician to accept your visit.");
      expect(await page.getByTestId("visit-position").textContent()).toMatch(/^Number \d+$/);
      await page.getByText(/^About \d+ minutes?$/).waitFor();
      await page.getByRole("button", { name: "Notify me when a clinician accepts" }).waitFor();
      await expectNoAxeViolations(page);
      // Usable at 320 px: nothing wider than the screen.
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await page.setViewportSize({ width: 1280, height: 800 });

      // The clinician accepts: the page changes without a reload.
      await page.evaluate(() => {
        (window as unknown as { sameDocument: boolean }).sameDocument = true;
      });
      const steps = await clinicianApi(apiUrl, clinician);
      await steps.step(visitId, "accept");
      await page
        .getByTestId("visit-status")
        .filter({ hasText: `Dr ${clinician.name} accepted your visit. It will start shortly.` })
        .waitFor();
      await page.getByRole("heading", { name: "Chat with your clinician" }).waitFor();
      expect(await page.getByTestId("visit-position").count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
        true,
      );
      await expectNoAxeViolations(page);

      await steps.step(visitId, "start");
      await page.getByTestId("visit-status").filter({ hasText: "is in progress" }).waitFor();
      await steps.step(visitId, "complete", {
        summary: "A cold. Rest, fluids, and honey for the cough.",
      });
      await page.getByTestId("visit-summary").filter({ hasText: "honey for the cough" }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(
        true,
      );
      await page.getByRole("button", { name: "Print" }).waitFor();
      // The visit's chat stays open for follow-up questions for a few days, and says until when.
      const followUp = page.getByRole("region", { name: "Follow-up questions" });
      await followUp.getByText(/^You can ask your clinician follow-up questions here until /).waitFor();
      await followUp.getByRole("textbox", { name: "Your message" }).fill("Can she go to school tomorrow?");
      await followUp.getByRole("button", { name: "Send" }).click();
      await followUp
        .getByRole("list", { name: "Messages of this visit" })
        .getByText("Can she go to school tomorrow?")
        .waitFor();
      await expect.poll(() => followUp.getByText("Sending…").count()).toBe(0);
      await expectNoAxeViolations(page);

      // A reload keeps it all: the state is the server's.
      await page.reload();
      await page.getByTestId("visit-summary").filter({ hasText: "honey for the cough" }).waitFor();
      await page.getByRole("link", { name: `Rate Dr ${clinician.name}` }).click();
      await waitForPath(page, "/my-profile/past-appointments");
      await waitForHydration(page);
      const form = page.locator(`#rate-${visitId}`);
      await form.getByLabel("Stars").selectOption("5");
      await form.getByRole("button", { name: "Rate this provider" }).click();
      await page.getByText("Thank you for your rating.").waitFor();
      await page.goto(`${baseUrl}/my-profile/consultations/${visitId}`);
      await page.getByText("You rated this visit. Thank you.").waitFor();
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      // Its contexts close with it.
      await withNotifications.close();
    }
  });

  it("a patient without a membership is told to buy a visit, then succeeds with one; the clinician's cancel is explained", async () => {
    const clinician = clinicianFor("consultations-cancel");
    const { context, page, consoleErrors } = await openPage(browser, {
      viewport: { width: 320, height: 800 },
    });
    try {
      await dismissPopupBeforehand(context);
      await newPatient(context);
      // The first step shows what a visit costs without a membership, and where to get one.
      await page.goto(`${baseUrl}/consultation/consult`);
      await page
        .getByRole("radio", { name: "Video — see a doctor face to face (one-time visit $49)" })
        .waitFor();
      expect(await page.getByRole("link", { name: "Buy a one-time visit" }).getAttribute("href")).toBe(
        "/one-time-visit",
      );
      expect(await page.getByText("Your membership includes this visit").count()).toBe(0);
      await page.goto(`${baseUrl}/consultation/form?type=video`);
      await waitForHydration(page);
      await fillIntakeForChild(page, clinician.state.name);
      await page.getByRole("button", { name: "Request the visit" }).click();
      const explanation = page.getByText(/a visit is included only with a membership/);
      await explanation.waitFor();
      expect(await page.getByRole("alert").textContent()).toContain("needs a membership or a one-time visit");
      expect(await page.getByRole("link", { name: "Buy a one-time visit" }).getAttribute("href")).toBe(
        "/one-time-visit",
      );
      expect(await page.getByRole("link", { name: "Start a membership trial" }).getAttribute("href")).toBe(
        "/membership-trial",
      );
      await expectNoAxeViolations(page);

      // Buy the visit in another tab, as the link offers; this tab keeps the form.
      const shop = await context.newPage();
      await buyVisit(shop, baseUrl, "video");
      await shop.close();
      // The answers are still there: submit the same form again.
      expect(await page.getByRole("checkbox", { name: /financial communications/ }).isChecked()).toBe(true);
      await page.getByRole("button", { name: "Request the visit" }).click();
      await waitForPath(page, "/consultation/thank-you");
      const room =
        (await page.getByRole("link", { name: "Go to your waiting room" }).getAttribute("href")) ?? "";
      await page.goto(`${baseUrl}/my-profile/consultations`);
      await page.getByRole("article").filter({ hasText: "Video visit · Requested" }).waitFor();

      // The clinician accepts, then cancels with a reason: the patient's page, open all along, says
      // who canceled, why, what happens to the $49, and what to do next.
      await page.goto(`${baseUrl}${room}`);
      await waitForHydration(page);
      const visitId = room.split("/").pop() ?? "";
      const steps = await clinicianApi(apiUrl, clinician);
      await steps.step(visitId, "accept");
      await page.getByTestId("visit-status").filter({ hasText: "accepted your visit" }).waitFor();
      await steps.step(visitId, "cancel", { reason: "I am called away to an emergency." });
      const ending = page.getByRole("region", {
        name: /^(Why this visit was canceled|Защо това посещение беше отменено)$/,
      });
      await ending.getByText(`Dr ${clinician.name} canceled this visit before it started.`).waitFor();
      await ending.getByText("I am called away to an emergency.").waitFor();
      await ending.getByText(/^We (are refunding|refunded) \$49 to the card you paid with\.$/).waitFor();
      expect(await ending.getByRole("link", { name: "Request a visit again" }).getAttribute("href")).toBe(
        "/consultation/form?type=video",
      );
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await page.goto(`${baseUrl}${room}?lang=bg`);
      await ending
        .getByText(`Посещението беше отменено от д-р ${clinician.name}, преди да започне.`)
        .waitFor();
      await ending
        .getByText(/^(Възстановяваме|Възстановихме) \$49 по картата, с която платихте\.$/)
        .waitFor();
      await expectNoAxeViolations(page);
      await page.setViewportSize({ width: 1280, height: 800 });
      await expectNoAxeViolations(page);
      await page.goto(`${baseUrl}${room}?lang=en`);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("says before the questions that a provider takes no visits yet, and a refusal keeps the answers", async () => {
    const provider = await videoProviderInCalifornia(false);
    const name = `${provider.name}, ${provider.credentials}`;
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      await newPatient(context);
      await startTrialSession(context, baseUrl);
      await page.goto(`${baseUrl}/consultation/form?type=video&provider=${provider.slug}`);
      await waitForHydration(page);
      // Before anything is typed: said plainly, with the ways on.
      const notice = page.getByTestId("provider-not-taking-visits");
      expect(await notice.innerText()).toContain(`${name} is not taking visits yet`);
      expect(
        await notice.getByRole("link", { name: "Request with any available clinician" }).getAttribute("href"),
      ).toBe("/consultation/consult?type=video");
      expect(
        await notice.getByRole("link", { name: "See the doctors available today" }).getAttribute("href"),
      ).toBe("/find-a-doctor?available_today=true");
      await expectNoAxeViolations(page);

      // Sent all the same, the API refuses it (409 NOT_TAKING_VISITS): the message, the answers kept.
      await fillIntakeForChild(page);
      await page.getByRole("button", { name: "Request the visit" }).click();
      await page.getByRole("alert").filter({ hasText: "This provider is not taking visits yet." }).waitFor();
      expect(page.url()).toContain("/consultation/form");
      expect(await page.getByRole("checkbox", { name: /financial communications/ }).isChecked()).toBe(true);
      expect(await page.locator('input[name="dependent_first_name"]').inputValue()).toBe("Mia");
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("offers only what the chosen provider offers, checks the licence first and keeps the choice", async () => {
    const provider = await videoOnlyProvider();
    const name = `${provider.name}, ${provider.credentials}`;
    const licensed = provider.states.find((code) => code in STATE_NAMES) ?? provider.states[0]!;
    const unlicensed = Object.keys(STATE_NAMES).find((code) => !provider.states.includes(code))!;
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      await newPatient(context);
      await page.goto(`${baseUrl}/consultation/consult?provider=${provider.slug}`);
      await waitForHydration(page);
      await page.getByText(`${name} offers video visits only.`).waitFor();
      expect(await page.getByRole("radio", { name: /^Chat/ }).count()).toBe(0);
      expect(await page.getByRole("radio", { name: /^Video/ }).isChecked()).toBe(true);

      // A state the provider is not licensed in is refused here, before the health questions.
      await page.getByLabel("US state where the patient is now").selectOption(unlicensed);
      await page.getByRole("button", { name: "Continue to the health questions" }).click();
      await page.getByText(`${name} is not licensed in ${STATE_NAMES[unlicensed]}.`).first().waitFor();
      expect(new URL(page.url()).pathname).toBe("/consultation/consult");
      expect(await page.getByLabel("US state where the patient is now").inputValue()).toBe(unlicensed);
      await expectNoAxeViolations(page);
      // Asking for chat by the address changes nothing: the provider does not offer it.
      await page.goto(`${baseUrl}/consultation/form?type=chat&provider=${provider.slug}&state=${licensed}`);
      await waitForPath(page, "/consultation/consult");
      expect(await page.getByRole("radio", { name: /^Chat/ }).count()).toBe(0);

      await waitForHydration(page);
      await page.getByLabel("US state where the patient is now").selectOption(licensed);
      await page.getByRole("button", { name: "Continue to the health questions" }).click();
      await waitForPath(page, "/consultation/form");
      await waitForHydration(page);
      await page.getByText(`Provider: ${name}.`).waitFor();
      // The state checked on the first step is the form's; the provider stays through the steps.
      expect(await page.getByLabel("US state where the patient is now").inputValue()).toBe(licensed);
      await page.getByLabel("Gender").selectOption({ label: "Female" });
      await page.getByLabel("Race").selectOption({ label: "Asian" });
      await page.getByLabel("Ethnicity").selectOption({ label: "Not Hispanic or Latino" });
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByText("Step 2 of 4").waitFor();
      expect(await page.locator('input[name="provider_slug"]').inputValue()).toBe(provider.slug);

      // "Change" goes back to the first step with the provider, the type and the state kept.
      await page.getByRole("link", { name: "Change" }).click();
      await waitForPath(page, "/consultation/consult");
      await page.getByText(`Your visit is with ${name}.`).waitFor();
      expect(await page.getByLabel("US state where the patient is now").inputValue()).toBe(licensed);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("starts the intake with the gender and state of the profile, not a dependant's gender", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      await newPatient(context);
      await page.goto(`${baseUrl}/almost-there`);
      await fillProfile(page, { state: "Washington", gender: "Female" });
      await page.getByRole("button", { name: "Save and continue" }).click();
      await waitForPath(page, "/my-profile");
      // The first step asks the state only with a provider; without one the form starts with it.
      await page.goto(`${baseUrl}/consultation/form?type=video`);
      await waitForHydration(page);
      expect(await page.getByLabel("Gender").inputValue()).toBe("female");
      expect(await page.getByLabel("US state where the patient is now").inputValue()).toBe("WA");
      // What the patient changes wins over the profile, through a reload too.
      await page.getByLabel("US state where the patient is now").selectOption("OR");
      await page.reload();
      await waitForHydration(page);
      expect(await page.getByLabel("US state where the patient is now").inputValue()).toBe("OR");
      expect(await page.getByLabel("Gender").inputValue()).toBe("female");
      // The profile's gender is the account holder's: a visit for someone they care for starts
      // without it, and a visit for themselves has it again.
      await page.getByRole("radio", { name: /Someone I care for/ }).check();
      expect(await page.getByLabel("Gender").inputValue()).toBe("");
      await page.getByRole("radio", { name: "Me", exact: true }).check();
      expect(await page.getByLabel("Gender").inputValue()).toBe("female");
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("tells a visitor with no video visit what /call-ended is for, in both languages", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/call-ended`);
      await page.getByRole("heading", { level: 1, name: "After a video visit" }).waitFor();
      expect(await page.title()).toBe("After a video visit | Ambercare");
      expect(await page.locator("body").innerText()).not.toContain("has ended");
      expect(await page.locator('meta[name="description"]').getAttribute("content")).not.toContain(
        "has ended",
      );
      expect(await page.getByRole("link", { name: "Request a consultation" }).getAttribute("href")).toBe(
        "/consultation/consult",
      );
      await expectNoAxeViolations(page);
      await page.goto(`${baseUrl}/call-ended?lang=bg`);
      await page.getByRole("heading", { level: 1, name: "След видеоконсултация" }).waitFor();
      expect(await page.locator("body").innerText()).not.toContain("Вашата видеоконсултация приключи");
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("an uploaded document appears in the medical records and downloads byte-identical", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await newPatient(context);
      await page.goto(`${baseUrl}/my-profile/medical-records`);
      await waitForHydration(page);
      const png = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        randomBytes(64 * 1024),
      ]);
      await page
        .getByLabel("Add a document")
        .setInputFiles({ name: "x-ray.png", mimeType: "image/png", buffer: png });
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("status").filter({ hasText: "The document was uploaded." }).waitFor();
      const link = page.getByRole("link", { name: "x-ray.png" });
      const href = await link.getAttribute("href");
      expect(href).toMatch(/^\/my-profile\/medical-records\/documents\/[0-9a-f-]{36}$/);

      const download = await context.request.get(`${baseUrl}${href}`);
      expect(download.status()).toBe(200);
      expect(download.headers()["content-type"]).toBe("image/png");
      expect(download.headers()["content-disposition"]).toContain("attachment");
      expect(download.headers()["x-content-type-options"]).toBe("nosniff");
      expect(Buffer.compare(await download.body(), png)).toBe(0);

      // A text file dressed as a PDF is refused with a message.
      await page.getByLabel("Add a document").setInputFiles({
        name: "notes.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("just text"),
      });
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("alert").filter({ hasText: "Upload a PDF, JPEG or PNG file." }).waitFor();

      // The audit log shows the upload and the download.
      await page.reload();
      const audit = page.getByRole("region", { name: "Who saw your health data" });
      expect(await audit.textContent()).toContain("Uploaded a document");
      expect(await audit.textContent()).toContain("Downloaded a document");
      await expectNoAxeViolations(page);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
