import { apiRoutes } from "@ambercare/contracts/api-routes";
import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { CONTACT_LIMIT } from "#api/modules/communications/communication-limits.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The care API's communication calls (ADR 016, mounted under /{PRODUCT_SLUG}): save-contact-entry
 * (the service token for a visitor, or a patient's own token), the patient's support messages, and the
 * list calls of the unsubscribe and confirmation pages (the shared public bearer).
 */
export const careCommunicationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { captcha, contact, lists, limitSends } = app.communications;
  const guards = createAuthGuards(app.accounts.sessions);
  const routes = apiRoutes.communications;

  serve(
    app,
    routes.saveContactEntry,
    {
      onRequest: guards.patient,
      config: { audit: { action: "support_message.create", resource: "support_message" } },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await captcha.verify(request.body.captcha, CAPTCHA_ACTIONS.contact, request.ip);
      await limitSends("contact", CONTACT_LIMIT, { email: request.body.email, ip: request.ip });
      const saved = await contact.save(auth, request.body);
      return reply.code(201).send({ data: saved });
    },
  );

  serve(
    app,
    routes.supportMessages,
    {
      onRequest: guards.patient,
      config: { audit: { action: "support_message.list", resource: "support_message" } },
    },
    async (request) => ({ data: await contact.listOwn(authOf(request)) }),
  );

  serve(app, routes.confirmSubscription, { onRequest: requirePublicBearer }, async (request) => ({
    data: await lists.confirm(request.body.token),
  }));

  serve(app, routes.unsubscribe, { onRequest: requirePublicBearer }, async (request) => ({
    data: await lists.unsubscribe(request.body.email, request.body.token),
  }));

  serve(app, routes.resubscribe, { onRequest: requirePublicBearer }, async (request) => ({
    data: await lists.resubscribe(request.body.email, request.body.token),
  }));
};
