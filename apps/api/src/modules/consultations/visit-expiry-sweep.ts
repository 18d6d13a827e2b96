import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { VisitService } from "#api/modules/consultations/visit-service.ts";

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Expires the consultation requests no clinician accepted in time and gives their money back,
 * every minute. Every instance may run it: each expiry is one conditional update (a request is
 * expired once), and a refund carries the same idempotency key each time.
 */
export const visitExpirySweepPlugin = fp(
  async (app: FastifyInstance, { visits }: { visits: VisitService }) => {
    const sweep = setInterval(() => {
      visits.runDue().then(
        () => undefined,
        (error: unknown) => app.log.warn({ err: error }, "visit expiry sweep failed"),
      );
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));
  },
  { name: "ambercare-visit-expiry-sweep" },
);
