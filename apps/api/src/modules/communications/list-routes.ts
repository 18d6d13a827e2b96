import { apiRoutes } from "@ambercare/contracts/api-routes";
import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { SUBSCRIBE_LIMIT } from "#api/modules/communications/communication-limits.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The main API's `POST /api/sendgrid/add-to-contacts` (the shared public bearer) and the RFC 8058
 * one-click unsubscribe URL that every marketing e-mail names in its List-Unsubscribe header.
 */
export const listRoutes: FastifyPluginAsyncZod = async (app) => {
  const { captcha, lists, limitSends } = app.communications;

  serve(
    app,
    apiRoutes.communications.addToContacts,
    { onRequest: requirePublicBearer },
    async (request, reply) => {
      await captcha.verify(request.body.captcha, CAPTCHA_ACTIONS.subscribe, request.ip);
      await limitSends("subscribe", SUBSCRIBE_LIMIT, { email: request.body.email, ip: request.ip });
      await lists.add(request.body.email, request.body.locale ?? "en");
      return reply.code(202).send({ data: { status: "confirmation_sent" as const } });
    },
  );

  await app.register(async (scope) => {
    const oneClick = scope.withTypeProvider<ZodTypeProvider>();
    // Mail clients post `List-Unsubscribe=One-Click` as a form (RFC 8058); the token in the URL is
    // all that matters, so any body is accepted and ignored.
    oneClick.removeAllContentTypeParsers();
    oneClick.addContentTypeParser("*", { parseAs: "string", bodyLimit: 4096 }, (_request, _body, done) =>
      done(null, undefined),
    );
    serve(oneClick, apiRoutes.communications.oneClickUnsubscribe, async (request) => {
      await lists.oneClickUnsubscribe(request.query.token);
      return { data: { status: "unsubscribed" as const } };
    });
  });
};
