import {
  attachmentParams,
  consultationIdParams,
  createMessageRequest,
  medicalDocumentResponse,
  messageIdParams,
  messageListQuery,
  messageListResponse,
  messageReceiptRequest,
  messageReceiptResponse,
  messageResponse,
} from "@ambercare/contracts/consultation";
import { DOCUMENT_MAX_BYTES } from "@ambercare/contracts/consultation-limits";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { callerOf } from "#api/modules/consultations/consultation-routes.ts";
import { createMedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import {
  acceptRawUploads,
  contentDisposition,
  rawUpload,
} from "#api/modules/consultations/medical-record-routes.ts";
import {
  createVisitChatService,
  type VisitClinicians,
  type VisitEvents,
} from "#api/modules/consultations/visit-chat-service.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

export type VisitChatRoutesOptions = {
  clinicians?: VisitClinicians | undefined;
  events?: VisitEvents | undefined;
};

/**
 * A visit's chat (docs/decisions on visit chat): the thread in the server's order, sending with the
 * sender's own id, files, receipts and retraction. The visit's patient and the clinician who took
 * it on only; anyone else gets 403/404.
 */
export const careVisitChatRoutes: FastifyPluginAsyncZod<VisitChatRoutesOptions> = async (
  app,
  { clinicians, events },
) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const chat = createVisitChatService({
    db: app.db.db,
    clock: app.clock,
    followUpDays: app.config.VISIT_FOLLOW_UP_DAYS,
    documents: createMedicalDocumentService({
      db: app.db.db,
      clock: app.clock,
      dataDir: app.config.DATA_DIR,
    }),
    clinicians,
    // Each write tells the other participant's open pages (ids only) through the live events.
    events: events ?? app.live,
  });
  acceptRawUploads(app);

  app.get(
    "/consultations/:id/messages",
    {
      onRequest: guards.user,
      schema: {
        tags: ["care"],
        summary: "The visit's thread in the server's order (seq); ?after=N for the messages after N only",
        security: bearer,
        params: consultationIdParams,
        querystring: messageListQuery,
        response: { 200: messageListResponse, ...failures },
      },
    },
    async (request) => {
      const data = await chat.list(callerOf(request), request.params.id, request.query.after ?? 0);
      return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
    },
  );

  app.post(
    "/consultations/:id/messages",
    {
      onRequest: guards.user,
      schema: {
        tags: ["care"],
        summary:
          "Write to the visit's thread (201); 200 with the stored message when this client_id was already sent. 409 when the thread is read-only",
        security: bearer,
        params: consultationIdParams,
        body: createMessageRequest,
        response: {
          200: messageResponse,
          201: messageResponse,
          409: errorEnvelope,
          422: errorEnvelope,
          ...failures,
        },
      },
    },
    async (request, reply) => {
      const { created, message } = await chat.send(callerOf(request), request.params.id, request.body);
      return reply.code(created ? 201 : 200).send({ data: message });
    },
  );

  app.post(
    "/consultations/:id/attachments",
    {
      onRequest: guards.user,
      bodyLimit: DOCUMENT_MAX_BYTES,
      schema: {
        tags: ["care"],
        summary:
          "Upload a file for the visit's thread (PDF, JPEG or PNG by content, at most 10 MB) as the raw body, its name in X-File-Name; send its id in attachment_ids",
        security: bearer,
        params: consultationIdParams,
        response: {
          201: medicalDocumentResponse,
          409: errorEnvelope,
          413: errorEnvelope,
          415: errorEnvelope,
          ...failures,
        },
      },
    },
    async (request, reply) => {
      const { fileName, bytes } = rawUpload(request);
      const data = await chat.upload(callerOf(request), request.params.id, fileName, bytes);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    "/consultations/:id/attachments/:documentId",
    {
      onRequest: guards.user,
      schema: {
        tags: ["care"],
        summary: "Download a file sent in the visit's thread",
        security: bearer,
        params: attachmentParams,
      },
    },
    async (request, reply) => {
      const file = await chat.download(callerOf(request), request.params.id, request.params.documentId);
      return reply
        .header("content-type", file.contentType)
        .header("content-disposition", contentDisposition(file.fileName))
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-store")
        .send(file.bytes);
    },
  );

  app.post(
    "/consultations/:id/receipts",
    {
      onRequest: guards.user,
      schema: {
        tags: ["care"],
        summary:
          "Acknowledge the other party's messages up to sequence number up_to_seq as delivered or read",
        security: bearer,
        params: consultationIdParams,
        body: messageReceiptRequest,
        response: { 200: messageReceiptResponse, ...failures },
      },
    },
    async (request) => ({ data: await chat.acknowledge(callerOf(request), request.params.id, request.body) }),
  );

  app.post(
    "/consultations/:id/messages/:messageId/retract",
    {
      onRequest: guards.user,
      schema: {
        tags: ["care"],
        summary: "Retract one of the caller's messages: it stays in the thread, marked retracted",
        security: bearer,
        params: messageIdParams,
        response: { 200: messageResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request) => ({
      data: await chat.retract(callerOf(request), request.params.id, request.params.messageId),
    }),
  );
};
