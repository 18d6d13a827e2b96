import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The care API's calls on the patient's own account (mounted under /{PRODUCT_SLUG}): every call takes the
 * patient's token and works only on that patient's user id (403 otherwise, for the service
 * account too).
 */
export const careAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const guards = createAuthGuards(accounts.sessions);
  const routes = apiRoutes.accounts;
  const profileUpdate = { audit: { action: "profile.update", resource: "profile" } } as const;

  serve(
    app,
    routes.getUserDetails,
    { onRequest: guards.user, config: { audit: { action: "profile.read", resource: "profile" } } },
    async (request) => ({ data: await accounts.getUser(authOf(request), request.params.userId) }),
  );

  serve(app, routes.updateUser, { onRequest: guards.patient, config: profileUpdate }, async (request) => ({
    data: await accounts.updateUser(authOf(request), request.body),
  }));

  serve(
    app,
    routes.completeProfile,
    { onRequest: guards.patient, config: profileUpdate },
    async (request) => ({
      data: await accounts.completeProfile(authOf(request), request.body),
    }),
  );
};
