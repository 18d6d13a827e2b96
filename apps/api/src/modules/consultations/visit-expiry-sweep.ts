import type { VisitService } from "#api/modules/consultations/visit-service.ts";
import type { JobRunner } from "#api/platform/jobs.ts";

const SWEEP_INTERVAL_MS = 60_000;
export const VISIT_EXPIRY_JOB = "consultations.visit-expiry";

/**
 * Expires the consultation requests no clinician accepted in time and gives their money back,
 * every minute: a recurring job (ADR 060), run by one API process each time. Running it twice
 * would do no harm either: each expiry is one conditional update (a request is expired once), and
 * a refund carries the same idempotency key each time.
 */
export function registerVisitExpirySweep(jobs: JobRunner, visits: VisitService): void {
  jobs.every(VISIT_EXPIRY_JOB, SWEEP_INTERVAL_MS, async () => {
    await visits.runDue();
  });
}
