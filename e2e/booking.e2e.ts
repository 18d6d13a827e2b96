import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinicianFor, journeyStack, newPatient, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { careTeam, localClock, wall } from "./booking-steps.ts";
import {
  expectAccessibleAtBothWidths,
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  unexpected,
} from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import { apiNow, clinicianSession } from "./clinician-helpers.ts";
import { fillIntakeForChild } from "./intake-steps.ts";
import { startTrialSession } from "./session-fixtures.ts";

/**
 * Booked visits with two browsers (ADR 059, 063): the journey's own clinician opens two ranges of
 * extra hours today; a member in Sofia finds "Book a time" on the clinician's profile, sees the free
 * times in her own zone, books a chat visit for her daughter in the later range, and the clinician
 * sees it on the console's agenda. She moves it to the earliest free time (the old time stays
 * booked until then), checks in, the clinician sees the check-in on the open console without a
 * reload and starts the visit, and her page
 * turns into the visit's chat. The new pages are axe-clean at 1280 and 320 px.
 */

const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const MINUTE = 60_000;

/**
 * The clinician's hours: none weekly, two ranges of extra hours on their local today — one from
 * now for 40 minutes (its first free time opens check-in at once) and one three hours later
 * (before the cut-off, so it may be moved) — chat visits of 10 minutes, no notice. The zone is the
 * first of a few in which both ranges still fit in today. "Now" is the API's clock, which the
 * journeys run before this one on the same stack may have moved by days.
 */
async function openTodaysHours(token: string): Promise<{ later: string }> {
  const now = new Date(await apiNow(apiUrl));
  const zones = [
    "America/Los_Angeles",
    "Pacific/Honolulu",
    "America/New_York",
    "Asia/Tokyo",
    "Europe/London",
  ];
  const zone = zones.find((candidate) => localClock(now, candidate).minutes < 19 * 60);
  if (!zone) throw new Error("no zone with four hours left today");
  const { date, minutes } = localClock(now, zone);
  const first = Math.floor(minutes / 5) * 5;
  await careTeam(apiUrl, token, "PUT", "schedule", {
    time_zone: zone,
    min_notice_minutes: 0,
    horizon_days: 14,
    slot_minutes: { chat: 10 },
    weekly_hours: [],
  });
  for (const start of [first, first + 180]) {
    await careTeam(apiUrl, token, "POST", "schedule/exceptions", {
      date,
      kind: "extra",
      start: wall(start),
      end: wall(start + 40),
      visit_types: ["chat"],
    });
  }
  // The later range's first time, as the API writes instants (whole hours' zones: UTC minutes too).
  const firstInstant = new Date(Math.floor(now.getTime() / (5 * MINUTE)) * 5 * MINUTE);
  return { later: new Date(firstInstant.getTime() + 180 * MINUTE).toISOString() };
}

