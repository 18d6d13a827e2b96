import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestMail } from "./account-steps.ts";
import {
  advanceApiClock,
  clinicianFor,
  journeyStack,
  waitForHydration,
  waitForPath,
} from "./auth-helpers.ts";
import { careTeam, localClock, wall } from "./booking-steps.ts";
import { launchBrowser } from "./browser.ts";
import { apiNow } from "./clinician-helpers.ts";
import { fillIntakeForChild } from "./intake-steps.ts";
import {
  inboundMedia,
  type Sides,
  signedInSides,
  startAndJoin,
  VIDEO_CALL_BROWSER_FLAGS,
} from "./video-call-steps.ts";

/**
 * Booked video visits with two browsers and fake cameras (ADR 059, 063): the journey's clinician
 * opens extra video hours around the API's now (10-minute visits). (a) A member books the first free
 * time, checks in and tests her connection; the clinician sees the check-in, tests the connection
 * on the booked visit's page, starts the call, her waiting room rings, the video is decoded on both
 * sides and the visit is completed. (b) She books the next time and the clinician never starts it:
 * the API's clock is moved past the grace, the no-show job cancels it, her page says so and the
 * e-mail the job writes says her membership covered it. The API's clock is shared with the other
 * journeys of the stack (they move it by days): every time here is read from it.
 */

const { baseUrl, apiUrl, dataDir } = journeyStack();
const MINUTE = 60_000;
const VISIT_MINUTES = 10;
let browser: Browser;
let sides: Sides | undefined;
/** The range's free starts after now, as the API writes instants. */
let starts: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser(VIDEO_CALL_BROWSER_FLAGS);
});
afterAll(async () => {
  await sides?.close();
  await browser?.close();
});

/**
 * Extra video hours on the clinician's local today from 5 minutes before the API's now (rounded
 * down to 5 minutes) for 30 minutes: the first time is past, the next two are free — the first
 * within check-in at once, the second within the 30 minutes a session stays idle after the grace.
 */
async function openVideoHours(token: string): Promise<string[]> {
  const now = new Date(await apiNow(apiUrl));
  const zone = ["America/Los_Angeles", "Pacific/Honolulu", "America/New_York", "Asia/Tokyo"].find(
    (candidate) => {
      const { minutes } = localClock(now, candidate);
      return minutes >= 10 && minutes < 23 * 60;
    },
  );
  if (!zone) throw new Error("no zone with the range inside today");
  const { date, minutes } = localClock(now, zone);
  const first = Math.floor(minutes / 5) * 5 - 5;
  await careTeam(apiUrl, token, "PUT", "schedule", {
    time_zone: zone,
    min_notice_minutes: 0,
    horizon_days: 14,
    slot_minutes: { video: VISIT_MINUTES },
    weekly_hours: [],
  });
  await careTeam(apiUrl, token, "POST", "schedule/exceptions", {
    date,
    kind: "extra",
    start: wall(first),
    end: wall(first + 3 * VISIT_MINUTES),
    visit_types: ["video"],
  });
  // Whole-hour zones: the local minutes are the UTC minutes.
  const firstInstant = Math.floor(now.getTime() / (5 * MINUTE)) * 5 * MINUTE - 5 * MINUTE;
  return [1, 2].map((index) => new Date(firstInstant + index * VISIT_MINUTES * MINUTE).toISOString());
}

/** The patient books `start` for a video visit through the booking page and the intake form. */
async function bookVideo(page: Page, start: string): Promise<string> {
  const clinician = clinicianFor("booking-video");
  await page.goto(`${baseUrl}/consultation/book?provider=${clinician.providerSlug}`);
  await waitForHydration(page);
  await page.getByRole("radio", { name: "Video visit" }).check();
  await page.getByLabel("US state where the patient is now").selectOption(clinician.state.code);
  await page.getByRole("button", { name: "Show free times" }).click();
  await page.locator(`button[name="start"][value="${start}"]`).click();
  await waitForPath(page, "/consultation/form");
  await waitForHydration(page);
  await fillIntakeForChild(page, clinician.state.name);
  await page.getByRole("button", { name: "Book the visit" }).click();
  await waitForPath(page, "/consultation/thank-you");
  await page.getByRole("link", { name: "Go to your visit" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/my-profile/consultations/"));
  await waitForHydration(page);
  return new URL(page.url()).pathname;
}

/** Runs the device check's connection test on this page and waits for its verdict. */
async function testConnection(page: Page) {
  await page.getByRole("button", { name: "Check your camera and microphone" }).click();
  await page.getByRole("button", { name: "Test the connection" }).click();
  await page.getByTestId("device-probe").getByText("Local network: found").waitFor();
}

describe("booked video visits", () => {
  it("a member books a video time, checks in, and the clinician tests, starts and completes the call", async () => {
    const account = clinicianFor("booking-video");
    sides = await signedInSides(browser, baseUrl, apiUrl, dataDir, account);
    const { patient, doctor } = sides;
    starts = await openVideoHours(sides.clinician.token);

    const visitPath = await bookVideo(patient, starts[0]!);
    const visitId = visitPath.split("/").at(-1)!;
    await patient.getByRole("button", { name: "Check in" }).click();
    await patient.getByTestId("visit-status").getByText("you are checked in").waitFor();
    await testConnection(patient);

    // The clinician's agenda shows the check-in; the booked visit's page has the device check.
    await doctor.goto(`${baseUrl}/console`);
    await doctor
      .getByTestId("agenda")
      .getByText(/· Checked in$/)
      .waitFor();
    await doctor.goto(`${baseUrl}/console/visits/${visitId}`);
    await waitForHydration(doctor);
    await testConnection(doctor);

    await startAndJoin(patient, doctor);
    for (const side of [patient, doctor]) {
      await expect
        .poll(async () => (await inboundMedia(side))?.frames ?? 0, { timeout: 30_000, interval: 250 })
        .toBeGreaterThan(10);
    }
    await sides.clinician.step(visitId, "complete", { summary: "A cold. Rest and fluids." });
    // Her page leaves the call for the completed visit.
    await patient
      .getByText(/completed the visit|visit is complete/i)
      .first()
      .waitFor({ timeout: 20_000 });
  }, 90_000);

  it("a booked video visit its clinician never starts is canceled after the grace, and the member is told", async () => {
    expect(sides, "the first journey signed both sides in").toBeDefined();
    const { patient } = sides!;
    const visitPath = await bookVideo(patient, starts[1]!);
    await patient
      .getByTestId("visit-status")
      .getByText(/is booked/)
      .waitFor();
    // Past the start and the grace (NO_SHOW_GRACE_MINUTES, 10) by the API's clock; the job runs
    // within its poll.
    const now = await apiNow(apiUrl);
    const since = Date.now();
    const due = new Date(starts[1]!).getTime() + 10 * MINUTE + 30_000;
    await advanceApiClock(Math.ceil((due - now) / 1000));
    await patient
      .getByTestId("visit-status")
      .getByText("This visit was canceled.")
      .waitFor({ timeout: 30_000 });
    const mail = await latestMail(
      dataDir,
      { template: "visit-not-started", to: sides!.account.email, since },
      30_000,
    );
    expect(mail).toContain("did not start your video consultation");
    expect(mail).toContain("Your membership covered this consultation");
    expect(new URL(patient.url()).pathname).toBe(visitPath);
  }, 90_000);
});
