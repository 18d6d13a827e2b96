import {
  addendumRequest,
  cancelVisitRequest,
  completeVisitRequest,
  consoleVisitListResponse,
  consoleVisitResponse,
  dutyStatusResponse,
  queueResponse,
  saveVisitNotesRequest,
  setDutyRequest,
  visitDocumentParams,
  visitNotesResponse,
  visitStatusResponse,
  visitWorkspaceResponse,
} from "@ambercare/contracts/console";
import { consultationIdParams } from "@ambercare/contracts/consultation";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import { clinicianProfileResponse } from "@ambercare/contracts/roles";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { auditClinicianAccess } from "#api/platform/audit-log.ts";
import { sendDocument } from "#api/platform/content-disposition.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };
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

  app.get(
    "/api/care-team/me",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary: "The logged-in clinician and the provider they work as",
        security: bearer,
        response: { 200: clinicianProfileResponse, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => ({ data: await app.careTeam.profile(clinicianOf(request).userId) }),
  );

  app.get(
    "/api/care-team/queue",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary:
          "The requests the clinician may accept now (licensed in the patient's state, offering the type), oldest first",
        security: bearer,
        response: { 200: queueResponse, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => {
      const data = await app.visits.queueFor(actorOf(request).providerId);
      return { data, meta: listMeta(data.length) };
    },
  );

  app.get(
    "/api/care-team/visits",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary: "The visits the clinician accepted and has not finished, oldest first",
        security: bearer,
        response: { 200: consoleVisitListResponse, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => {
      const data = await app.visits.openVisits(actorOf(request));
      return { data, meta: listMeta(data.length) };
    },
  );

  app.get(
    "/api/care-team/visits/:id",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary:
          "A visit the clinician accepted, with the patient's intake, documents and earlier visits with this provider (audited)",
        security: bearer,
        params: consultationIdParams,
        response: { 200: visitWorkspaceResponse, ...failures },
      },
    },
    async (request) => {
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
    },
  );

  app.get(
    "/api/care-team/visits/:id/documents/:documentId",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary:
          "Download one of the patient's documents listed in the workspace of a visit the clinician holds (audited)",
        security: bearer,
        params: visitDocumentParams,
      },
    },
    async (request, reply) => {
      const file = await app.visits.document(actorOf(request), request.params.id, request.params.documentId);
      await auditClinicianAccess(request, {
        patientUserId: file.patientUserId,
        action: "document.download",
        resource: "document",
        resourceId: file.documentId,
      });
      return sendDocument(reply, file);
    },
  );

  const step = (
    path: "accept" | "start",
    summary: string,
    run: (actor: ReturnType<typeof actorOf>, id: string) => Promise<unknown>,
  ) =>
    app.post(
      `/api/care-team/visits/:id/${path}`,
      {
        onRequest: guards.clinician,
        schema: {
          tags: ["main"],
          summary,
          security: bearer,
          params: consultationIdParams,
          response: { 200: consoleVisitResponse, 409: errorEnvelope, ...failures },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await run(actor, request.params.id);
        return { data: await app.visits.consoleVisit(actor, request.params.id) };
      },
    );

  step(
    "accept",
    "Take a request from the queue: of two clinicians accepting at once, one gets 200 and the other 409 CONSULTATION_ALREADY_TAKEN",
    (actor, id) => app.visits.accept(actor, id),
  );
  step("start", "Begin an accepted visit", (actor, id) => app.visits.start(actor, id));

  app.post(
    "/api/care-team/visits/:id/cancel",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary:
          "Cancel a request in the queue or an accepted visit, with a reason; the patient's money is given back",
        security: bearer,
        params: consultationIdParams,
        body: cancelVisitRequest,
        response: { 200: visitStatusResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request) => {
      const canceled = await app.visits.cancelByClinician(
        actorOf(request),
        request.params.id,
        request.body.reason,
      );
      return { data: { id: canceled.id, status: canceled.status } };
    },
  );

  app.post(
    "/api/care-team/visits/:id/complete",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary: "End a visit in progress with the plain-language summary the patient reads",
        security: bearer,
        params: consultationIdParams,
        body: completeVisitRequest,
        response: { 200: consoleVisitResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await app.visits.complete(actor, request.params.id, request.body.summary);
      return { data: await app.visits.consoleVisit(actor, request.params.id) };
    },
  );

  app.put(
    "/api/care-team/visits/:id/notes",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary:
          "Save the visit's SOAP notes as the clinician types; 409 NOTES_STALE when `version` is not the saved one, NOTES_SIGNED once signed",
        security: bearer,
        params: consultationIdParams,
        body: saveVisitNotesRequest,
        response: { 200: visitNotesResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request) => ({
      data: await app.visits.saveNotes(actorOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    "/api/care-team/visits/:id/addenda",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary: "Add a signed, timed addendum to the signed notes of a completed visit",
        security: bearer,
        params: consultationIdParams,
        body: addendumRequest,
        response: { 201: visitNotesResponse, 409: errorEnvelope, ...failures },
      },
    },
    async (request, reply) => {
      const data = await app.visits.addAddendum(actorOf(request), request.params.id, request.body.body);
      return reply.code(201).send({ data });
    },
  );

  app.get(
    "/api/care-team/duty",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary: "Whether the clinician is on duty, and the wait a new request can expect",
        security: bearer,
        response: { 200: dutyStatusResponse, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => ({ data: await app.careTeam.duty(actorOf(request).userId) }),
  );

  app.put(
    "/api/care-team/duty",
    {
      onRequest: guards.clinician,
      schema: {
        tags: ["main"],
        summary: 'Go on or off duty: the provider\'s "Available today" in the directory follows',
        security: bearer,
        body: setDutyRequest,
        response: { 200: dutyStatusResponse, 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => {
      const data = await app.careTeam.setDuty(actorOf(request).userId, request.body.on_duty);
      // This instance answers from the database until its copy of the directory is reloaded.
      app.providerDirectory.invalidate();
      return { data };
    },
  );
};
