import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { serve } from "#api/platform/contract-routes.ts";

/** `GET /api/specialization` on the main API (served at /api/v1/api/specialization). */
export const specializationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.specializations;

  serve(app, apiRoutes.directory.listSpecializations, async (request) => ({
    data: await service.list(request.query.lang),
  }));
};
