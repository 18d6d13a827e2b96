import type { LiveService } from "#api/modules/live/live-service.ts";
import type { JobRunner } from "#api/platform/jobs.ts";

const SWEEP_INTERVAL_MS = 15 * 60_000;
/** A page away longer than a day loads afresh instead of replaying. */
export const KEEP_LIVE_EVENTS_MS = 24 * 60 * 60_000;
export const LIVE_SWEEP_JOB = "live.event-sweep";

/**
 * Deletes live events older than a day now and then, so the table holds only what a reconnecting
 * page may still replay: a recurring job (ADR 060). The delete is idempotent.
 */
export function registerLiveSweep(jobs: JobRunner, live: LiveService): void {
  jobs.every(LIVE_SWEEP_JOB, SWEEP_INTERVAL_MS, async ({ now }) => {
    await live.deleteBefore(new Date(now.getTime() - KEEP_LIVE_EVENTS_MS));
  });
}
