import type { Refusal } from "#app/lib/data-cache.ts";
import type { TranslationKey } from "#app/lib/i18n.tsx";

/**
 * The parts of the pre-call device check that need no browser: the level a microphone's samples
 * show, the test tone's sound file, and what the connectivity probe's candidates mean in words.
 */

/**
 * The microphone's loudness from an AnalyserNode's time-domain bytes (128 is silence), 0–100.
 * The root mean square, scaled so that ordinary speech fills most of the bar.
 */
export function levelOf(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const centred = ((samples[i] ?? 128) - 128) / 128;
    sum += centred * centred;
  }
  const rms = Math.sqrt(sum / samples.length);
  return Math.min(100, Math.round(rms * 400));
}

/**
 * A short sine tone as a WAV file (16-bit mono), faded in and out so it does not click. An audio
 * element plays it, so a browser with `setSinkId` can send it to the chosen speaker.
 */
export function toneWav(frequency = 660, durationMs = 800, sampleRate = 16_000): Uint8Array<ArrayBuffer> {
  const count = Math.round((sampleRate * durationMs) / 1000);
  const bytes = new Uint8Array(44 + count * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + count * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true); // the format chunk's size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes a second
  view.setUint16(32, 2, true); // bytes a sample
  view.setUint16(34, 16, true); // bits a sample
  text(36, "data");
  view.setUint32(40, count * 2, true);
  const fade = Math.min(count / 2, sampleRate * 0.05);
  for (let i = 0; i < count; i++) {
    const envelope = Math.min(1, i / fade, (count - 1 - i) / fade);
    const value = Math.sin((2 * Math.PI * frequency * i) / sampleRate) * envelope * 0.5;
    view.setInt16(44 + i * 2, Math.round(value * 32_767), true);
  }
  return bytes;
}

export type CandidateType = "host" | "srflx" | "prflx" | "relay";

/** The type of a gathered ICE candidate, from its `type` or its SDP line (`… typ srflx …`). */
export function candidateType(candidate: { type?: string | null; candidate?: string }): CandidateType | null {
  const type = candidate.type ?? /\btyp (host|srflx|prflx|relay)\b/.exec(candidate.candidate ?? "")?.[1];
  return type === "host" || type === "srflx" || type === "prflx" || type === "relay" ? type : null;
}

/** What the probe found: the kinds of path gathered, and which servers it was given. */
export type ProbeResult = {
  host: boolean;
  /** A public address seen by a STUN or TURN server (srflx; prflx counts too). */
  srflx: boolean;
  relay: boolean;
  stunConfigured: boolean;
  turnConfigured: boolean;
};

export type ProbeVerdict = {
  /** good: the call will connect; fair: it should, but not through every network; poor: it may not. */
  level: "good" | "fair" | "poor";
  summary: TranslationKey;
};

/** The probe's result in plain words (no "srflx"): how likely the call is to connect from here. */
export function probeVerdict(result: ProbeResult): ProbeVerdict {
  if (result.relay) return { level: "good", summary: "deviceCheck.probe.verdict.relay" };
  if (result.srflx) {
    return result.turnConfigured
      ? { level: "fair", summary: "deviceCheck.probe.verdict.publicNoRelay" }
      : { level: "good", summary: "deviceCheck.probe.verdict.public" };
  }
  if (result.host) {
    return result.stunConfigured || result.turnConfigured
      ? { level: "poor", summary: "deviceCheck.probe.verdict.localOnly" }
      : { level: "fair", summary: "deviceCheck.probe.verdict.localNoServers" };
  }
  return { level: "poor", summary: "deviceCheck.probe.verdict.none" };
}

/** One line for each kind of path: found, not found, or not looked for (no server to ask). */
export function probeDetails(result: ProbeResult): TranslationKey[] {
  const anyServer = result.stunConfigured || result.turnConfigured;
  return [
    result.host ? "deviceCheck.probe.local.found" : "deviceCheck.probe.local.missing",
    result.srflx
      ? "deviceCheck.probe.public.found"
      : anyServer
        ? "deviceCheck.probe.public.missing"
        : "deviceCheck.probe.public.notChecked",
    result.relay
      ? "deviceCheck.probe.relay.found"
      : result.turnConfigured
        ? "deviceCheck.probe.relay.missing"
        : "deviceCheck.probe.relay.none",
  ];
}

/** Which servers the call setup names: STUN only, or TURN (which also finds the public address). */
export function configuredServers(servers: readonly { urls: string | readonly string[] }[]): {
  stunConfigured: boolean;
  turnConfigured: boolean;
} {
  const urls = servers.flatMap((server) => (typeof server.urls === "string" ? [server.urls] : server.urls));
  return {
    stunConfigured: urls.some((url) => url.startsWith("stun")),
    turnConfigured: urls.some((url) => url.startsWith("turn")),
  };
}

/**
 * Why the connection test could not run, from the call set-up's answer: the session ended (401),
 * check-in has not opened yet (409 CHECK_IN_NOT_OPEN, with when it opens as the API says, and for a
 * clinician the zone of their hours), or anything else.
 */
export type ProbeFailure =
  | { reason: "session" | "unsupported" | "other" }
  | { reason: "notYet"; opensAt: string | null; timeZone: string | null };

export function probeFailure(status: number, refusal?: Refusal): ProbeFailure {
  if (status === 401) return { reason: "session" };
  if (status !== 409 || refusal?.error !== "CHECK_IN_NOT_OPEN") return { reason: "other" };
  const opensAt = refusal.details?.opens_at;
  const timeZone = refusal.details?.time_zone;
  return {
    reason: "notYet",
    opensAt: typeof opensAt === "string" && !Number.isNaN(Date.parse(opensAt)) ? opensAt : null,
    timeZone: typeof timeZone === "string" ? timeZone : null,
  };
}
