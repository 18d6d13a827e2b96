import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clinicianFor, journeyStack, logInContext, newPatient, waitForHydration } from "./auth-helpers.ts";
import { expectNoAxeViolations, FAKE_MEDIA_FLAGS, launchBrowser, openPage, unexpected } from "./browser.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import { clinicianApi, requestVisit } from "./clinician-helpers.ts";
import { startTrialSession } from "./session-fixtures.ts";

/**
 * The video visit's device check and /call-ended in Chromium with a fake camera and microphone (a
 * moving test pattern and a beep) that are allowed without asking: the preview plays, the meter
 * moves, the connection test answers in words, and axe finds nothing in either language at 1280
 * and 320 px. A page whose getUserMedia is refused (an init script that rejects with
 * NotAllowedError, as Chrome does when the camera is blocked) sees Chrome's explanation and can
 * still chat. /call-ended follows the visit to its summary and rating prompt.
 */

const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser(FAKE_MEDIA_FLAGS);
});
afterAll(async () => {
  await browser?.close();
});

async function openDeviceCheck(page: Page, name: string) {
  const toggle = page.getByRole("button", { name });
  await toggle.click();
  expect(await toggle.getAttribute("aria-expanded")).toBe("true");
}

async function axeAtBothWidths(page: Page) {
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe("the video visit's device check and /call-ended", () => {
  it("previews the camera, moves the meter, tests the connection, explains a refusal, and ends on /call-ended", async () => {
    const doctor = clinicianFor("video-device");
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await dismissPopupBeforehand(context);
      const account = await newPatient(context);
      await startTrialSession(context, baseUrl);
      const visitId = await requestVisit(apiUrl, account, "video", doctor);

      // Waiting for a clinician: the check is there, collapsed, and opens on a press.
      await page.goto(`${baseUrl}/my-profile/consultations/${visitId}`);
      await waitForHydration(page);
      await openDeviceCheck(page, "Check your camera and microphone");
      await page.getByRole("button", { name: "Start camera and microphone" }).click();
      await page
        .getByTestId("device-camera-status")
        .filter({ hasText: "Your camera and microphone are on" })
        .waitFor();

      // The preview plays: frames arrive and time moves on.
      const preview = page.getByTestId("device-preview");
      const playback = () =>
        preview.evaluate((video: HTMLVideoElement) => ({
          playing: !video.paused && video.readyState >= 2 && video.videoWidth > 0,
          time: video.currentTime,
          muted: video.muted,
          inline: video.playsInline,
        }));
      await expect.poll(async () => (await playback()).playing).toBe(true);
      const first = await playback();
      expect(first.muted && first.inline).toBe(true);
      await expect.poll(async () => (await playback()).time).toBeGreaterThan(first.time);

      // The fake microphone beeps: the meter's value changes and goes above silence.
      const meter = page.getByRole("meter", { name: "Microphone level" });
      const readings = new Set<number>();
      await expect
        .poll(async () => {
          readings.add(Number(await meter.evaluate((element: HTMLMeterElement) => element.value)));
          return readings.size > 2 && Math.max(...readings) > 0;
        })
        .toBe(true);

      // Devices are listed with their names now that the camera is allowed.
      const cameras = page.getByLabel("Camera", { exact: true });
      expect(await cameras.locator("option").count()).toBeGreaterThan(0);
      expect((await cameras.locator("option").first().textContent()) ?? "").not.toBe("");

      // The speaker test plays a tone (Chromium can choose the output: the list is offered).
      await page.getByRole("button", { name: "Play a test sound" }).click();
      await page.getByTestId("device-speaker-status").filter({ hasText: /tone/ }).waitFor();

      // The connection test with the visit's ICE servers: this stack has no STUN or TURN.
      await page.getByRole("button", { name: "Test the connection" }).click();
      const probe = page.getByTestId("device-probe");
      await probe.getByText("Local network: found").waitFor();
      expect(await probe.textContent()).toContain("Your device is online.");
      expect(await probe.textContent()).not.toMatch(/srflx|candidate/);

      await axeAtBothWidths(page);
      // A camera chosen is remembered in this browser for the call.
      const cameraId = await cameras.inputValue();
      await cameras.selectOption(cameraId);
      await expect
        .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("ambercare.call-devices") ?? "{}")))
        .toMatchObject({ videoInput: cameraId });
      await page.getByRole("meter", { name: "Microphone level" }).waitFor();

      await page.goto(`${baseUrl}/my-profile/consultations/${visitId}?lang=bg`);
      await waitForHydration(page);
      await openDeviceCheck(page, "Проверете камерата и микрофона си");
      await page.getByRole("button", { name: "Включете камерата и микрофона" }).click();
      await page.getByRole("meter", { name: "Ниво на микрофона" }).waitFor();
      await axeAtBothWidths(page);
      await page.goto(`${baseUrl}/my-profile/consultations/${visitId}?lang=en`);

      // The clinician accepts: in a browser whose camera is refused, the patient is told what to do
      // in Chrome, and the visit goes on by chat.
      const clinician = await clinicianApi(apiUrl, doctor);
      await clinician.step(visitId, "accept");
      const refused = await openPage(browser);
      try {
        await refused.context.addInitScript(() => {
          navigator.mediaDevices.getUserMedia = () =>
            Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
        });
        expect(await logInContext(refused.context, account)).toBe("/almost-there");
        await refused.page.goto(`${baseUrl}/my-profile/consultations/${visitId}`);
        await waitForHydration(refused.page);
        await openDeviceCheck(refused.page, "Check your camera and microphone");
        await refused.page.getByRole("button", { name: "Start camera and microphone" }).click();
        const problem = refused.page.getByTestId("media-problem");
        await problem.waitFor();
        expect(await problem.getAttribute("data-browser")).toBe("chrome");
        const alert = refused.page
          .getByRole("alert")
          .filter({ hasText: "camera icon at the right end of the address bar" });
        await alert.waitFor();
        expect(await problem.textContent()).not.toMatch(/NotAllowedError|Permission denied/);
        await refused.page.getByRole("button", { name: "Try again" }).waitFor();
        await expectNoAxeViolations(refused.page);

        await refused.page
          .getByRole("textbox", { name: "Your message" })
          .fill("My camera is blocked, can we chat?");
        await refused.page.getByRole("button", { name: "Send" }).click();
        await refused.page
          .getByRole("list", { name: "Messages of this visit" })
          .getByText("My camera is blocked, can we chat?")
          .waitFor();
        expect(unexpected(refused.consoleErrors)).toEqual([]);
      } finally {
        await refused.context.close();
      }

      // The call took place and ended: the summary is not written yet, then appears by itself.
      await clinician.step(visitId, "start");
      await page.goto(`${baseUrl}/call-ended`);
      await waitForHydration(page);
      await page.getByTestId("call-ended-pending").waitFor();
      expect(await page.getByRole("link", { name: "Back to your visit" }).getAttribute("href")).toBe(
        `/my-profile/consultations/${visitId}`,
      );
      await clinician.step(visitId, "complete", { summary: "A cold. Rest and fluids." });
      const summary = page.getByRole("link", { name: "Read the visit summary" });
      await summary.waitFor();
      expect(await summary.getAttribute("href")).toBe(`/my-profile/consultations/${visitId}`);
      const rate = page.getByRole("link", { name: `Rate Dr ${doctor.name}` });
      expect(await rate.getAttribute("href")).toBe(`/my-profile/past-appointments#rate-${visitId}`);
      await expectNoAxeViolations(page);

      // ?visit= of someone else's (or no) visit is ignored: the patient's own visit is shown.
      await page.goto(`${baseUrl}/call-ended?visit=${randomUUID()}`);
      await page.getByRole("link", { name: "Read the visit summary" }).waitFor();
      expect(await page.getByRole("link", { name: "Read the visit summary" }).getAttribute("href")).toBe(
        `/my-profile/consultations/${visitId}`,
      );
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it("does not tell a logged-out visitor that a call ended", async () => {
    const { context, page, consoleErrors } = await openPage(browser);
    try {
      await page.goto(`${baseUrl}/call-ended`);
      await page.getByRole("heading", { level: 1, name: "After a video visit" }).waitFor();
      const text = await page.locator("body").innerText();
      expect(text).not.toMatch(/Call ended|has ended|Read the visit summary/);
      expect(unexpected(consoleErrors)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
