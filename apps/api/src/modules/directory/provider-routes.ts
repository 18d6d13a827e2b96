import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { serialized, serve } from "#api/platform/contract-routes.ts";

const JSON_UTF8 = "application/json; charset=utf-8";

/**
 * `GET /api/provider` on the main API (served at /api/v1/api/provider), public, and the
 * detail view `GET /api/provider/{slug}` for a shareable provider page.
 */
export const providerRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.providers;

  // The busiest public calls send the JSON the service put together from parts it serialised once
  // per provider and language (ADR 019 and its amendment): building each answer's object, checking it
  // against the schema and serialising it whole cost more than the search itself. The service builds
  // every field from typed rows, and the tests parse its answers with the contract's schemas.
  serve(app, apiRoutes.directory.searchProviders, {}, async (request, reply) =>
    reply.type(JSON_UTF8).send(serialized(await service.searchAnswer(request.query))),
  );

  serve(app, apiRoutes.directory.getProvider, {}, async (request, reply) =>
    reply.type(JSON_UTF8).send(serialized(await service.pageAnswer(request.params.slug, request.query.lang))),
  );
};
