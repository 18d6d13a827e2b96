// Loaded into an API process by bench/live (`node --import ./live-probe.mjs`): what the process
// itself can say about a run, written as JSON to LIVE_PROBE_FILE on SIGUSR2 (and the counters reset):
// the event loop's delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution or
// LIVE_PROBE_RESOLUTION_MS: each sample is a timer of its own, so at 10 ms the probe alone costs
// about 0.7 % of a core, which the idle sockets' figures must not count), its garbage
// collections (count, total and longest pause, by kind) and its memory. Nothing of the product's
// code changes; the signal is the benchmark's only way in.
import { writeFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const file = process.env.LIVE_PROBE_FILE;
if (file) {
  const resolution = Number(process.env.LIVE_PROBE_RESOLUTION_MS ?? "10");
  const delay = monitorEventLoopDelay({ resolution });
  delay.enable();
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
  };
  let gc = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind] ?? "other";
      const seen = gc[kind] ?? { count: 0, totalMs: 0, maxMs: 0 };
      gc[kind] = seen;
      seen.count += 1;
      seen.totalMs += entry.duration;
      seen.maxMs = Math.max(seen.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ["gc"] });
  const ms = (ns) => ns / 1e6;
  process.on("SIGUSR2", () => {
    const memory = process.memoryUsage();
    writeFileSync(
      file,
      JSON.stringify({
        loopDelay: {
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
          mean: ms(delay.mean),
        },
        gc,
        memory: { rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external },
        cpu: process.cpuUsage(),
      }),
    );
    delay.reset();
    gc = {};
  });
}
