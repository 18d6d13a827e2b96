import { apiRoutes } from "@ambercare/contracts/api-routes";
import { AUDIT_LOG_PAGE_SIZE, VISIT_RECORDS_SHOWN } from "@ambercare/contracts/consultation-limits";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import type { Caller } from "#api/modules/consultations/consultation-service.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";
import { serve } from "#api/platform/contract-routes.ts";

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
export const careConsultationRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const consultations = app.consultations;

  const routes = apiRoutes.consultations;
  const patient = { onRequest: guards.patient };

  serve(app, routes.create, patient, async (request, reply) => {
    const { created, consultation } = await consultations.create(callerOf(request), request.body);
    return reply.code(created ? 201 : 200).send({ data: consultation });
  });

  serve(app, routes.list, patient, async (request) => {
    const data = await consultations.list(callerOf(request));
    return { data, meta: listMeta(data.length) };
  });

  serve(app, routes.visitRecords, patient, async (request) => {
    const data = await consultations.visitRecords(callerOf(request), VISIT_RECORDS_SHOWN);
    return { data, meta: listMeta(data.length) };
  });

  serve(app, routes.get, patient, async (request) => ({
    data: await consultations.get(callerOf(request), request.params.id),
  }));

  serve(app, routes.waitingRoom, patient, async (request) => ({
    data: await consultations.waitingRoom(callerOf(request), request.params.id),
  }));

  serve(app, routes.cancel, patient, async (request) => ({
    data: await consultations.cancel(callerOf(request), request.params.id),
  }));

  serve(app, routes.auditLog, patient, async (request) => {
    const auth = authOf(request);
    const { page } = request.query;
    // The patient's own reads counted in memory are written first, so each count is whole (ADR 072).
    await app.ownReads.flushPatient(auth.userId);
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
                : row.actorKind === "operator"
                  ? ("operator" as const)
                  : row.actorKind === "patient"
                    ? ("other" as const)
                    : ("system" as const),
        actor_name: row.actorName,
        action: row.action as never,
        resource_type: row.resourceType as never,
        resource_id: row.resourceId,
        at: row.at.toISOString(),
        ip: row.ip,
        count: row.count,
      })),
      meta: { page, per_page: AUDIT_LOG_PAGE_SIZE, total },
    };
  });
};