describe("booked visits", () => {
  it("a patient books a time, moves it, checks in, and the clinician starts the visit", async () => {
    const clinician = clinicianFor("booking");
    const doctor = await openPage(browser);
    const patient = await openPage(browser, { timezoneId: "Europe/Sofia" });
    try {
      const token = await clinicianSession(doctor.context, baseUrl, clinician);
      const { later } = await openTodaysHours(token);

      const page = patient.page;
      await dismissPopupBeforehand(patient.context);
      await newPatient(patient.context);
      await startTrialSession(patient.context, baseUrl);

      // The profile offers a time; the booking page lists the free times in her zone.
      // Her first page tells the site her browser's zone (the `tz` cookie, ADR 044).
      await page.goto(`${baseUrl}/my-profile`);
      await waitForHydration(page);
      await page.goto(`${baseUrl}/find-a-doctor/${clinician.providerSlug}`);
      await waitForHydration(page);
      // The next free times are on the profile, in her zone.
      const freeTimes = page.getByTestId("free-times");
      expect(await freeTimes.getByRole("link").first().textContent()).toMatch(/GMT\+2 · Chat visit$/);
      await expectAccessibleAtBothWidths(page);
      await page.getByTestId("book-a-time").click();
      await waitForPath(page, "/consultation/book");
      await waitForHydration(page);
      // Video is offered first, in the profile's state; the clinician's hours today are for chat
      // visits, in the state they are licensed in.
      await page.getByRole("radio", { name: "Chat visit" }).check();
      await page.getByLabel("US state where the patient is now").selectOption(clinician.state.code);
      await page.getByRole("button", { name: "Show free times" }).click();
      await page.getByTestId("slot-picker").waitFor();
      expect(await page.getByTestId("booking-zone").textContent()).toContain("Europe/Sofia");
      const laterSlot = page.locator(`button[name="start"][value="${later}"]`);
      // Each time names its day for a screen reader, and is shown in Sofia's time.
      expect(await laterSlot.textContent()).toMatch(/^\S.*, \d{1,2}:\d{2} [AP]M GMT\+2$/);
      await expectAccessibleAtBothWidths(page);

      // Choosing a time holds it and leads to the health questions with it.
      await laterSlot.click();
      await waitForPath(page, "/consultation/form");
      await waitForHydration(page);
      await page
        .getByTestId("held-time")
        .getByText(/We hold it for you until/)
        .waitFor();
      await expectNoAxeViolations(page);
      await fillIntakeForChild(page, clinician.state.name);
      await page.getByRole("button", { name: "Book the visit" }).click();
      await waitForPath(page, "/consultation/thank-you");
      await page.getByText("Your visit is booked.").waitFor();
      await page.getByRole("link", { name: "Go to your visit" }).click();
      await page.waitForURL((url) => url.pathname.startsWith("/my-profile/consultations/"));
      const visitUrl = new URL(page.url()).pathname;
      await waitForHydration(page);
      await page
        .getByTestId("visit-status")
        .getByText(`Your visit with Dr ${clinician.name} is booked`)
        .waitFor();
      expect(await page.getByTestId("visit-time").textContent()).toContain("GMT+2");
      expect(await page.getByTestId("visit-cut-off").textContent()).toContain("Free of charge until");
      await expectAccessibleAtBothWidths(page);

      // Add to calendar: the visit's own event.
      const calendar = await patient.context.request.get(`${baseUrl}${visitUrl}/calendar`);
      expect(calendar.status()).toBe(200);
      expect(calendar.headers()["content-type"]).toContain("text/calendar");
      const ics = await calendar.text();
      expect(ics).toContain(`UID:${visitUrl.split("/").at(-1)}@`);
      expect(ics).toContain(`DTSTART:${later.replaceAll(/[-:]/g, "").replace(".000", "")}`);

      // The clinician's agenda has it, not checked in yet.
      const desk = doctor.page;
      await desk.goto(`${baseUrl}/console`);
      const agenda = desk.getByTestId("agenda");
      await agenda.getByText("Not checked in yet").waitFor();
      // The week view beside it lists it under its day too.
      await desk.getByTestId("agenda-week").getByText("Not checked in yet").waitFor();

      // She moves it to the earliest free time: the old time is hers until the new one is booked.
      await page.getByRole("link", { name: "Move to another time" }).click();
      await waitForPath(page, "/consultation/book");
      await waitForHydration(page);
      await page.getByText("Your visit keeps its current time until the new one is booked.").waitFor();
      expect(await page.locator(`button[name="start"][value="${later}"]`).count()).toBe(0);
      await expectNoAxeViolations(page);
      await page.getByTestId("slot").first().click();
      await page.waitForURL((url) => url.pathname === visitUrl);
      await page
        .getByRole("status")
        .getByText(/Your visit is moved to/)
        .waitFor();
      // Within the cut-off now: said plainly, and no free cancel is offered.
      expect(await page.getByTestId("visit-cut-off").textContent()).toContain("it counts as used");
      expect(await page.getByRole("button", { name: "Cancel this visit" }).count()).toBe(0);

      // Check-in is open: the page becomes the waiting room of the booked visit.
      await page.getByRole("button", { name: "Check in" }).click();
      await page.getByTestId("visit-status").getByText("you are checked in").waitFor();
      await expectAccessibleAtBothWidths(page);

      // The clinician sees the check-in without reloading (the agenda follows its live events, and
      // a screen reader hears it), and starts the visit as an accepted one.
      await agenda.getByText(/· Checked in$/).waitFor();
      await desk
        .getByTestId("agenda-announcement")
        .getByText(/checked in for the visit at/)
        .waitFor();
      await agenda.getByRole("link").first().click();
      await desk.waitForURL((url) => url.pathname.startsWith("/console/visits/"));
      await desk.getByRole("button", { name: "Start visit" }).click();
      await page
        .getByTestId("visit-status")
        .getByText(`Your visit with Dr ${clinician.name} is in progress.`)
        .waitFor();
      await page.getByRole("heading", { name: "Chat with your clinician" }).waitFor();

      expect(unexpected(patient.consoleErrors)).toEqual([]);
      expect(unexpected(doctor.consoleErrors)).toEqual([]);
    } finally {
      await patient.context.close();
      await doctor.context.close();
    }
  });
});
