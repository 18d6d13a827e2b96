import {
  auditLogQuery,
  auditLogResponse,
  consultationDetailResponse,
  consultationIdParams,
  consultationListResponse,
  consultationResponse,
  createConsultationRequest,
  visitRecordsResponse,
} from "@ambercare/contracts/consultation";
import { AUDIT_LOG_PAGE_SIZE, VISIT_RECORDS_SHOWN } from "@ambercare/contracts/consultation-limits";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import { waitingRoomResponse } from "@ambercare/contracts/waiting-room";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { type Caller, createConsultationService } from "#api/modules/consultations/consultation-service.ts";
import type { ConsultationEntitlements } from "#api/modules/membership/consultation-entitlements.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

export type ConsultationRoutesOptions = { entitlements: ConsultationEntitlements };

/** The verified caller and the address the request came from (the visitor's, behind the web server). */
export function callerOf(request: FastifyRequest): Caller {
  return { auth: authOf(request), ip: request.ip ?? null };
}

const listMeta = (total: number) => ({ page: 1, per_page: Math.max(total, 1), total });

/**
 * The care API's `create-consultation` and `consultations`, plus a consultation's detail and cancel,
 * and the patient's audit log (docs/decisions/018). Patient token only; another
 * patient's consultation is 403.
 *
 * 402 vs 403: 402 Payment Required means "you may do this once you pay" (no membership and no
 * unused visit credit of this type); 403 means "this is not yours" (another patient's data, or the
 * service account), which no payment changes.
 */
export const careConsultationRoutes: FastifyPluginAsyncZod<ConsultationRoutesOptions> = async (
  app,
  { entitlements },
) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const consultations = createConsultationService({
    db: app.db.db,
    clock: app.clock,
    entitlements,
    mail: app.visits.mail,
    announceQueueChange: app.visits.announceQueueChange,
    events: app.live,
    lineOf: app.visits.lineOf,
  });

  app.post(
    "/create-consultation",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary:
          "Request a chat or video consultation (201; 200 when this idempotency_key was already used). Needs a membership or an unused one-time visit of the type: 402 otherwise",
        security: bearer,
        body: createConsultationRequest,
        response: {
          200: consultationResponse,
          201: consultationResponse,
          402: errorEnvelope,
          422: errorEnvelope,
          ...failures,
        },
      },
    },
    async (request, reply) => {
      const { created, consultation } = await consultations.create(callerOf(request), request.body);
      return reply.code(created ? 201 : 200).send({ data: consultation });
    },
  );

  app.get(
    "/consultations",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "The caller's consultations, newest first",
        security: bearer,
        response: { 200: consultationListResponse, ...failures },
      },
    },
    async (request) => {
      const data = await consultations.list(callerOf(request));
      return { data, meta: listMeta(data.length) };
    },
  );

  app.get(
    "/medical-records/visits",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: `The caller's ${VISIT_RECORDS_SHOWN} most recent visits that were not canceled, with their intake answers`,
        security: bearer,
        response: { 200: visitRecordsResponse, ...failures },
      },
    },
    async (request) => {
      const data = await consultations.visitRecords(callerOf(request), VISIT_RECORDS_SHOWN);
      return { data, meta: listMeta(data.length) };
    },
  );

  app.get(
    "/consultations/:id",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "One of the caller's consultations with its intake answers and visit summary",
        security: bearer,
        params: consultationIdParams,
        response: { 200: consultationDetailResponse, ...failures },
      },
    },
    async (request) => ({ data: await consultations.get(callerOf(request), request.params.id) }),
  );

  app.get(
    "/consultations/:id/waiting-room",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary:
          "One of the caller's visits as its waiting room shows it: status, position in line and estimated wait while requested, and the clinician who accepted it",
        security: bearer,
        params: consultationIdParams,
        response: { 200: waitingRoomResponse, ...failures },
      },
    },
    async (request) => ({ data: await consultations.waitingRoom(callerOf(request), request.params.id) }),
  );

  app.post(
    "/consultations/:id/cancel",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Cancel a consultation that is requested or accepted; a one-time visit it used is returned",
        security: bearer,
        params: consultationIdParams,
        response: { 200: consultationResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request) => ({ data: await consultations.cancel(callerOf(request), request.params.id) }),
  );

  app.get(
    "/audit-log",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: `Who read or wrote the caller's health data, newest first, ${AUDIT_LOG_PAGE_SIZE} per page`,
        security: bearer,
        querystring: auditLogQuery,
        response: { 200: auditLogResponse, ...failures },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { page } = request.query;
      const { rows, total } = await createAuditRepository(app.db.db).page(
        auth.userId,
        page,
        AUDIT_LOG_PAGE_SIZE,
      );
      return {
        data: rows.map((row) => ({
          id: row.id,
          actor:
            row.actorUserId === auth.userId
              ? ("self" as const)
              : row.actorKind === "clinician"
                ? ("clinician" as const)
                : row.actorKind === "provider"
                  ? ("provider" as const)
                  : row.actorKind === "patient"
                    ? ("other" as const)
                    : ("system" as const),
          actor_name: row.actorName,
          action: row.action as never,
          resource_type: row.resourceType as never,
          resource_id: row.resourceId,
          at: row.at.toISOString(),
          ip: row.ip,
        })),
        meta: { page, per_page: AUDIT_LOG_PAGE_SIZE, total },
      };
    },
  );
};
