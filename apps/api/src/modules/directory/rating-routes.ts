import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The care API's `POST /{product}/submit-rating`: the patient's own token, for a completed
 * consultation of that patient, once per consultation.
 */
export const careRatingRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const ratings = app.ratings;

  serve(app, apiRoutes.directory.submitRating, { onRequest: guards.patient }, async (request, reply) => {
    const data = await ratings.submit(authOf(request), request.body);
    return reply.code(201).send({ data });
  });
};
