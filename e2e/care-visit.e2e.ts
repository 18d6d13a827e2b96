import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinicianFor, journeyStack, newPatient, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, openPage, unexpected } from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import { clinicianSession } from "./clinician-helpers.ts";
import { startTrialSession } from "./session-fixtures.ts";

/**
 * A chat visit with a real clinician on the other side, in two browser contexts: the patient
 * requests it, the request appears in the console of the journey's own clinician without a reload, the clinician
 * accepts, the patient's waiting room changes, both chat with receipts and an image (listed at once
 * among the patient's documents in the workspace), the clinician
 * writes the notes, signs and completes, the patient reads the summary and rates the provider, and
 * find-a-doctor shows the new rating.
 */

const { baseUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A 1×1 PNG: a real image, so the chat can show it. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
/** The number of ratings the provider's card in find-a-doctor shows. */
async function ratingsOfProvider(page: Page, name: string): Promise<number> {
  await page.goto(`${baseUrl}/find-a-doctor?${new URLSearchParams({ q: name })}`);
  const card = page.getByRole("article").filter({ hasText: name }).first();
  const text = (await card.textContent()) ?? "";
  const count = /\((\d+) ratings?\)/.exec(text)?.[1];
  return count === undefined ? 0 : Number(count);
}

/** Marks the page, so a later check can tell it was never reloaded. */
const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

async function atPhoneWidth(page: Page) {
  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe("a chat visit, both sides", () => {
  it("goes from the patient's request through the clinician's console to the summary and the rating", async () => {
    const clinician = clinicianFor("care-visit");
    const patientSide = await openPage(browser);
    const clinicianSide = await openPage(browser);
    const patient = patientSide.page;
    const doctor = clinicianSide.page;
    try {
      await patient.setViewportSize({ width: 1280, height: 800 });
      await doctor.setViewportSize({ width: 1280, height: 800 });

      // The clinician, logged in with the code, goes on duty, and keeps the console open.
      await clinicianSession(clinicianSide.context, baseUrl, clinician);
      await doctor.goto(`${baseUrl}/console`);
      await waitForHydration(doctor);
      const goOn = doctor.getByRole("button", { name: "Go on duty" });
      if ((await goOn.count()) > 0) await goOn.click();
      await doctor.getByText("You are on duty: patients see you as available today.").waitFor();
      // The sound switch is remembered in this browser.
      const sound = doctor.getByRole("checkbox", { name: "Play a sound when a new request arrives" });
      await sound.uncheck();
      await doctor.reload();
      await waitForHydration(doctor);
      expect(await sound.isChecked()).toBe(false);
      await sound.check();
      await markDocument(doctor);

      // The patient: a member, their rating count before, then a chat visit request.
      await dismissPopupBeforehand(patientSide.context);
      await newPatient(patientSide.context);
      await startTrialSession(patientSide.context, baseUrl);
      const ratingsBefore = await ratingsOfProvider(patient, clinician.name);
      await patient.goto(`${baseUrl}/consultation/form?type=chat`);
      await waitForHydration(patient);
      await patient.getByRole("radio", { name: "Me", exact: true }).check();
      await patient.getByLabel("Gender").selectOption({ label: "Female" });
      await patient.getByLabel("Race").selectOption({ label: "White" });
      await patient.getByLabel("Ethnicity").selectOption({ label: "Not Hispanic or Latino" });
      await patient
        .getByLabel("US state where the patient is now")
        .selectOption({ label: clinician.state.name });
      await patient.getByRole("button", { name: "Next" }).click();
      await patient.getByText("Step 2 of 4").waitFor();
      await patient.getByRole("checkbox", { name: "Cough", exact: true }).check();
      await patient.getByLabel("When did the symptoms start?").fill("2026-01-02");
      await patient.getByRole("button", { name: "Next" }).click();
      await patient.getByText("Step 3 of 4").waitFor();
      await patient.getByRole("radio", { name: "No", exact: true }).check();
      await patient.getByRole("button", { name: "Next" }).click();
      await patient.getByText("Step 4 of 4").waitFor();
      await patient.getByRole("checkbox", { name: /informed consent/ }).check();
      await patient.getByRole("checkbox", { name: /recording consent/ }).check();
      await patient.getByRole("checkbox", { name: /financial communications/ }).check();
      await patient.getByRole("button", { name: "Request the visit" }).click();
      await waitForPath(patient, "/consultation/thank-you");
      await patient.getByRole("link", { name: "Go to your waiting room" }).click();
      await patient.waitForURL(/\/my-profile\/consultations\/[0-9a-f-]{36}$/);
      const visitId = new URL(patient.url()).pathname.split("/").pop() ?? "";
      await waitForHydration(patient);
      await markDocument(patient);

      // The request appears in the console without a reload, counted in the title and announced.
      const row = doctor.locator(`[data-visit-id="${visitId}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain("Cough");
      expect(await row.textContent()).toContain(clinician.state.name);
      expect(await doctor.title()).toMatch(/^\(\d+\) Care console \| Ambercare$/);
      await doctor
        .getByTestId("queue-announcement")
        .filter({ hasText: /new requests? (is|are) waiting/ })
        .waitFor();
      expect(await sameDocument(doctor)).toBe(true);
      await expectNoAxeViolations(doctor);
      await atPhoneWidth(doctor);

      // Accepting opens the workspace; the patient's waiting room changes by itself.
      await row.getByRole("button", { name: /^Accept/ }).click();
      await waitForPath(doctor, `/console/visits/${visitId}`);
      await waitForHydration(doctor);
      await doctor.getByRole("heading", { level: 1, name: /^Chat visit with / }).waitFor();
      await patient
        .getByTestId("visit-status")
        .filter({ hasText: `Dr ${clinician.name} accepted your visit. It will start shortly.` })
        .waitFor();
      expect(await sameDocument(patient)).toBe(true);
      await doctor.getByRole("heading", { name: "Intake" }).waitFor();
      // The patients' support widget is theirs: it never floats over the clinician's workspace.
      expect(await doctor.getByRole("button", { name: "E-mail support" }).count()).toBe(0);
      await patient.getByRole("button", { name: "E-mail support" }).waitFor();
      await doctor.getByRole("heading", { name: "Earlier visits with your practice" }).waitFor();

      // The chat, both ways, with receipts and an image.
      const doctorThread = doctor.getByRole("list", { name: "Messages of this visit" });
      const patientThread = patient.getByRole("list", { name: "Messages of this visit" });
      await doctor
        .getByRole("textbox", { name: "Your message" })
        .fill("Hello, I am Dr Carter. How long have you had the cough?");
      await doctor.getByRole("button", { name: "Send" }).click();
      await patientThread.getByText("How long have you had the cough?").waitFor();
      // The patient's page shows it, so it is read: the clinician sees the receipt.
      await doctorThread.getByText("Read", { exact: true }).waitFor();
      await patient.getByLabel("Attach a file (PDF, JPEG or PNG, up to 10 MB)").setInputFiles({
        name: "throat.png",
        mimeType: "image/png",
        buffer: PNG,
      });
      await patient.locator("span").filter({ hasText: "Attached: throat.png" }).waitFor();
      await patient.getByRole("textbox", { name: "Your message" }).fill("Since Sunday. Here is my throat.");
      await patient.getByRole("button", { name: "Send" }).click();
      await doctorThread.getByText("Since Sunday. Here is my throat.").waitFor();
      await doctorThread.getByText("throat.png").first().waitFor();
      // The file is one of the patient's documents now: the workspace lists it at once, unreloaded.
      await doctor.getByRole("link", { name: "Download throat.png" }).waitFor();
      expect(await doctor.getByText("The patient has no documents.").count()).toBe(0);
      expect(await sameDocument(doctor)).toBe(true);
      await patientThread.getByText("Read", { exact: true }).waitFor();
      await expectNoAxeViolations(doctor);

      // Start, notes saved as they are typed, then sign and complete with the summary.
      await doctor.getByRole("button", { name: "Start visit" }).click();
      await doctor.getByTestId("workspace-status").filter({ hasText: "In progress" }).waitFor();
      await patient.getByTestId("visit-status").filter({ hasText: "is in progress" }).waitFor();
      // The image is one of the patient's documents now: the clinician downloads it from the workspace.
      const document = doctor.getByRole("link", { name: "Download throat.png" });
      const download = await clinicianSide.context.request.get(
        new URL((await document.getAttribute("href")) ?? "", baseUrl).href,
      );
      expect(download.status()).toBe(200);
      expect(Buffer.compare(await download.body(), PNG)).toBe(0);
      await doctor.getByLabel("Subjective").fill("Dry cough since Sunday, worse at night.");
      await doctor
        .getByTestId("notes-state")
        .filter({ hasText: /^Saved \d\d:\d\d UTC$/ })
        .waitFor();
      await doctor.getByLabel("Objective").fill("Throat slightly red on the photo.");
      await doctor.getByLabel("Assessment").fill("Viral upper respiratory infection.");
      await doctor.getByLabel("Plan").fill("Rest, fluids, honey; call back if fever.");
      await doctor
        .getByLabel("Summary for the patient (plain language)")
        .fill("A cold that should pass within a week. Rest, drink plenty, honey for the cough.");
      // A reload before signing loses nothing: the notes are saved, the summary is kept in the tab.
      await doctor
        .getByTestId("notes-state")
        .filter({ hasText: /^Saved \d\d:\d\d UTC$/ })
        .waitFor();
      await doctor.reload();
      await waitForHydration(doctor);
      expect(await doctor.getByLabel("Plan").inputValue()).toBe("Rest, fluids, honey; call back if fever.");
      expect(await doctor.getByLabel("Summary for the patient (plain language)").inputValue()).toBe(
        "A cold that should pass within a week. Rest, drink plenty, honey for the cough.",
      );
      await expectNoAxeViolations(doctor);
      await atPhoneWidth(doctor);
      await doctor.getByRole("checkbox", { name: /sign them and complete the visit/ }).check();
      await doctor.getByRole("button", { name: "Sign and complete" }).click();
      const signed = doctor.getByTestId("signed-notes");
      await signed.waitFor();
      // The notes signed are the notes typed last, even those typed just before signing.
      expect(await signed.textContent()).toContain("call back if fever");
      expect(await doctor.getByLabel("Plan").count()).toBe(0);
      await doctor.getByLabel("New addendum").fill("Patient sent a follow-up question; answered.");
      await doctor.getByRole("button", { name: "Add the addendum" }).click();
      await doctor.getByTestId("addenda").getByText("Patient sent a follow-up question; answered.").waitFor();

      // The patient reads the summary on the same page, and rates the provider.
      await patient.getByTestId("visit-summary").filter({ hasText: "honey for the cough" }).waitFor();
      expect(await sameDocument(patient)).toBe(true);
      await patient.getByRole("link", { name: `Rate Dr ${clinician.name}` }).click();
      await waitForPath(patient, "/my-profile/past-appointments");
      await waitForHydration(patient);
      const rating = patient.locator(`#rate-${visitId}`);
      await rating.getByLabel("Stars").selectOption("5");
      await rating.getByRole("button", { name: "Rate this provider" }).click();
      await patient.getByText("Thank you for your rating.").waitFor();
      await expect.poll(() => ratingsOfProvider(patient, clinician.name)).toBe(ratingsBefore + 1);

      // The visit has left the clinician's visits.
      await doctor.goto(`${baseUrl}/console`);
      await waitForHydration(doctor);
      await doctor.getByRole("button", { name: "Go off duty" }).click();
      await doctor.getByText("You are off duty: patients do not see you as available.").waitFor();
      expect(await doctor.locator(`[data-visit-id="${visitId}"]`).count()).toBe(0);
      expect(
        await doctor
          .getByRole("link", { name: /^Open the visit with/ })
          .filter({ hasText: visitId })
          .count(),
      ).toBe(0);
      expect(unexpected(patientSide.consoleErrors)).toEqual([]);
      expect(unexpected(clinicianSide.consoleErrors)).toEqual([]);
    } finally {
      await patientSide.context.close();
      await clinicianSide.context.close();
    }
  }, 240_000);
});
