import { apiRoutes } from "@ambercare/contracts/api-routes";
import { SIGN_UP_MAIL_SENT } from "@ambercare/contracts/auth";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The care API's `/auth/…` calls (mounted under /auth): login takes the shared public bearer;
 * register, confirm-email and the two reset calls take the service account's token (the web server makes them
 * for a visitor who is not logged in); change-password takes the patient's own token.
 */
export const careAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const guards = createAuthGuards(accounts.sessions);
  const routes = apiRoutes.accounts;

  serve(app, routes.careLogin, { onRequest: requirePublicBearer }, async (request) =>
    accounts.login(request.body, "care", request.ip),
  );

  serve(app, routes.careLoginCompanion, { onRequest: requirePublicBearer }, async (request) =>
    accounts.companionLogin(request.body.main_access_token),
  );

  serve(app, routes.careLoginSecondFactor, { onRequest: requirePublicBearer }, async (request) =>
    accounts.secondFactor.completeLogin(
      { pendingLoginToken: request.body.pending_login_token, code: request.body.code },
      "care",
      request.ip,
    ),
  );

  serve(app, routes.careRegister, { onRequest: guards.service }, async (request, reply) => {
    await accounts.register(request.body);
    return reply.code(202).send({ data: { message: SIGN_UP_MAIL_SENT } });
  });

  serve(app, routes.confirmEmail, { onRequest: guards.service }, async (request) => ({
    data: await accounts.confirmEmail(request.body.token),
  }));

  serve(app, routes.requestPasswordReset, { onRequest: guards.service }, async (request) => {
    await accounts.requestPasswordReset(request.body.email);
    return { data: { sent: true as const } };
  });

  serve(app, routes.resetPassword, { onRequest: guards.service }, async (request) => {
    await accounts.resetPassword(request.body);
    return { data: { password_changed: true as const } };
  });

  serve(app, routes.changePassword, { onRequest: guards.user }, async (request) => {
    await accounts.changePassword(authOf(request), request.body, request.ip);
    return { data: { password_changed: true as const } };
  });
};
