import type { Browser, BrowserContext, Page } from "playwright-core";
import { waitForHydration } from "./account-steps.ts";
import { FAKE_MEDIA_FLAGS, openPage } from "./browser-contexts.ts";
import { dismissPopupBeforehand } from "./checkout-helpers.ts";
import {
  type ClinicianAccount,
  careTeamSteps,
  clinicianSession,
  demoClinician,
  requestVisit,
} from "./clinician-helpers.ts";
import { signUpPatient, startTrialSession } from "./session-fixtures.ts";

/**
 * The two sides of a video visit in their own browser contexts, for the video journey and the call
 * timing of bench/live, free of the test runner.
 *
 * How the media is read: an init script of the journey's own (never part of the app) keeps every
 * RTCPeerConnection the page creates in `window.__journeyPeers`, and `getStats()` of the newest open
 * one gives the inbound video's `framesDecoded` and the audio's `totalAudioEnergy`.
 */

/**
 * Chromium's flags for a call: the fake camera and microphone, and host candidates as plain
 * addresses (Chromium hides them behind mDNS names, which need multicast the test machine may not
 * have; a call through a relay needs no host candidate).
 */
export const VIDEO_CALL_BROWSER_FLAGS = Object.freeze([
  ...FAKE_MEDIA_FLAGS,
  "--disable-features=WebRtcHideLocalIpsWithMdns",
]);

export function keepPeerConnections(context: BrowserContext) {
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

export type Flow = { frames: number; energy: number; relayed: boolean };

/** The newest open peer connection's inbound media, summed. */
export function inboundMedia(page: Page): Promise<Flow | null> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __journeyPeers?: RTCPeerConnection[] }).__journeyPeers ?? [];
    const peer = peers.filter((candidate) => candidate.connectionState !== "closed").at(-1);
    if (!peer) return null;
    const stats = await peer.getStats();
    const flow = { frames: 0, energy: 0, relayed: false };
    const candidates = new Map<string, string>();
    const pairs = new Map<string, string>();
    // The pair the media uses is the transport's selected one: a pair's `nominated` and `state` are
    // the ICE checks' view, which for a moment may name no pair while media already flows.
    let selectedPair: string | null = null;
    stats.forEach((stat) => {
      if (stat.type === "inbound-rtp" && stat.kind === "video") flow.frames += stat.framesDecoded ?? 0;
      if (stat.type === "inbound-rtp" && stat.kind === "audio") flow.energy += stat.totalAudioEnergy ?? 0;
      if (stat.type === "local-candidate") candidates.set(stat.id, stat.candidateType);
      if (stat.type === "candidate-pair") pairs.set(stat.id, stat.localCandidateId);
      if (stat.type === "transport" && stat.selectedCandidatePairId)
        selectedPair = stat.selectedCandidatePairId;
    });
    const local = selectedPair === null ? undefined : pairs.get(selectedPair);
    flow.relayed = local !== undefined && candidates.get(local) === "relay";
    return flow;
  });
}

/**
 * When (Date.now() in the page) the first frame of the other side's video was decoded: polled in
 * the page every `intervalMs`, so it resolves within that much of the frame. Call it before the call
 * starts; it rejects after `timeoutMs` without a frame.
 */
export function firstRemoteFrameAt(
  page: Page,
  { intervalMs = 20, timeoutMs = 60_000 } = {},
): Promise<number> {
  return page.evaluate(
    async ({ intervalMs, timeoutMs }) => {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const peers = (window as unknown as { __journeyPeers?: RTCPeerConnection[] }).__journeyPeers ?? [];
        for (const peer of peers.filter((candidate) => candidate.connectionState !== "closed")) {
          let frames = 0;
          (await peer.getStats()).forEach((stat) => {
            if (stat.type === "inbound-rtp" && stat.kind === "video") frames += stat.framesDecoded ?? 0;
          });
          if (frames > 0) return Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
      throw new Error(`no video frame of the other side decoded within ${timeoutMs} ms`);
    },
    { intervalMs, timeoutMs },
  );
}

/**
 * Both sides logged in, each in its own context: the clinician (the demo clinician unless given)
 * in the console, its session's token for the care-team steps, and a new member with a trial as
 * the patient. Both sessions are started by the session fixtures (session-fixtures.ts,
 * clinician-helpers.ts): the login forms are other journeys' subject.
 */
export async function signedInSides(
  browser: Browser,
  site: string,
  api: string,
  dataDir: string,
  doctorAccount: ClinicianAccount = demoClinician(api),
) {
  const patientSide = await openPage(browser);
  const clinicianSide = await openPage(browser);
  await keepPeerConnections(patientSide.context);
  await keepPeerConnections(clinicianSide.context);
  const patient = patientSide.page;
  const doctor = clinicianSide.page;
  const token = await clinicianSession(clinicianSide.context, site, doctorAccount);
  await doctor.goto(`${site}/console`);
  await dismissPopupBeforehand(patientSide.context);
  const account = await signUpPatient(patientSide.context, { baseUrl: site, apiUrl: api, dataDir });
  await startTrialSession(patientSide.context, site);
  const clinician = careTeamSteps(api, token);
  return {
    patient,
    doctor,
    account,
    doctorAccount,
    clinician,
    close: async () => {
      await patientSide.context.close();
      await clinicianSide.context.close();
    },
  };
}

export type Sides = Awaited<ReturnType<typeof signedInSides>>;

/**
 * A video visit the patient requests with the clinician's provider and the clinician accepts;
 * the clinician's page is its workspace, the patient's its visit page. Returns its id.
 */
export async function openVideoVisit(sides: Sides, site: string, api: string): Promise<string> {
  const visitId = await requestVisit(api, sides.account, "video", sides.doctorAccount);
  await sides.clinician.step(visitId, "accept");
  await sides.doctor.goto(`${site}/console/visits/${visitId}`);
  await waitForHydration(sides.doctor);
  await sides.patient.goto(`${site}/my-profile/consultations/${visitId}`);
  await waitForHydration(sides.patient);
  return visitId;
}

/** Both sides (signedInSides) in one accepted video visit (openVideoVisit). */
export async function bothSides(
  browser: Browser,
  site: string,
  api: string,
  dataDir: string,
  doctorAccount?: ClinicianAccount,
) {
  const sides = await signedInSides(browser, site, api, dataDir, doctorAccount);
  const visitId = await openVideoVisit(sides, site, api);
  return { ...sides, visitId };
}

/** The clinician starts the call; the patient's waiting room rings and the patient joins. */
export async function startAndJoin(patient: Page, doctor: Page) {
  await doctor.getByRole("button", { name: "Start video call" }).click();
  await doctor.getByTestId("call-screen").waitFor();
  const ring = patient.getByRole("alert").filter({ hasText: "Your clinician is calling." });
  await ring.waitFor();
  await ring.getByRole("button", { name: "Join the call" }).click();
  await patient.getByTestId("call-screen").waitFor();
}
