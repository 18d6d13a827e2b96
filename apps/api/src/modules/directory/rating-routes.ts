import { errorEnvelope } from "@ambercare/contracts/envelope";
import { ratingResponse, submitRatingRequest } from "@ambercare/contracts/provider";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { createRatingService } from "#api/modules/directory/rating-service.ts";

/**
 * The care API's `POST /{product}/submit-rating`: the patient's own token, for a completed
 * consultation of that patient, once per consultation.
 */
export const careRatingRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const ratings = createRatingService({
    db: app.db.db,
    clock: app.clock,
    onProviderChanged: () => app.providerDirectory.invalidate(),
  });

  app.post(
    "/submit-rating",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Rate a completed consultation (1–5 stars, optional comment), once",
        security: [{ bearerAuth: [] }],
        body: submitRatingRequest,
        response: {
          201: ratingResponse,
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
          404: errorEnvelope,
          409: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const data = await ratings.submit(authOf(request), request.body);
      return reply.code(201).send({ data });
    },
  );
};
