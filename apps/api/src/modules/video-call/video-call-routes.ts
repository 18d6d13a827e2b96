import { apiRoutes } from "@ambercare/contracts/api-routes";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { CALL_SDP_MAX_LENGTH, VISIT_CALL_SIGNAL } from "@ambercare/contracts/video-call-protocol";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { authOf, clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import type { LiveService } from "#api/modules/live/live-service.ts";
import type { CallViewer, VideoCallService } from "#api/modules/video-call/video-call-service.ts";
import { auditClinicianAccess, createAuditRepository } from "#api/platform/audit-log.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

function patientViewer(request: FastifyRequest): CallViewer {
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
        action: `call.${access.event}`,
        resourceType: "consultation",
        resourceId: access.consultationId,
        ip: request.ip,
        at: request.server.clock.now(),
      }),
  };
}

function clinicianViewer(request: FastifyRequest): CallViewer {
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
          action: `call.${access.event}`,
          resource: "consultation",
          resourceId: access.consultationId,
        },
        db,
      ),
  };
}

/** The call's calls for one side, from its rows (`consultations` for the patient, `careTeam` for the clinician). */
function registerCallRoutes(
  app: Parameters<FastifyPluginAsyncZod>[0],
  calls: VideoCallService,
  side: {
    routes: typeof apiRoutes.consultations | typeof apiRoutes.careTeam;
    guard: ReturnType<typeof createAuthGuards>["patient"];
    viewer: (request: FastifyRequest) => CallViewer;
  },
): void {
  serve(app, side.routes.callSetup, { onRequest: side.guard }, async (request) => ({
    data: await calls.setup(side.viewer(request), request.params.id),
  }));

  serve(app, side.routes.callEvent, { onRequest: side.guard }, async (request) => ({
    data: await calls.record(side.viewer(request), request.params.id, request.body.event, {
      away: request.body.away === true,
    }),
  }));
}

/** The patient's side of a video visit's call (care API), on their own visits only. */
export const careVideoCallRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerCallRoutes(app, app.videoCalls, {
    routes: apiRoutes.consultations,
    guard: guards.patient,
    viewer: patientViewer,
  });
};

/**
 * The clinician's side of a video visit's call (main API, the care console): the same calls on the
 * visits their provider accepted, and starting the call, which rings the patient's waiting room.
 */
export const consoleVideoCallRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const calls = app.videoCalls;
  registerCallRoutes(app, calls, {
    routes: apiRoutes.careTeam,
    guard: guards.clinician,
    viewer: clinicianViewer,
  });

  serve(app, apiRoutes.careTeam.startCall, { onRequest: guards.clinician }, async (request) => {
    const clinician = clinicianOf(request);
    const actor = { userId: clinician.userId, providerId: clinician.providerId };
    await calls.start(actor, clinicianViewer(request), request.params.id);
    return { data: await app.visits.consoleVisit(actor, request.params.id) };
  });
};

const candidate = z
  .object({
    candidate: z.string().max(1024),
    sdpMid: z.string().max(64).nullish(),
    sdpMLineIndex: z.number().int().min(0).max(64).nullish(),
    usernameFragment: z.string().max(256).nullish(),
  })
  .strict();

/** A page's signal: session descriptions, trickled candidates, (re)joins and its media state. */
const callSignalFrame = z
  .object({
    type: z.literal(VISIT_CALL_SIGNAL),
    consultation_id: z.uuid(),
    signal: z.union([
      z.object({ kind: z.enum(["hello", "welcome", "bye", "away"]) }).strict(),
      z
        .object({
          kind: z.literal("description"),
          description: z
            .object({ type: z.enum(["offer", "answer"]), sdp: z.string().min(1).max(CALL_SDP_MAX_LENGTH) })
            .strict(),
        })
        .strict(),
      z.object({ kind: z.literal("candidate"), candidate: candidate.nullable() }).strict(),
      z
        .object({
          kind: z.literal("media"),
          muted: z.boolean(),
          camera_off: z.boolean(),
          reconnecting: z.boolean(),
        })
        .strict(),
    ]),
  })
  .strict();

/**
 * The call's signalling on the live socket (perfect negotiation between the clinician, impolite,
 * and the patient, polite): relayed to the other participant's open pages and never stored. A
 * sender outside the visit gets `{type: "visit.call.refused", consultation_id, status, code}` and
 * the attempt is written to the patient's log as refused.
 */
export function registerVideoCallSignalling(
  live: LiveService,
  calls: VideoCallService,
  app: FastifyInstance,
): void {
  live.onMessage(VISIT_CALL_SIGNAL, callSignalFrame, async (frame, context) => {
    const { refused } = await calls.relay(context.userId, frame.consultation_id, frame.signal);
    if (!refused) return;
    if (refused.ownerUserId) {
      await createAuditRepository(app.db.db).recordRefusal({
        userId: refused.ownerUserId,
        actorUserId: context.userId,
        actorKind: refused.code === "CONSULTATION_OTHER_CLINICIAN" ? "clinician" : "patient",
        resourceType: "consultation",
        resourceId: frame.consultation_id,
        ip: null,
        at: app.clock.now(),
      });
    }
    context.send({
      type: "visit.call.refused",
      consultation_id: frame.consultation_id.toLowerCase(),
      status: refused.status,
      code: refused.code,
    });
  });
}
