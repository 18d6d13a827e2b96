import { AUTH_ERRORS } from "@ambercare/contracts/auth";
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
import { VISIT_TYPING_TOPIC } from "@ambercare/contracts/live";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf, clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { createMedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import { acceptRawUploads, rawUpload } from "#api/modules/consultations/medical-record-routes.ts";
import {
  type ChatViewer,
  createVisitChatService,
  type VisitChatService,
} from "#api/modules/consultations/visit-chat-service.ts";
import type { LiveService } from "#api/modules/live/live-service.ts";
import { auditClinicianAccess, createAuditRepository } from "#api/platform/audit-log.ts";
import { sendDocument } from "#api/platform/content-disposition.ts";
import { AppError } from "#api/platform/errors.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

/** The chat service over the app's database, clock, files and live events. */
export function chatServiceOf(app: FastifyInstance): VisitChatService {
  return createVisitChatService({
    db: app.db.db,
    clock: app.clock,
    followUpDays: app.config.VISIT_FOLLOW_UP_DAYS,
    documents: createMedicalDocumentService({
      db: app.db.db,
      clock: app.clock,
      dataDir: app.config.DATA_DIR,
    }),
    // Each write tells both participants' open pages (ids only) through the live events.
    events: app.live,
  });
}

/** The patient behind a request that passed `guards.patient`; the service account acts for nobody. */
function patientViewer(request: FastifyRequest): ChatViewer {
  const auth = authOf(request);
  if (auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
  return {
    side: "patient",
    userId: auth.userId,
    providerId: null,
    audit: (access, db) =>
      createAuditRepository(db).record({
        userId: access.patientUserId,
        actorUserId: auth.userId,
        actorKind: "patient",
        action: access.action,
        resourceType: access.resource,
        resourceId: access.resourceId,
        ip: request.ip,
        at: request.server.clock.now(),
      }),
  };
}

/** The clinician behind a request that passed `guards.clinician`; each access lands in the patient's log. */
function clinicianViewer(request: FastifyRequest): ChatViewer {
  const clinician = clinicianOf(request);
  return {
    side: "clinician",
    userId: clinician.userId,
    providerId: clinician.providerId,
    audit: (access, db) =>
      auditClinicianAccess(
        request,
        {
          patientUserId: access.patientUserId,
          action: access.action,
          resource: access.resource,
          resourceId: access.resourceId,
        },
        db,
      ),
  };
}

/**
 * The thread's calls for one side, under `base` (`/consultations` for the patient on the care API,
 * `/api/care-team/visits` for the clinician on the main API): the same calls and answers, each
 * behind its side's guard.
 */
function registerThreadRoutes(
  app: Parameters<FastifyPluginAsyncZod>[0],
  side: {
    base: string;
    tag: "care" | "main";
    guard: ReturnType<typeof createAuthGuards>["patient"];
    viewer: (request: FastifyRequest) => ChatViewer;
    who: string;
  },
) {
  const chat = chatServiceOf(app);
  acceptRawUploads(app);
  const { base, guard, viewer, who } = side;
  const tags = [side.tag];

  app.get(
    `${base}/:id/messages`,
    {
      onRequest: guard,
      schema: {
        tags,
        summary: `The visit's thread in the server's order (seq), for ${who}; ?after=N for the messages after N only`,
        security: bearer,
        params: consultationIdParams,
        querystring: messageListQuery,
        response: { 200: messageListResponse, ...failures },
      },
    },
    async (request) => {
      const data = await chat.list(viewer(request), request.params.id, request.query.after ?? 0);
      return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
    },
  );

  app.post(
    `${base}/:id/messages`,
    {
      onRequest: guard,
      schema: {
        tags,
        summary: `Write to the visit's thread as ${who} (201); 200 with the stored message when this client_id was already sent; 409 while the thread is not open`,
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
      const { created, message } = await chat.send(viewer(request), request.params.id, request.body);
      return reply.code(created ? 201 : 200).send({ data: message });
    },
  );

  app.post(
    `${base}/:id/attachments`,
    {
      onRequest: guard,
      bodyLimit: DOCUMENT_MAX_BYTES,
      schema: {
        tags,
        summary: `Upload a file for the visit's thread as ${who} (PDF, JPEG or PNG by content, at most 10 MB) as the raw body, its name in X-File-Name; send its id in attachment_ids`,
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
      const data = await chat.upload(viewer(request), request.params.id, fileName, bytes);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    `${base}/:id/attachments/:documentId`,
    {
      onRequest: guard,
      schema: {
        tags,
        summary: `Download a file sent in the visit's thread, for ${who}`,
        security: bearer,
        params: attachmentParams,
      },
    },
    async (request, reply) => {
      const file = await chat.download(viewer(request), request.params.id, request.params.documentId);
      return sendDocument(reply, file);
    },
  );

  app.post(
    `${base}/:id/receipts`,
    {
      onRequest: guard,
      schema: {
        tags,
        summary: `Acknowledge the other side's messages up to sequence number up_to_seq as delivered or read, as ${who}`,
        security: bearer,
        params: consultationIdParams,
        body: messageReceiptRequest,
        response: { 200: messageReceiptResponse, ...failures },
      },
    },
    async (request) => ({ data: await chat.acknowledge(viewer(request), request.params.id, request.body) }),
  );

  app.post(
    `${base}/:id/messages/:messageId/retract`,
    {
      onRequest: guard,
      schema: {
        tags,
        summary: `Retract one of ${who}'s own messages: it stays in the thread, marked retracted`,
        security: bearer,
        params: messageIdParams,
        response: { 200: messageResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request) => ({
      data: await chat.retract(viewer(request), request.params.id, request.params.messageId),
    }),
  );
}

/**
 * The patient's side of a visit's chat (care API, ADR 036): the thread in the server's order,
 * sending with the sender's own id, files, receipts and retraction, on the patient's own visits
 * only (a clinician's token gets 403 PATIENT_ONLY; another patient's visit 403, an unknown one 404).
 */
export const careVisitChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerThreadRoutes(app, {
    base: "/consultations",
    tag: "care",
    guard: guards.patient,
    viewer: patientViewer,
    who: "the patient",
  });
};

/**
 * The clinician's side of a visit's chat (main API, the care console): the same calls on the
 * visits the clinician's provider accepted, each read written to the patient's access log with the
 * clinician's name. A patient's token gets 403 CLINICIAN_ONLY; another clinician's visit 403.
 */
export const consoleVisitChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerThreadRoutes(app, {
    base: "/api/care-team/visits",
    tag: "main",
    guard: guards.clinician,
    viewer: clinicianViewer,
    who: "the clinician",
  });
};

/** The client's typing frame: `typing` true while the person types, false when they stop or send. */
const visitTypingFrame = z
  .object({ type: z.literal(VISIT_TYPING_TOPIC), consultation_id: z.uuid(), typing: z.boolean() })
  .strict();

/**
 * Relays a participant's typing indicator to the other side's open pages, never storing it (ADR
 * 036): `{topic: "visit.typing", payload: {consultation_id, side, typing}}`. A frame about a visit
 * the sender takes no part in, or whose thread is closed, goes nowhere.
 */
export function registerVisitTyping(live: LiveService, chat: VisitChatService): void {
  live.onMessage(VISIT_TYPING_TOPIC, visitTypingFrame, async (frame, context) => {
    const consultationId = frame.consultation_id.toLowerCase();
    const { side, recipients } = await chat.typingRecipients(context.userId, consultationId);
    await live.relay(recipients, VISIT_TYPING_TOPIC, {
      consultation_id: consultationId,
      side,
      typing: frame.typing,
    });
  });
}
