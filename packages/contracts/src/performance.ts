/** Thresholds of the performance helper that picks the full or the reduced view (ADR 011). */
export const PERFORMANCE_THRESHOLDS = Object.freeze({
  firstContentfulPaintMs: 500,
  domContentLoadedMs: 800,
  idleWindowMs: 1000,
  idleThreshold: 0.65,
  movingAverageSamples: 10,
  lowBatteryLevel: 0.2,
  videoAutoplayTimeoutMs: 500,
});
