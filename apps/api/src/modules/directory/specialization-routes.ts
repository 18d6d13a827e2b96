import { errorEnvelope } from "@ambercare/contracts/envelope";
import { specializationListQuery, specializationListResponse } from "@ambercare/contracts/specialization";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createSpecializationRepository } from "#api/modules/directory/specialization-repository.ts";
import { createSpecializationService } from "#api/modules/directory/specialization-service.ts";

/** `GET /api/specialization` on the main API (served at /api/v1/api/specialization). */
export const specializationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createSpecializationService(createSpecializationRepository(app.db.db));

  app.get(
    "/api/specialization",
    {
      schema: {
        tags: ["main"],
        summary: "List specializations with the conditions each covers",
        querystring: specializationListQuery,
        response: {
          200: specializationListResponse,
          400: errorEnvelope,
          429: errorEnvelope,
          500: errorEnvelope,
        },
      },
    },
    async (request) => ({ data: await service.list(request.query.lang) }),
  );
};
