import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The main API's second-factor calls (served under /api/v1, ADR 024): the patient's own setup
 * (their token), the second login step (no token, like login), and the lost-device link (the shared
 * public bearer, like forgot-password).
 */
export const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const secondFactor = accounts.secondFactor;
  const guards = createAuthGuards(accounts.sessions);
  const routes = apiRoutes.accounts;
  const ownAccount = { onRequest: guards.user };

  serve(app, routes.secondFactorStatus, ownAccount, async (request) => ({
    data: await secondFactor.status(authOf(request)),
  }));

  serve(app, routes.secondFactorSetup, ownAccount, async (request) => ({
    data: await secondFactor.startSetup(authOf(request)),
  }));

  serve(app, routes.secondFactorConfirm, ownAccount, async (request) => {
    const codes = await secondFactor.confirmSetup(authOf(request), request.body.code, request.ip);
    return { data: { recovery_codes: codes } };
  });

  serve(app, routes.secondFactorDisable, ownAccount, async (request) => {
    await secondFactor.disable(authOf(request), request.body, request.ip);
    return { data: { second_factor_disabled: true as const } };
  });

  serve(app, routes.secondFactorRecoveryCodes, ownAccount, async (request) => {
    const codes = await secondFactor.replaceRecoveryCodes(authOf(request), request.body, request.ip);
    return { data: { recovery_codes: codes } };
  });

  serve(app, routes.loginSecondFactor, async (request) =>
    secondFactor.completeLogin(
      { pendingLoginToken: request.body.pending_login_token, code: request.body.code },
      "main",
      request.ip,
    ),
  );

  serve(app, routes.lostDevice, { onRequest: requirePublicBearer }, async (request) => {
    await secondFactor.requestLostDeviceLink(request.body.pending_login_token);
    return { data: { sent: true as const } };
  });

  serve(app, routes.secondFactorReset, { onRequest: requirePublicBearer }, async (request) => {
    await secondFactor.resetWithLink(request.body, request.ip);
    return { data: { second_factor_disabled: true as const } };
  });
};
