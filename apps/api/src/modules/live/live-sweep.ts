import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { LiveService } from "#api/modules/live/live-service.ts";
import type { Clock } from "#api/platform/clock.ts";

const SWEEP_INTERVAL_MS = 15 * 60_000;
/** A page away longer than a day loads afresh instead of replaying. */
export const KEEP_LIVE_EVENTS_MS = 24 * 60 * 60_000;

/**
 * Deletes live events older than a day now and then, so the table holds only what a reconnecting
 * page may still replay. Every instance may sweep: the delete is idempotent.
 */
export const liveSweepPlugin = fp(
  async (app: FastifyInstance, { live, clock }: { live: LiveService; clock: Clock }) => {
    const sweep = setInterval(() => {
      const before = new Date(clock.now().getTime() - KEEP_LIVE_EVENTS_MS);
      live
        .deleteBefore(before)
        .catch((error: unknown) => app.log.warn({ err: error }, "live event sweep failed"));
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));
  },
  { name: "ambercare-live-sweep" },
);
