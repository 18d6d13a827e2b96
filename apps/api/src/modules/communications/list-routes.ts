import {
  addToContactsRequest,
  addToContactsResponse,
  CAPTCHA_ACTIONS,
  listUnsubscribeQuery,
  oneClickUnsubscribeResponse,
} from "@ambercare/contracts/communications";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { SUBSCRIBE_LIMIT } from "#api/modules/communications/communication-limits.ts";

const bearer = [{ bearerAuth: [] }];

/**
 * The main API's `POST /api/sendgrid/add-to-contacts` (the shared public bearer) and the RFC 8058
 * one-click unsubscribe URL that every marketing e-mail names in its List-Unsubscribe header.
 */
export const listRoutes: FastifyPluginAsyncZod = async (app) => {
  const { captcha, lists, limitSends } = app.communications;

  app.post(
    "/api/sendgrid/add-to-contacts",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["main"],
        summary: "Sign an address up for the newsletter (double opt-in: a confirmation e-mail is sent)",
        security: bearer,
        body: addToContactsRequest,
        response: { 202: addToContactsResponse, 400: errorEnvelope, 401: errorEnvelope, 429: errorEnvelope },
      },
    },
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
    oneClick.post(
      "/api/list-unsubscribe",
      {
        schema: {
          tags: ["main"],
          summary: "RFC 8058 one-click unsubscribe (no login; the signed token names the address)",
          querystring: listUnsubscribeQuery,
          response: {
            200: oneClickUnsubscribeResponse,
            400: errorEnvelope,
            403: errorEnvelope,
          },
        },
      },
      async (request) => {
        await lists.oneClickUnsubscribe(request.query.token);
        return { data: { status: "unsubscribed" as const } };
      },
    );
  });
};
