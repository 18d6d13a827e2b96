import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { expectedWaits, reusedExpectedWaits } from "#api/modules/care-team/expected-wait.ts";
import { createProviderRepository } from "#api/modules/directory/provider-repository.ts";
import { createProviderService } from "#api/modules/directory/provider-service.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * `GET /api/provider` on the main API (served at /api/v1/api/provider), public, and the
 * detail view `GET /api/provider/{slug}` for a shareable provider page.
 */
export const providerRoutes: FastifyPluginAsyncZod = async (app) => {
  // Each on-duty provider's wait is read at most every few seconds, whatever the searches.
  const waits = reusedExpectedWaits(
    (ids) => expectedWaits(app.db.db, ids, app.clock.now(), app.config.VISIT_ACCEPT_TIMEOUT * 60_000),
    app.clock,
  );
  const service = createProviderService(
    createProviderRepository(app.db.db),
    app.providerDirectory,
    waits,
    app.scheduling.availability.current,
  );

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

  serve(app, apiRoutes.directory.getProvider, async (request) => ({
    data: await service.get(request.params.slug, request.query.lang),
  }));
};
