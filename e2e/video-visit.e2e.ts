import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startStack } from "../scripts/lib/stack.mjs";
import { clinicianFor, journeyStack, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, launchBrowser, takeLoggedErrors, unexpected } from "./browser.ts";
import { journeyStackEnv } from "./journey-env.ts";
import { ownDataDir } from "./journey-stack.ts";
import {
  bothSides,
  type Flow,
  inboundMedia,
  startAndJoin,
  VIDEO_CALL_BROWSER_FLAGS,
} from "./video-call-steps.ts";

/**
 * A video visit in two Chromium contexts with fake cameras and microphones: the clinician starts
 * the call from the console, the patient's waiting room rings, the patient joins, and on both sides
 * the other's video is decoded and its sound has energy; a reload of the patient's page rejoins.
 * With the relay forced (CALL_ICE_TRANSPORT_POLICY=relay) through a local coturn, stopping coturn
 * and starting it again on the same port brings the frames back through an ICE restart. The
 * clinician is told when the patient's page closes or the patient leaves, and calls them back. How the
 * journey reads the media: video-call-steps.ts.
 */

const { baseUrl, apiUrl } = journeyStack();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser(VIDEO_CALL_BROWSER_FLAGS);
});
afterAll(async () => {
  await browser?.close();
});

/** Waits until the other side's video keeps being decoded and its sound has energy. */
async function expectMediaFlowing(page: Page, timeout = 30_000): Promise<Flow> {
  let first: Flow | null = null;
  await expect
    .poll(
      async () => {
        const flow = await inboundMedia(page);
        if (!flow || flow.frames === 0) return false;
        first ??= flow;
        return flow.frames > first.frames + 10 && flow.energy > 0;
      },
      { timeout, interval: 250 },
    )
    .toBe(true);
  return (await inboundMedia(page)) as Flow;
}

describe("a video visit, both sides", () => {
  it("rings the waiting room, carries video and sound both ways, and rejoins after the patient's reload", async () => {
    const doctorAccount = clinicianFor("video-visit");
    const sides = await bothSides(browser, baseUrl, apiUrl, journeyStack().dataDir, doctorAccount);
    const { patient, doctor } = sides;
    try {
      await startAndJoin(patient, doctor);
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);
      await patient.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
      await doctor.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
      // The ring is over once the patient is in the call: the console says so no more.
      const ringingNote = doctor.getByText("The patient's waiting room is ringing.");
      await expect.poll(() => ringingNote.count()).toBe(0);
      await expect.poll(() => doctor.getByTestId("call-quality").count()).toBe(1);
      await patient.getByText("This visit is not recorded.").waitFor();

      // The other side's state: the patient turns the microphone off, the clinician is told.
      await patient.getByRole("button", { name: "Turn microphone off" }).click();
      await doctor
        .getByTestId("call-status")
        .filter({ hasText: "The other side's microphone is off." })
        .waitFor();
      await patient.getByRole("button", { name: "Turn microphone on" }).click();
      await expectNoAxeViolations(patient);
      await patient.setViewportSize({ width: 320, height: 800 });
      expect(await patient.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      await patient.setViewportSize({ width: 1280, height: 900 });

      // A reload mid-call offers to rejoin at once, and the media comes back on both sides.
      await patient.reload();
      await waitForHydration(patient);
      const rejoin = patient.getByRole("alert").filter({ hasText: "Your video visit is under way." });
      await rejoin.getByRole("button", { name: "Rejoin the call" }).click();
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);

      // The patient's network drops for a moment, and the page's re-read on reconnecting fails (the
      // API throttling or restarting): the call goes on, the page says it will try again, and does.
      const pageData = /\/my-profile\/consultations\/[^/]+\/data$/;
      await patient.route(pageData, (route) =>
        route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"unavailable"}' }),
      );
      await patient.context().setOffline(true);
      await patient
        .getByText("You are offline: this page updates again when the connection returns.")
        .waitFor();
      await patient.context().setOffline(false);
      const notice = patient.getByTestId("refresh-failed-notice");
      await notice.filter({ hasText: "We could not update this page just now" }).waitFor();
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);
      expect(await patient.getByTestId("call-screen").isVisible()).toBe(true);
      await patient.unroute(pageData);
      await notice.waitFor({ state: "detached", timeout: 15_000 });
      // The refused re-reads are the browser's failed resources; nothing else may have been logged.
      expect(unexpected(takeLoggedErrors()).filter((error) => !/status of 503/.test(error))).toEqual([]);

      // The patient's call page closes without hanging up (a closed tab): the clinician is told at
      // once, not "Connecting…", and the patient comes back to the call. The page tells it over its
      // live link, which must be back from the offline moment above first: the page says so by no
      // longer showing that it is offline or reconnecting.
      await expect
        .poll(() =>
          patient.getByText(/^(You are offline: this page updates|Reconnecting to get live updates)/).count(),
        )
        .toBe(0);
      const visitPage = patient.url();
      await patient.goto("about:blank");
      await doctor
        .getByTestId("call-status")
        .filter({ hasText: "The patient's call page closed. Waiting for them to come back…" })
        .waitFor({ timeout: 5_000 });
      await patient.goto(visitPage);
      await waitForHydration(patient);
      await patient.getByRole("button", { name: "Rejoin the call" }).click();
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);

      // The same while the page's live link is down (a network blip, its reconnects refused): the
      // page cannot say it is going, so its leave's beacon asks the API to tell the clinician.
      await doctor.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
      let refuseLiveLink = true;
      await patient.routeWebSocket(
        (url) => url.pathname === "/live",
        (socket) => {
          if (refuseLiveLink) socket.close();
          else socket.connectToServer();
        },
      );
      await patient.context().setOffline(true);
      await patient
        .getByText("You are offline: this page updates again when the connection returns.")
        .waitFor();
      await patient.context().setOffline(false);
      await patient.getByText("Reconnecting to get live updates…").first().waitFor();
      await patient.goto("about:blank");
      await doctor
        .getByTestId("call-status")
        .filter({ hasText: "The patient's call page closed. Waiting for them to come back…" })
        .waitFor({ timeout: 5_000 });
      refuseLiveLink = false;
      await patient.goto(visitPage);
      await waitForHydration(patient);
      await patient.getByRole("button", { name: "Rejoin the call" }).click();
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);
      // The refused links are the browser's failed WebSockets, and a request the page had under way
      // when the network went fails as disconnected; nothing else may have been logged.
      const failedOnPurpose = /WebSocket|ERR_INTERNET_DISCONNECTED/;
      expect(unexpected(takeLoggedErrors()).filter((error) => !failedOnPurpose.test(error))).toEqual([]);

      // The patient leaves: the clinician is told within seconds and calls again; the call-ended
      // page hears it and leads the patient back into the call.
      const leftAt = Date.now();
      await patient.getByRole("button", { name: "Leave the call" }).click();
      await waitForPath(patient, "/call-ended");
      const leftNote = doctor.getByTestId("call-status").filter({ hasText: "The patient left the call." });
      await leftNote.waitFor({ timeout: 5_000 });
      console.log(`The clinician saw the patient leave ${Date.now() - leftAt} ms after "Leave the call".`);
      await doctor.getByRole("button", { name: "Call the patient again" }).click();
      await ringingNote.waitFor();
      const callingAgain = patient
        .getByRole("alert")
        .filter({ hasText: "Your clinician is calling you again." });
      await callingAgain.waitFor();
      await expectNoAxeViolations(patient);
      await callingAgain.getByRole("link", { name: "Back to the call" }).click();
      await patient.getByRole("button", { name: "Rejoin the call" }).click();
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);
      await doctor.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
      await expect.poll(() => ringingNote.count()).toBe(0);

      // The clinician hangs up: the patient is taken to the call-ended page.
      await doctor.getByRole("button", { name: "Leave the call" }).click();
      await waitForPath(patient, "/call-ended");
      expect(await ringingNote.count()).toBe(0);
    } finally {
      await sides.close();
    }
  }, 180_000);
});

