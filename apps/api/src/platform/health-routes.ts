import { dataEnvelope, errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "#api/platform/errors.ts";

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
        throw new AppError("DATABASE_UNAVAILABLE", 503, "Database unavailable", { cause });
      }
      return { data: { status: "ok" as const, database: app.db.kind } };
    },
  );
};
