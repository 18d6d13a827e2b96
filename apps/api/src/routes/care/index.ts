import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { careAccountRoutes } from "#api/routes/care/account.ts";
import { careAuthRoutes } from "#api/routes/care/auth.ts";
import { careConsultationRoutes } from "#api/routes/care/consultation.ts";
import { careMedicalRecordRoutes } from "#api/routes/care/medical-records.ts";
import { careRatingRoutes } from "#api/routes/care/rating.ts";
import type { ConsultationEntitlements } from "#api/services/consultation-entitlements.ts";

export type CareApiOptions = { productSlug: string; entitlements: ConsultationEntitlements };

/**
 * The care API (spec §7 "Second API"), mounted at the root: `/auth/…` and `/${PRODUCT_SLUG}/…`.
 * Each endpoint registers into one of the two encapsulated scopes below so that its hooks (bearer
 * checks) stay inside it.
 */
export const careApi: FastifyPluginAsyncZod<CareApiOptions> = async (app, { productSlug, entitlements }) => {
  await app.register(
    async (auth) => {
      await auth.register(careAuthRoutes, { productSlug });
    },
    { prefix: "/auth" },
  );
  await app.register(
    async (product) => {
      await product.register(careAccountRoutes);
      await product.register(careRatingRoutes);
      await product.register(careConsultationRoutes, { entitlements });
      await product.register(careMedicalRecordRoutes);
    },
    { prefix: `/${productSlug}` },
  );
};
