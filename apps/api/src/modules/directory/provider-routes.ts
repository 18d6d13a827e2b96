import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * `GET /api/provider` on the main API (served at /api/v1/api/provider), public, and the
 * detail view `GET /api/provider/{slug}` for a shareable provider page.
 */
export const providerRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.providers;

  serve(
    app,
    apiRoutes.directory.searchProviders,
    {
      // The busiest public call: checking each answer against the schema cost more than the search
      // itself (ADR 019). The service builds every field explicitly from typed rows, and the tests
      // parse its answers with the same schema.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request) => service.search(request.query),
  );

  serve(
    app,
    apiRoutes.directory.getProvider,
    // The same for a provider's page: the answer is built field by field from the same typed copy,
    // and the tests parse it with the contract's schema.
    { serializerCompiler: () => (data) => JSON.stringify(data) },
    async (request) => ({
      data: await service.get(request.params.slug, request.query.lang),
    }),
  );
};
