import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, startStack } from "../scripts/lib/stack.mjs";
import { type Account, login, newAccount, signUp, waitForHydration, waitForPath } from "./auth-helpers.ts";
import { expectNoAxeViolations, FAKE_MEDIA_FLAGS, launchBrowser, openPage } from "./browser.ts";
import { dismissPopupBeforehand, startTrial } from "./checkout-helpers.ts";
import { demoClinician, demoCode, requestVisit } from "./clinician-helpers.ts";
import { journeyStackEnv } from "./journey-env.ts";

/**
 * A video visit in two Chromium contexts with fake cameras and microphones: the clinician starts
 * the call from the console, the patient's waiting room rings, the patient joins, and on both sides
 * the other's video is decoded and its sound has energy; a reload of the patient's page rejoins.
 * With the relay forced (CALL_ICE_TRANSPORT_POLICY=relay) through a local coturn, stopping coturn
 * and starting it again on the same port brings the frames back through an ICE restart.
 *
 * How the journey reads the media: an init script of the journey's own (never part of the app)
 * keeps every RTCPeerConnection the page creates in `window.__journeyPeers`, and `getStats()` of
 * the newest open one gives the inbound video's `framesDecoded` and the audio's `totalAudioEnergy`.
 */

const baseUrl = inject("baseUrl");
const apiUrl = inject("apiUrl");
let browser: Browser;

beforeAll(async () => {
  // Host candidates as plain addresses: Chromium hides them behind mDNS names, which need multicast
  // the test machine may not have (the relay case needs no host candidate).
  browser = await launchBrowser([...FAKE_MEDIA_FLAGS, "--disable-features=WebRtcHideLocalIpsWithMdns"]);
});
afterAll(async () => {
  await browser?.close();
});

function keepPeerConnections(context: BrowserContext) {
  return context.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const peers: RTCPeerConnection[] = [];
    (window as unknown as { __journeyPeers: RTCPeerConnection[] }).__journeyPeers = peers;
    window.RTCPeerConnection = class extends Original {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        peers.push(this);
      }
    } as typeof RTCPeerConnection;
  });
}

type Flow = { frames: number; energy: number; relayed: boolean };

/** The newest open peer connection's inbound media, summed. */
function inboundMedia(page: Page): Promise<Flow | null> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __journeyPeers?: RTCPeerConnection[] }).__journeyPeers ?? [];
    const peer = peers.filter((candidate) => candidate.connectionState !== "closed").at(-1);
    if (!peer) return null;
    const stats = await peer.getStats();
    const flow = { frames: 0, energy: 0, relayed: false };
    const candidates = new Map<string, string>();
    let pairLocal: string | null = null;
    stats.forEach((stat) => {
      if (stat.type === "inbound-rtp" && stat.kind === "video") flow.frames += stat.framesDecoded ?? 0;
      if (stat.type === "inbound-rtp" && stat.kind === "audio") flow.energy += stat.totalAudioEnergy ?? 0;
      if (stat.type === "local-candidate") candidates.set(stat.id, stat.candidateType);
      if (stat.type === "candidate-pair" && stat.nominated && stat.state === "succeeded") {
        pairLocal = stat.localCandidateId;
      }
    });
    flow.relayed = pairLocal !== null && candidates.get(pairLocal) === "relay";
    return flow;
  });
}

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

/** A video visit of the member with the demo clinician's provider, accepted by the clinician. */
async function acceptedVideoVisit(api: string, patient: Account): Promise<string> {
  const id = await requestVisit(api, patient, "video");
  await (await demoClinician(api)).step(id, "accept");
  return id;
}

/** Both sides in their own context: the clinician in the visit's workspace, the patient in its page. */
async function bothSides(site: string, api: string, dataDir: string) {
  const account = newAccount();
  const patientSide = await openPage(browser);
  const clinicianSide = await openPage(browser);
  await keepPeerConnections(patientSide.context);
  await keepPeerConnections(clinicianSide.context);
  const patient = patientSide.page;
  const doctor = clinicianSide.page;
  // The clinician's browser logs in first: a second-factor code is taken once, and the API login
  // that accepts the visit below takes the next one when this one is used.
  await login(doctor, site, DEMO_CLINICIAN, { expectPath: "/login/second-factor" });
  await doctor.getByLabel("Code from your authenticator app").fill(await demoCode(api));
  await doctor.getByRole("button", { name: "Log in", exact: true }).click();
  await waitForPath(doctor, "/console");
  await dismissPopupBeforehand(patientSide.context);
  await signUp(patient, site, account, dataDir);
  await startTrial(patient, site);
  const visitId = await acceptedVideoVisit(api, account);

  await doctor.goto(`${site}/console/visits/${visitId}`);
  await waitForHydration(doctor);
  await patient.goto(`${site}/my-profile/consultations/${visitId}`);
  await waitForHydration(patient);
  return {
    patient,
    doctor,
    visitId,
    close: async () => {
      await patientSide.context.close();
      await clinicianSide.context.close();
    },
  };
}

/** The clinician starts the call; the patient's waiting room rings and the patient joins. */
async function startAndJoin(patient: Page, doctor: Page) {
  await doctor.getByRole("button", { name: "Start video call" }).click();
  await doctor.getByTestId("call-screen").waitFor();
  const ring = patient.getByRole("alert").filter({ hasText: "Your clinician is calling." });
  await ring.waitFor();
  await ring.getByRole("button", { name: "Join the call" }).click();
  await patient.getByTestId("call-screen").waitFor();
}

describe("a video visit, both sides", () => {
  it("rings the waiting room, carries video and sound both ways, and rejoins after the patient's reload", async () => {
    const sides = await bothSides(baseUrl, apiUrl, inject("dataDir"));
    const { patient, doctor } = sides;
    try {
      await startAndJoin(patient, doctor);
      await expectMediaFlowing(patient);
      await expectMediaFlowing(doctor);
      await patient.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
      await doctor.getByTestId("call-status").filter({ hasText: "Connected." }).waitFor();
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

      // The clinician hangs up: the patient is taken to the call-ended page.
      await doctor.getByRole("button", { name: "Leave the call" }).click();
      await waitForPath(patient, "/call-ended");
    } finally {
      await sides.close();
    }
  }, 150_000);
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
      const dataDir = mkdtempSync(join(tmpdir(), "ambercare-relay-"));
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
        sides = await bothSides(stack.webUrl, stack.apiUrl, dataDir);
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
