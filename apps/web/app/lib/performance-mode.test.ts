import { PERFORMANCE_THRESHOLDS as T } from "@ambercare/contracts/performance";
import { describe, expect, it } from "vitest";
import { decideViewMode, IdleSampler } from "#app/lib/performance-mode.ts";

describe("decideViewMode", () => {
  it("chooses the full view when every signal is good or unknown", () => {
    expect(decideViewMode({})).toEqual({ mode: "full", reasons: [] });
  });

  it.each([
    ["firstContentfulPaintMs", T.firstContentfulPaintMs - 1, "full"],
    ["firstContentfulPaintMs", T.firstContentfulPaintMs, "full"],
    ["firstContentfulPaintMs", T.firstContentfulPaintMs + 1, "reduced"],
    ["domContentLoadedMs", T.domContentLoadedMs - 1, "full"],
    ["domContentLoadedMs", T.domContentLoadedMs, "full"],
    ["domContentLoadedMs", T.domContentLoadedMs + 1, "reduced"],
    ["idleRatio", T.idleThreshold - 0.01, "reduced"],
    ["idleRatio", T.idleThreshold, "full"],
    ["idleRatio", T.idleThreshold + 0.01, "full"],
  ] as const)("%s = %s gives the %s view", (signal, value, mode) => {
    expect(decideViewMode({ [signal]: value }).mode).toBe(mode);
  });

  it.each([
    [{ charging: false, level: T.lowBatteryLevel - 0.01 }, "reduced"],
    [{ charging: false, level: T.lowBatteryLevel }, "reduced"],
    [{ charging: false, level: T.lowBatteryLevel + 0.01 }, "full"],
    [{ charging: true, level: 0.05 }, "full"],
  ])("battery %o gives the %s view", (battery, mode) => {
    expect(decideViewMode({ battery }).mode).toBe(mode);
  });

  it("reduces for no autoplay, reduced motion and Save-Data, and says why", () => {
    expect(decideViewMode({ canAutoplayVideo: false })).toEqual({
      mode: "reduced",
      reasons: ["no-video-autoplay"],
    });
    expect(decideViewMode({ canAutoplayVideo: true }).mode).toBe("full");
    expect(decideViewMode({ prefersReducedMotion: true }).reasons).toEqual(["prefers-reduced-motion"]);
    expect(decideViewMode({ saveData: true, firstContentfulPaintMs: 900 }).reasons).toEqual([
      "save-data",
      "slow-first-contentful-paint",
    ]);
  });
});

describe("IdleSampler", () => {
  it("averages the last samples only", () => {
    const sampler = new IdleSampler(3);
    expect(sampler.average()).toBeUndefined();
    sampler.add(1000);
    sampler.add(0);
    expect(sampler.average()).toBe(0.5);
    sampler.add(500);
    sampler.add(500); // pushes the first (1.0) out
    expect(sampler.count).toBe(3);
    expect(sampler.average()).toBeCloseTo((0 + 0.5 + 0.5) / 3);
  });

  it("keeps ratios between 0 and 1 and uses the spec's window of 10 samples by default", () => {
    const sampler = new IdleSampler();
    for (let i = 0; i < 12; i++) sampler.add(T.idleWindowMs * 2);
    expect(sampler.count).toBe(T.movingAverageSamples);
    expect(sampler.average()).toBe(1);
  });
});
