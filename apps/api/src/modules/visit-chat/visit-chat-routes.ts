import { apiRoutes } from "@ambercare/contracts/api-routes";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { DOCUMENT_MAX_BYTES } from "@ambercare/contracts/consultation-limits";
import { VISIT_TYPING_TOPIC } from "@ambercare/contracts/live";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf, clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { acceptRawUploads, rawUpload } from "#api/modules/consultations/medical-record-routes.ts";
import type { LiveService } from "#api/modules/live/live-service.ts";
import type { ChatViewer, VisitChatService } from "#api/modules/visit-chat/visit-chat-service.ts";
import { auditClinicianAccess, createAuditRepository } from "#api/platform/audit-log.ts";
import { sendDocument } from "#api/platform/content-disposition.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

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
 * The thread's calls for one side, from its rows of the route table (`consultations` for the
 * patient on the care API, `consoleChat` for the clinician on the main API): the same calls and
 * answers, each behind its side's guard.
 */
function registerThreadRoutes(
  app: Parameters<FastifyPluginAsyncZod>[0],
  side: {
    routes: typeof apiRoutes.consultations | typeof apiRoutes.consoleChat;
    guard: ReturnType<typeof createAuthGuards>["patient"];
    viewer: (request: FastifyRequest) => ChatViewer;
  },
) {
  const chat = app.visitChat;
  acceptRawUploads(app);
  const { routes, guard, viewer } = side;

  serve(app, routes.messages, { onRequest: guard }, async (request) => {
    const data = await chat.list(viewer(request), request.params.id, request.query.after ?? 0);
    return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
  });

  serve(app, routes.writeMessage, { onRequest: guard }, async (request, reply) => {
    const { created, message } = await chat.send(viewer(request), request.params.id, request.body);
    return reply.code(created ? 201 : 200).send({ data: message });
  });

  serve(
    app,
    routes.uploadAttachment,
    { onRequest: guard, bodyLimit: DOCUMENT_MAX_BYTES },
    async (request, reply) => {
      const { fileName, bytes } = rawUpload(request);
      const data = await chat.upload(viewer(request), request.params.id, fileName, bytes);
      return reply.code(201).send({ data });
    },
  );

  serve(app, routes.downloadAttachment, { onRequest: guard }, async (request, reply) => {
    const file = await chat.download(viewer(request), request.params.id, request.params.documentId);
    return sendDocument(reply, file);
  });

  serve(app, routes.acknowledgeMessages, { onRequest: guard }, async (request) => ({
    data: await chat.acknowledge(viewer(request), request.params.id, request.body),
  }));

  serve(app, routes.retractMessage, { onRequest: guard }, async (request) => ({
    data: await chat.retract(viewer(request), request.params.id, request.params.messageId),
  }));
}

/**
 * The patient's side of a visit's chat (care API, ADR 036): the thread in the server's order,
 * sending with the sender's own id, files, receipts and retraction, on the patient's own visits
 * only (a clinician's token gets 403 PATIENT_ONLY; another patient's visit 403, an unknown one 404).
 */
export const careVisitChatRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerThreadRoutes(app, {
    routes: apiRoutes.consultations,
    guard: guards.patient,
    viewer: patientViewer,
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
    routes: apiRoutes.consoleChat,
    guard: guards.clinician,
    viewer: clinicianViewer,
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
