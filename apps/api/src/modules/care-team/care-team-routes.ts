import { errorEnvelope } from "@ambercare/contracts/envelope";
import { clinicianProfileResponse } from "@ambercare/contracts/roles";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";

const bearer = [{ bearerAuth: [] }];

/**
 * The care console's calls (main API). Every one sits behind `guards.clinician`: an active
 * clinician with the second factor on; a patient gets 403 CLINICIAN_ONLY.
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
};