describe("a video visit through the relay", () => {
  const turnserver = "/usr/bin/turnserver";
  const available = existsSync(turnserver);
  if (!available)
    console.log(`The relay case is skipped: ${turnserver} is not installed (apt-get install coturn).`);

  it.skipIf(!available)(
    "comes back through an ICE restart when the TURN server stops and starts again on the same port",
    async () => {
      const secret = randomBytes(24).toString("hex");
      const turnPort = await freePort();
      const turnDir = mkdtempSync(join(tmpdir(), "ambercare-turn-"));
      const startTurn = (): ChildProcess =>
        spawn(
          turnserver,
          [
            "--listening-ip=127.0.0.1",
            `--listening-port=${turnPort}`,
            "--relay-ip=127.0.0.1",
            "--allow-loopback-peers",
            "--use-auth-secret",
            `--static-auth-secret=${secret}`,
            "--realm=ambercare.test",
            "--no-tls",
            "--no-dtls",
            "--no-cli",
            "--fingerprint",
            "--min-port=49300",
            "--max-port=49400",
            `--log-file=${join(turnDir, "turn.log")}`,
            "--simple-log",
          ],
          { stdio: "ignore" },
        );
      const stopTurn = async (turn: ChildProcess) => {
        if (turn.exitCode !== null) return;
        const exited = new Promise((resolve) => turn.once("exit", resolve));
        turn.kill("SIGKILL");
        await exited;
      };
      let turn = startTurn();
      const dataDir = ownDataDir("ambercare-relay-");
      const [port, apiPort] = [await freePort(), await freePort()];
      const stack = await startStack({
        quiet: !process.env.E2E_VERBOSE,
        env: journeyStackEnv(port, apiPort, dataDir),
        apiEnv: {
          NODE_ENV: "test",
          TURN_URLS: `turn:127.0.0.1:${turnPort}?transport=udp`,
          TURN_SECRET: secret,
          CALL_ICE_TRANSPORT_POLICY: "relay",
        },
      });
      let sides: Awaited<ReturnType<typeof bothSides>> | undefined;
      try {
        // A stack of its own, whose demo clinician no other journey logs in: this journey's own.
        sides = await bothSides(browser, stack.webUrl, stack.apiUrl, dataDir);
        const { patient, doctor } = sides;
        await startAndJoin(patient, doctor);
        expect((await expectMediaFlowing(patient)).relayed).toBe(true);
        expect((await expectMediaFlowing(doctor)).relayed).toBe(true);

        // The relay goes away: both sides see the connection drop.
        await stopTurn(turn);
        await patient
          .getByTestId("call-status")
          .filter({ hasText: "The connection dropped. Reconnecting…" })
          .waitFor({ timeout: 30_000 });
        // It comes back on the same port: frames again within 10 s, through an ICE restart.
        turn = startTurn();
        const back = Date.now();
        await expectMediaFlowing(patient, 10_000);
        await expectMediaFlowing(doctor, 10_000);
        console.log(`Relay back: media on both sides ${Date.now() - back} ms after coturn restarted.`);
        await patient.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
      } finally {
        await sides?.close();
        await stack.stop();
        await stopTurn(turn);
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(turnDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
