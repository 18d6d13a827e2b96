import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * Washington My Health My Data rights (ADR 016, mounted under /{PRODUCT_SLUG}): each call takes the
 * patient's own token and works on that patient only; the service account gets 403.
 */
export const careMyDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { myData } = app;
  const guards = createAuthGuards(app.accounts.sessions);
  const routes = apiRoutes.myData;

  serve(
    app,
    routes.export,
    { onRequest: guards.patient, config: { audit: { action: "export.download", resource: "export" } } },
    async (request, reply) => {
      void reply.header("cache-control", "no-store");
      return { data: await myData.export(authOf(request)) };
    },
  );

  serve(
    app,
    routes.getConsents,
    { onRequest: guards.patient, config: { audit: { action: "consent.read", resource: "consent" } } },
    async (request) => ({ data: await myData.consents(authOf(request)) }),
  );

  serve(
    app,
    routes.setConsents,
    { onRequest: guards.patient, config: { audit: { action: "consent.update", resource: "consent" } } },
    async (request) => ({ data: await myData.recordConsents(authOf(request), request.body) }),
  );

  serve(app, routes.delete, { onRequest: guards.patient }, async (request) => ({
    data: await myData.delete(authOf(request), request.body.password, request.ip),
  }));
};
