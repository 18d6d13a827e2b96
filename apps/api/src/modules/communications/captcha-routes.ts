import { captchaChallengeResponse } from "@ambercare/contracts/communications";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

/** The site captcha's challenge (ADR 016): public, one per form display. */
export const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/api/captcha/challenge",
    {
      schema: {
        tags: ["main"],
        summary: "A fresh ALTCHA challenge (or the reCAPTCHA site key) for a protected form",
        response: { 200: captchaChallengeResponse },
      },
    },
    async (_request, reply) => {
      // Each challenge is single-use; a cached one would be refused as already used.
      void reply.header("cache-control", "no-store");
      return { data: await app.communications.captcha.challenge() };
    },
  );
};
