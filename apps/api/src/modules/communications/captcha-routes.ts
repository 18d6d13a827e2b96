import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { serve } from "#api/platform/contract-routes.ts";

/** The site captcha's challenge (ADR 016): public, one per form display. */
export const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  serve(app, apiRoutes.communications.captchaChallenge, async (_request, reply) => {
    // Each challenge is single-use; a cached one would be refused as already used.
    void reply.header("cache-control", "no-store");
    return { data: await app.communications.captcha.challenge() };
  });
};
