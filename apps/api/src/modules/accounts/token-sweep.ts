import type { Database } from "@ambercare/db/client";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { createSecondFactorRepository } from "#api/modules/accounts/second-factor-repository.ts";
import { createTokenRepository } from "#api/modules/accounts/token-repository.ts";
import type { Clock } from "#api/platform/clock.ts";

const SWEEP_INTERVAL_MS = 15 * 60_000;
/** Dead tokens are kept a day before deletion, for questions about a recent session. */
const KEEP_DEAD_TOKENS_MS = 24 * 60 * 60_000;

/**
 * Deletes expired, revoked and used tokens (and dead pending logins and lost-device links) now and
 * then, so the token tables stay the size of the live sessions. Every instance may sweep: the
 * delete is idempotent.
 */
export const tokenSweepPlugin = fp(
  async (app: FastifyInstance, { db, clock }: { db: Database; clock: Clock }) => {
    const tokens = createTokenRepository(db);
    const secondFactor = createSecondFactorRepository(db);
    const sweep = setInterval(() => {
      const before = new Date(clock.now().getTime() - KEEP_DEAD_TOKENS_MS);
      Promise.all([tokens.deleteStale(before), secondFactor.deleteStale(before)]).then(
        () => undefined,
        (error: unknown) => app.log.warn({ err: error }, "token sweep failed"),
      );
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));
  },
  { name: "ambercare-token-sweep" },
);
