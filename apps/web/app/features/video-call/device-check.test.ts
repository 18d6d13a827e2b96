import { describe, expect, it } from "vitest";
import { formatDateTime } from "#app/lib/date-time.ts";
import { createI18n, lookup } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";
import {
  candidateType,
  configuredServers,
  levelOf,
  type ProbeResult,
  probeDetails,
  probeFailure,
  probeVerdict,
  toneWav,
} from "./device-check.ts";

describe("levelOf", () => {
  it("is 0 for silence and rises with loudness, up to 100", () => {
    expect(levelOf(new Uint8Array(512).fill(128))).toBe(0);
    expect(levelOf([])).toBe(0);
    const wave = (amplitude: number) =>
      Uint8Array.from({ length: 512 }, (_, i) => 128 + Math.round(amplitude * Math.sin(i / 5)));
    const quiet = levelOf(wave(4));
    const speech = levelOf(wave(30));
    expect(quiet).toBeGreaterThan(0);
    expect(speech).toBeGreaterThan(quiet);
    expect(levelOf(wave(127))).toBe(100);
  });
});

describe("toneWav", () => {
  it("is a 16-bit mono WAV of the asked length that starts and ends silent", () => {
    const bytes = toneWav(440, 500, 8000);
    const view = new DataView(bytes.buffer);
    const text = (offset: number) => String.fromCharCode(...bytes.slice(offset, offset + 4));
    expect([text(0), text(8), text(12), text(36)]).toEqual(["RIFF", "WAVE", "fmt ", "data"]);
    expect(view.getUint16(22, true)).toBe(1);
    expect(view.getUint32(24, true)).toBe(8000);
    expect(view.getUint32(40, true)).toBe(4000 * 2);
    expect(bytes.length).toBe(44 + 4000 * 2);
    expect(view.getInt16(44, true)).toBe(0);
    expect(view.getInt16(bytes.length - 2, true)).toBe(0);
    const middle = Array.from({ length: 40 }, (_, i) => Math.abs(view.getInt16(44 + (2000 + i) * 2, true)));
    expect(Math.max(...middle)).toBeGreaterThan(10_000);
  });
});

describe("candidateType", () => {
  it("reads the type, or the SDP line when the browser gives no type", () => {
    expect(candidateType({ type: "relay" })).toBe("relay");
    expect(
      candidateType({
        candidate: "candidate:1 1 udp 1686052607 203.0.113.7 51000 typ srflx raddr 10.0.0.2 rport 51000",
      }),
    ).toBe("srflx");
    expect(
      candidateType({ type: null, candidate: "candidate:2 1 udp 2122260223 abc.local 5000 typ host" }),
    ).toBe("host");
    expect(candidateType({ candidate: "" })).toBeNull();
  });
});

describe("configuredServers", () => {
  it("tells STUN from TURN in the call setup's ICE servers", () => {
    expect(configuredServers([])).toEqual({ stunConfigured: false, turnConfigured: false });
    expect(configuredServers([{ urls: ["stun:stun.example.org:3478"] }])).toEqual({
      stunConfigured: true,
      turnConfigured: false,
    });
    expect(configuredServers([{ urls: "turns:turn.example.org:5349?transport=tcp" }])).toEqual({
      stunConfigured: false,
      turnConfigured: true,
    });
  });
});

const result = (found: Partial<ProbeResult>): ProbeResult => ({
  host: false,
  srflx: false,
  relay: false,
  stunConfigured: false,
  turnConfigured: false,
  ...found,
});
const words = (key: string) => lookup(en, key) ?? "";

