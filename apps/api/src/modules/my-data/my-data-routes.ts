import {
  accountDeletedResponse,
  consentsRequest,
  consentsResponse,
  deleteMyDataRequest,
  myDataExportResponse,
} from "@ambercare/contracts/communications";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope };

/**
 * Washington My Health My Data rights (ADR 016, mounted under /{PRODUCT_SLUG}): each call takes the
 * patient's own token and works on that patient only; the service account gets 403.
 */
export const careMyDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { myData } = app.communications;
  const guards = createAuthGuards(app.accounts.sessions);

  app.get(
    "/my-data/export",
    {
      onRequest: guards.patient,
      config: { audit: { action: "export.download", resource: "export" } },
      schema: {
        tags: ["care"],
        summary: "Everything held about the patient, as JSON sections of rows",
        security: bearer,
        response: { 200: myDataExportResponse, ...failures },
      },
    },
    async (request, reply) => {
      void reply.header("cache-control", "no-store");
      return { data: await myData.export(authOf(request)) };
    },
  );

  app.get(
    "/my-data/consents",
    {
      onRequest: guards.patient,
      config: { audit: { action: "consent.read", resource: "consent" } },
      schema: {
        tags: ["care"],
        summary: "The patient's consent choices",
        security: bearer,
        response: { 200: consentsResponse, ...failures },
      },
    },
    async (request) => ({ data: await myData.consents(authOf(request)) }),
  );

  app.post(
    "/my-data/consents",
    {
      onRequest: guards.patient,
      config: { audit: { action: "consent.update", resource: "consent" } },
      schema: {
        tags: ["care"],
        summary: "Give or withdraw consent for optional processing (recorded with its time)",
        security: bearer,
        body: consentsRequest,
        response: { 200: consentsResponse, ...failures },
      },
    },
    async (request) => ({ data: await myData.recordConsents(authOf(request), request.body) }),
  );

  app.post(
    "/my-data/delete",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Close the account and erase or anonymise the patient's data (billing records kept)",
        security: bearer,
        body: deleteMyDataRequest,
        response: { 200: accountDeletedResponse, ...failures, 409: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) => ({ data: await myData.delete(authOf(request), request.body.password, request.ip) }),
  );
};
