import type { MembershipService } from "#api/modules/membership/membership-service.ts";
import type { JobRunner } from "#api/platform/jobs.ts";

/** How often due renewals, retries and endings are looked for. */
const RENEWAL_INTERVAL_MS = 60_000;
export const RENEWAL_JOB = "membership.renewals";

/**
 * Renews the memberships that are due, retries failed charges and ends what was canceled, every
 * minute: a recurring job (ADR 060). Each renewal is locked on its own row as well.
 */
export function registerRenewalSweep(jobs: JobRunner, membership: MembershipService): void {
  jobs.every(RENEWAL_JOB, RENEWAL_INTERVAL_MS, async () => {
    await membership.runDue();
  });
}
