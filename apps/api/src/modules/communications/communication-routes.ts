import {
  CAPTCHA_ACTIONS,
  confirmSubscriptionRequest,
  contactEntryRequest,
  contactEntryResponse,
  listChangeRequest,
  listStatusResponse,
  supportMessagesResponse,
} from "@ambercare/contracts/communications";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { CONTACT_LIMIT } from "#api/modules/communications/communication-limits.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope };

/**
 * The care API's communication calls (ADR 016, mounted under /{PRODUCT_SLUG}): save-contact-entry
 * (the service token for a visitor, or a patient's own token), the patient's support messages, and the
 * list calls of the unsubscribe and confirmation pages (the shared public bearer).
 */
export const careCommunicationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { captcha, contact, lists, limitSends } = app.communications;
  const guards = createAuthGuards(app.accounts.sessions);

  app.post(
    "/save-contact-entry",
    {
      onRequest: guards.patient,
      config: { audit: { action: "support_message.create", resource: "support_message" } },
      schema: {
        tags: ["care"],
        summary: "Store a contact-form or support-widget message; acknowledge it and notify support",
        security: bearer,
        body: contactEntryRequest,
        response: { 201: contactEntryResponse, ...failures, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await captcha.verify(request.body.captcha, CAPTCHA_ACTIONS.contact, request.ip);
      await limitSends("contact", CONTACT_LIMIT, { email: request.body.email, ip: request.ip });
      const saved = await contact.save(auth, request.body);
      return reply.code(201).send({ data: saved });
    },
  );

  app.get(
    "/support-messages",
    {
      onRequest: guards.patient,
      config: { audit: { action: "support_message.list", resource: "support_message" } },
      schema: {
        tags: ["care"],
        summary: "The patient's own contact and support-widget messages, newest first",
        security: bearer,
        response: { 200: supportMessagesResponse, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => ({ data: await contact.listOwn(authOf(request)) }),
  );

  app.post(
    "/confirm-subscription",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["care"],
        summary: "Confirm a newsletter sign-up with the token from the confirmation e-mail",
        security: bearer,
        body: confirmSubscriptionRequest,
        response: { 200: listStatusResponse, 400: errorEnvelope, 401: errorEnvelope },
      },
    },
    async (request) => ({ data: await lists.confirm(request.body.token) }),
  );

  app.post(
    "/unsubscribe",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["care"],
        summary: "Unsubscribe an address from marketing e-mail (signed token from the e-mail's link)",
        security: bearer,
        body: listChangeRequest,
        response: { 200: listStatusResponse, ...failures },
      },
    },
    async (request) => ({ data: await lists.unsubscribe(request.body.email, request.body.token) }),
  );

  app.post(
    "/resubscribe",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["care"],
        summary: "Undo an unsubscribe (signed token from the e-mail's link)",
        security: bearer,
        body: listChangeRequest,
        response: { 200: listStatusResponse, ...failures },
      },
    },
    async (request) => ({ data: await lists.resubscribe(request.body.email, request.body.token) }),
  );
};
