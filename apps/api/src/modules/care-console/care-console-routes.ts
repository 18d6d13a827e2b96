import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { auditClinicianAccess } from "#api/platform/audit-log.ts";
import { sendDocument } from "#api/platform/content-disposition.ts";
import { serve } from "#api/platform/contract-routes.ts";

const listMeta = (total: number) => ({ page: 1, per_page: Math.max(total, 1), total });

/** The clinician as the visit service knows them: their account and the provider they work as. */
const actorOf = (request: FastifyRequest) => {
  const clinician = clinicianOf(request);
  return { userId: clinician.userId, providerId: clinician.providerId };
};

/**
 * The care console's calls (main API). Every one sits behind `guards.clinician`: an active
 * clinician with the second factor on; a patient gets 403 CLINICIAN_ONLY. A clinician sees the
 * requests their provider may take and reads a patient's data only in a visit their provider
 * accepted; every such read is written to that patient's access log.
 */
export const careTeamRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const routes = apiRoutes.careTeam;
  const clinician = { onRequest: guards.clinician };

  serve(app, routes.me, clinician, async (request) => ({
    data: await app.careTeam.profile(clinicianOf(request).userId),
  }));

  serve(app, routes.queue, clinician, async (request) => {
    const data = await app.visits.queueFor(actorOf(request).providerId);
    return { data, meta: listMeta(data.length) };
  });

  serve(app, routes.visits, clinician, async (request) => {
    const data = await app.visits.openVisits(actorOf(request));
    return { data, meta: listMeta(data.length) };
  });

  serve(app, routes.workspace, clinician, async (request) => {
    const { patientUserId, workspace } = await app.visits.workspace(actorOf(request), request.params.id);
    await app.db.db.transaction(async (tx) => {
      const read = (action: "consultation.read" | "document.list" | "consultation.list") =>
        auditClinicianAccess(
          request,
          {
            patientUserId,
            action,
            resource: action === "document.list" ? "document" : "consultation",
            resourceId: action === "consultation.read" ? workspace.visit.id : null,
          },
          tx,
        );
      await read("consultation.read");
      await read("document.list");
      if (workspace.past_visits.length > 0) await read("consultation.list");
    });
    return { data: workspace };
  });

  serve(app, routes.downloadDocument, clinician, async (request, reply) => {
    const file = await app.visits.document(actorOf(request), request.params.id, request.params.documentId);
    await auditClinicianAccess(request, {
      patientUserId: file.patientUserId,
      action: "document.download",
      resource: "document",
      resourceId: file.documentId,
    });
    return sendDocument(reply, file);
  });

  const step = (
    route: typeof routes.start,
    run: (actor: ReturnType<typeof actorOf>, id: string) => Promise<unknown>,
  ) =>
    serve(app, route, clinician, async (request) => {
      const actor = actorOf(request);
      await run(actor, request.params.id);
      return { data: await app.visits.consoleVisit(actor, request.params.id) };
    });

  // Accepting opens the patient's intake to the clinician: it is in the patient's access log.
  serve(app, routes.accept, clinician, async (request) => {
    const actor = actorOf(request);
    const accepted = await app.visits.accept(actor, request.params.id);
    await auditClinicianAccess(request, {
      patientUserId: accepted.patientUserId,
      action: "consultation.accept",
      resource: "consultation",
      resourceId: accepted.id,
    });
    return { data: await app.visits.consoleVisit(actor, request.params.id) };
  });
  step(routes.start, (actor, id) => app.visits.start(actor, id));

  serve(app, routes.cancel, clinician, async (request) => {
    const canceled = await app.visits.cancelByClinician(
      actorOf(request),
      request.params.id,
      request.body.reason,
    );
    return { data: { id: canceled.id, status: canceled.status } };
  });

  serve(app, routes.complete, clinician, async (request) => {
    const actor = actorOf(request);
    await app.visits.complete(actor, request.params.id, request.body.summary);
    return { data: await app.visits.consoleVisit(actor, request.params.id) };
  });

  serve(app, routes.saveNotes, clinician, async (request) => ({
    data: await app.visits.saveNotes(actorOf(request), request.params.id, request.body),
  }));

  serve(app, routes.addAddendum, clinician, async (request, reply) => {
    const data = await app.visits.addAddendum(actorOf(request), request.params.id, request.body.body);
    return reply.code(201).send({ data });
  });

  serve(app, routes.duty, clinician, async (request) => ({
    data: await app.careTeam.duty(actorOf(request).userId),
  }));

  serve(app, routes.setDuty, clinician, async (request) => {
    const data = await app.careTeam.setDuty(actorOf(request).userId, request.body.on_duty);
    // This instance answers from the database until its copy of the directory is reloaded.
    app.providerDirectory.invalidate();
    // The operators' board of today shows who is on duty (ADR 067).
    await app.board.dutyChanged();
    return { data };
  });
};
