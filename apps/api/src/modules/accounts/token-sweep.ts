import type { Database } from "@ambercare/db/client";
import { createSecondFactorRepository } from "#api/modules/accounts/second-factor-repository.ts";
import { createTokenRepository } from "#api/modules/accounts/token-repository.ts";
import type { JobRunner } from "#api/platform/jobs.ts";

const SWEEP_INTERVAL_MS = 15 * 60_000;
/** Dead tokens are kept a day before deletion, for questions about a recent session. */
const KEEP_DEAD_TOKENS_MS = 24 * 60 * 60_000;
export const TOKEN_SWEEP_JOB = "accounts.token-sweep";

/**
 * Deletes expired, revoked and used tokens (and dead pending logins and lost-device links) now and
 * then, so the token tables stay the size of the live sessions: a recurring job (ADR 060). The
 * delete is idempotent.
 */
export function registerTokenSweep(jobs: JobRunner, db: Database): void {
  const tokens = createTokenRepository(db);
  const secondFactor = createSecondFactorRepository(db);
  jobs.every(TOKEN_SWEEP_JOB, SWEEP_INTERVAL_MS, async ({ now }) => {
    const before = new Date(now.getTime() - KEEP_DEAD_TOKENS_MS);
    await Promise.all([tokens.deleteStale(before), secondFactor.deleteStale(before)]);
  });
}
