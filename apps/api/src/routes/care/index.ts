import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { careAccountRoutes } from "#api/routes/care/account.ts";
import { careAuthRoutes } from "#api/routes/care/auth.ts";
import { careCommunicationRoutes } from "#api/routes/care/communications.ts";
import { careConsultationRoutes } from "#api/routes/care/consultation.ts";
import { careMedicalRecordRoutes } from "#api/routes/care/medical-records.ts";
import { careMembershipRoutes } from "#api/routes/care/membership.ts";
import { careMyDataRoutes } from "#api/routes/care/my-data.ts";
import { careRatingRoutes } from "#api/routes/care/rating.ts";
import { careStripeWebhookRoutes } from "#api/routes/care/stripe-webhook.ts";
import type { ConsultationEntitlements } from "#api/services/consultation-entitlements.ts";

export type CareApiOptions = {
  productSlug: string;
  /** Set with PAYMENTS=stripe: the webhook endpoint exists only then. */
  stripeWebhookSecret?: string | undefined;
  /** Who may have a consultation (membership or a one-time visit credit). */
  entitlements: ConsultationEntitlements;
};

/**
 * The care API (spec §7 "Second API"), mounted at the root: `/auth/…` and `/${PRODUCT_SLUG}/…`.
 * Each endpoint registers into one of the two encapsulated scopes below so that its hooks (bearer
 * checks) stay inside it.
 */
export const careApi: FastifyPluginAsyncZod<CareApiOptions> = async (
  app,
  { productSlug, stripeWebhookSecret, entitlements },
) => {
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
      await product.register(careMembershipRoutes);
      if (stripeWebhookSecret) {
        await product.register(careStripeWebhookRoutes, { webhookSecret: stripeWebhookSecret });
      }
      await product.register(careCommunicationRoutes);
      await product.register(careMyDataRoutes);
      await product.register(careConsultationRoutes, { entitlements });
      await product.register(careMedicalRecordRoutes);
    },
    { prefix: `/${productSlug}` },
  );
};
