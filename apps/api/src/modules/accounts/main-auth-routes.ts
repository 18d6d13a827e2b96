import { apiRoutes } from "@ambercare/contracts/api-routes";
import { SIGN_UP_MAIL_SENT } from "@ambercare/contracts/auth";
import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The main API's auth calls (served under /api/v1): register, login, me, logout, forgot-password.
 * Register creates no session: the link in the e-mail does (care API `confirm-email`, ADR 032).
 * Register and login need no token; me and logout take a user's token; forgot-password takes the
 * shared public bearer (ADR 003). Register and forgot-password also need a solved captcha (ADR 016).
 */
export const mainAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const guards = createAuthGuards(accounts.sessions);
  const routes = apiRoutes.accounts;

  serve(app, routes.register, async (request, reply) => {
    const { captcha, ...registration } = request.body;
    await app.communications.captcha.verify(captcha, CAPTCHA_ACTIONS.register, request.ip);
    await accounts.register(registration);
    return reply.code(202).send({ data: { message: SIGN_UP_MAIL_SENT } });
  });

  serve(app, routes.login, async (request) => accounts.login(request.body, "main", request.ip));

  serve(
    app,
    routes.me,
    { onRequest: guards.user, config: { audit: { action: "profile.read", resource: "profile" } } },
    async (request) => ({ data: await accounts.me(authOf(request)) }),
  );

  serve(app, routes.logout, { onRequest: guards.user }, async (request) => {
    await accounts.logout(authOf(request));
    return { data: { logged_out: true as const } };
  });

  serve(app, routes.forgotPassword, { onRequest: requirePublicBearer }, async (request) => {
    await app.communications.captcha.verify(request.body.captcha, CAPTCHA_ACTIONS.forgotPassword, request.ip);
    await accounts.requestPasswordReset(request.body.email);
    return { data: { sent: true as const } };
  });
};
