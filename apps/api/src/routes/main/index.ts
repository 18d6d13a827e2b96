import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mainAuthRoutes } from "#api/routes/main/auth.ts";
import { captchaRoutes } from "#api/routes/main/captcha.ts";
import { listRoutes } from "#api/routes/main/lists.ts";
import { providerRoutes } from "#api/routes/main/provider.ts";
import { specializationRoutes } from "#api/routes/main/specialization.ts";

/**
 * The main API (spec §7 "Main API"), mounted under /api/v1; its own paths start with /api/…,
 * hence /api/v1/api/auth/login. Encapsulated: hooks added here never reach the care API.
 */
export const mainApi: FastifyPluginAsyncZod = async (app) => {
  await app.register(mainAuthRoutes);
  await app.register(specializationRoutes);
  await app.register(providerRoutes);
  await app.register(captchaRoutes);
  await app.register(listRoutes);
};
