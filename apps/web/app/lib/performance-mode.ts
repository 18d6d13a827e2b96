import { PERFORMANCE_THRESHOLDS } from "@ambercare/contracts/performance";

/**
 * The performance helper (ADR 011): picks the "full" view (hero video, motion) or the
 * "reduced" view (still image, no motion) from what the browser tells us about this device.
 * Pure decision here; `performance-mode.client.ts` gathers the signals in the browser.
 */
export type ViewMode = "full" | "reduced";

export type PerformanceSignals = {
  /** First contentful paint, ms; undefined when the browser does not report it. */
  firstContentfulPaintMs?: number;
  /** DOMContentLoaded end, ms since navigation start. */
  domContentLoadedMs?: number;
  /** Moving average of idle ratios (0–1) over the last samples; see IdleSampler. */
  idleRatio?: number;
  battery?: { charging: boolean; level: number };
  /** Whether a muted inline video could start within the autoplay test timeout. */
  canAutoplayVideo?: boolean;
  prefersReducedMotion?: boolean;
  saveData?: boolean;
};

export type Decision = { mode: ViewMode; reasons: string[] };

const T = PERFORMANCE_THRESHOLDS;

export function decideViewMode(signals: PerformanceSignals): Decision {
  const reasons: string[] = [];
  if (signals.prefersReducedMotion) reasons.push("prefers-reduced-motion");
  if (signals.saveData) reasons.push("save-data");
  if (
    signals.firstContentfulPaintMs !== undefined &&
    signals.firstContentfulPaintMs > T.firstContentfulPaintMs
  ) {
    reasons.push("slow-first-contentful-paint");
  }
  if (signals.domContentLoadedMs !== undefined && signals.domContentLoadedMs > T.domContentLoadedMs) {
    reasons.push("slow-dom-content-loaded");
  }
  // A busy main thread leaves little idle time: below the threshold the device is struggling.
  if (signals.idleRatio !== undefined && signals.idleRatio < T.idleThreshold)
    reasons.push("busy-main-thread");
  if (signals.battery && !signals.battery.charging && signals.battery.level <= T.lowBatteryLevel) {
    reasons.push("low-battery");
  }
  if (signals.canAutoplayVideo === false) reasons.push("no-video-autoplay");
  return { mode: reasons.length === 0 ? "full" : "reduced", reasons };
}

/**
 * Keeps a moving average of idle ratios: each sample is the share of an idle window
 * (PERFORMANCE_THRESHOLDS.idleWindowMs) that the main thread was idle; the average covers the last
 * `movingAverageSamples` samples.
 */
export class IdleSampler {
  private readonly samples: number[] = [];

  constructor(private readonly size: number = T.movingAverageSamples) {}

  add(idleMs: number, windowMs: number = T.idleWindowMs): void {
    const ratio = Math.min(1, Math.max(0, idleMs / windowMs));
    this.samples.push(ratio);
    if (this.samples.length > this.size) this.samples.shift();
  }

  get count(): number {
    return this.samples.length;
  }

  /** undefined until a first sample exists. */
  average(): number | undefined {
    if (this.samples.length === 0) return undefined;
    return this.samples.reduce((sum, s) => sum + s, 0) / this.samples.length;
  }
}
