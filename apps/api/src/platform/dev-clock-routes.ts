import { advanceClockRequest, clockResponse } from "@ambercare/contracts/membership";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AdvanceableClock } from "#api/platform/clock.ts";

/**
 * Outside production only (app.ts does not register it there): the test clock. Advancing it runs
 * the renewals, retries and endings that became due, and the expiry of consultation requests no
 * clinician accepted in time (with their refunds), so a tester sees them at once. Access tokens
 * expire by the same clock: after a jump past 5 hours the patient logs in again.
 */
export const devClockRoutes: FastifyPluginAsyncZod<{ clock: AdvanceableClock }> = async (app, { clock }) => {
  app.get(
    "/dev/clock",
    { schema: { tags: ["dev"], summary: "The API's current time", response: { 200: clockResponse } } },
    async () => ({ data: { now: clock.now().toISOString() } }),
  );

  app.post(
    "/dev/clock/advance",
    {
      schema: {
        tags: ["dev"],
        summary: "Move the API's clock forward, then run due renewals, endings and visit expiries",
        body: advanceClockRequest,
        response: { 200: clockResponse },
      },
    },
    async (request) => {
      clock.advance(request.body.seconds * 1000);
      await app.membership.runDue();
      await app.visits.runDue();
      return { data: { now: clock.now().toISOString() } };
    },
  );
};
