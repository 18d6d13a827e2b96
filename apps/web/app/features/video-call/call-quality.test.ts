import { describe, expect, it } from "vitest";
import { qualityBetween, sampleOf } from "#app/features/video-call/call-quality.ts";

const report = (bytes: number, packets: number, lost: number, rtt?: number) => [
  { type: "inbound-rtp", kind: "video", bytesReceived: bytes, packetsReceived: packets, packetsLost: lost },
  { type: "inbound-rtp", kind: "audio", bytesReceived: 1000, packetsReceived: 50, packetsLost: 0 },
  { type: "candidate-pair", nominated: true, state: "succeeded", currentRoundTripTime: rtt },
  { type: "candidate-pair", nominated: false, state: "failed", currentRoundTripTime: 9 },
];

describe("the call's quality indicator", () => {
  it("sums the inbound streams and takes the round trip of the pair in use", () => {
    expect(sampleOf(report(5000, 100, 2, 0.042), 10)).toEqual({
      at: 10,
      bytesReceived: 6000,
      packetsReceived: 150,
      packetsLost: 2,
      roundTripMs: 42,
    });
    expect(sampleOf(report(5000, 100, 2), 10).roundTripMs).toBeNull();
  });

  it("is good with a short round trip and no loss, giving the bitrate received", () => {
    const before = sampleOf(report(0, 0, 0, 0.05), 0);
    const after = sampleOf(report(125_000, 1000, 0, 0.05), 2000);
    expect(qualityBetween(before, after)).toEqual({
      level: "good",
      roundTripMs: 50,
      lossPercent: 0,
      kbps: 500,
    });
  });

  it("is fair from 2 % loss or 300 ms, poor from 8 % or 600 ms or when nothing arrives", () => {
    const before = sampleOf(report(0, 0, 0, 0.05), 0);
    expect(qualityBetween(before, sampleOf(report(9000, 930, 30, 0.05), 1000)).level).toBe("fair");
    expect(qualityBetween(before, sampleOf(report(9000, 900, 0, 0.35), 1000)).level).toBe("fair");
    expect(qualityBetween(before, sampleOf(report(9000, 900, 100, 0.05), 1000))).toMatchObject({
      level: "poor",
      lossPercent: 10,
    });
    expect(qualityBetween(before, sampleOf(report(9000, 900, 0, 0.7), 1000)).level).toBe("poor");
    expect(qualityBetween(before, before).level).toBe("good");
    const frozen = sampleOf(report(0, 0, 0, 0.05), 3000);
    expect(qualityBetween(before, frozen).level).toBe("poor");
  });
});