describe("probeVerdict and probeDetails", () => {
  it("calls a reachable relay good, in plain words", () => {
    const verdict = probeVerdict(result({ host: true, srflx: true, relay: true, turnConfigured: true }));
    expect(verdict).toEqual({ level: "good", summary: "deviceCheck.probe.verdict.relay" });
    expect(words(verdict.summary)).toContain("ready for the call, even on a strict network");
  });

  it("warns when TURN is configured but no relay was reached", () => {
    const verdict = probeVerdict(
      result({ host: true, srflx: true, turnConfigured: true, stunConfigured: true }),
    );
    expect(verdict.level).toBe("fair");
    expect(words(verdict.summary)).toContain("relay server could not be reached");
    expect(probeDetails(result({ host: true, srflx: true, turnConfigured: true }))).toEqual([
      "deviceCheck.probe.local.found",
      "deviceCheck.probe.public.found",
      "deviceCheck.probe.relay.missing",
    ]);
  });

  it("is good with a public address where no relay is configured", () => {
    expect(probeVerdict(result({ host: true, srflx: true, stunConfigured: true })).level).toBe("good");
  });

  it("says a device that reached no server may not connect", () => {
    const verdict = probeVerdict(result({ host: true, stunConfigured: true }));
    expect(verdict).toEqual({ level: "poor", summary: "deviceCheck.probe.verdict.localOnly" });
    expect(probeDetails(result({ host: true, stunConfigured: true }))).toEqual([
      "deviceCheck.probe.local.found",
      "deviceCheck.probe.public.missing",
      "deviceCheck.probe.relay.none",
    ]);
  });

  it("does not blame the network where no server was there to ask", () => {
    const verdict = probeVerdict(result({ host: true }));
    expect(verdict).toEqual({ level: "fair", summary: "deviceCheck.probe.verdict.localNoServers" });
    expect(probeDetails(result({ host: true }))[1]).toBe("deviceCheck.probe.public.notChecked");
  });

  it("says when nothing was found at all", () => {
    expect(probeVerdict(result({ turnConfigured: true }))).toEqual({
      level: "poor",
      summary: "deviceCheck.probe.verdict.none",
    });
    expect(probeDetails(result({}))[0]).toBe("deviceCheck.probe.local.missing");
  });

  it("never shows the candidates' technical names, in either language", () => {
    const outcomes = [
      result({ host: true, srflx: true, relay: true, turnConfigured: true }),
      result({ host: true, srflx: true, turnConfigured: true }),
      result({ host: true, srflx: true, stunConfigured: true }),
      result({ host: true, stunConfigured: true }),
      result({ host: true }),
      result({}),
    ];
    for (const outcome of outcomes) {
      for (const key of [probeVerdict(outcome).summary, ...probeDetails(outcome)]) {
        for (const strings of [en, bg]) {
          const text = lookup(strings, key);
          expect(text, key).toBeTruthy();
          expect(text).not.toMatch(/srflx|host candidate|relay candidate|\bICE\b|STUN|TURN/);
        }
      }
    }
  });
});

describe("probeFailure", () => {
  const refusal = {
    error: "CHECK_IN_NOT_OPEN",
    details: { opens_at: "2027-06-07T16:05:00.000Z", time_zone: "America/Los_Angeles" },
  };

  it("before check-in, says when it opens, in the zone of the clinician's hours, in both languages", () => {
    const failure = probeFailure(409, refusal);
    expect(failure).toEqual({
      reason: "notYet",
      opensAt: "2027-06-07T16:05:00.000Z",
      timeZone: "America/Los_Angeles",
    });
    if (failure.reason !== "notYet" || !failure.opensAt) throw new Error("not a check-in refusal");
    const said = (locale: "en" | "bg") => {
      const { t } = createI18n(locale, { en, bg }[locale]);
      const time = formatDateTime(failure.opensAt, { locale, timeZone: failure.timeZone });
      return t("deviceCheck.probe.failed.notYet", { time });
    };
    expect(said("en")).toContain("Jun 7, 2027, 9:05 AM PDT");
    expect(said("en")).toContain("check-in opens");
    expect(said("bg")).toContain("9:05");
    expect(said("bg")).toContain("регистрацията");
    expect(said("bg")).not.toBe(said("en"));
  });

  it("says it without a time when the answer has none, and keeps the session and other failures", () => {
    expect(probeFailure(409, { error: "CHECK_IN_NOT_OPEN" })).toEqual({
      reason: "notYet",
      opensAt: null,
      timeZone: null,
    });
    expect(probeFailure(409, { error: "CHECK_IN_NOT_OPEN", details: { opens_at: "soon" } })).toMatchObject({
      opensAt: null,
    });
    expect(probeFailure(401, refusal)).toEqual({ reason: "session" });
    expect(probeFailure(409, { error: "CALL_NOT_OPEN" })).toEqual({ reason: "other" });
    expect(probeFailure(404)).toEqual({ reason: "other" });
    for (const locale of [en, bg]) {
      expect(lookup(locale, "deviceCheck.probe.failed.notYetSoon")).toBeTruthy();
      expect(lookup(locale, "deviceCheck.probe.failed.notYet")).toContain("{{time}}");
    }
  });
});
