import { dataEnvelope, errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { databaseUnavailable } from "#api/platform/error-handler.ts";

const healthResponse = dataEnvelope(
  z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }),
);

/** Liveness and readiness for load balancers and `npm start`: 200 only when the database answers. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/healthz",
    {
      // Probes must never be throttled into looking unhealthy, nor flood the logs every few seconds.
      config: { rateLimit: false },
      logLevel: "warn",
      schema: {
        summary: "Health of the API and its database",
        response: { 200: healthResponse, 503: errorEnvelope },
      },
    },
    async () => {
      try {
        await app.db.ping();
      } catch (cause) {
        // Whatever the ping's failure, a database that does not answer is not ready to serve.
        throw databaseUnavailable(cause);
      }
      return { data: { status: "ok" as const, database: app.db.kind } };
    },
  );
};
