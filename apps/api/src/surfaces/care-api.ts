import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { StripePayments } from "#api/integrations/payments/stripe-payments.ts";
import { careAccountRoutes } from "#api/modules/accounts/account-routes.ts";
import { careAuthRoutes } from "#api/modules/accounts/care-auth-routes.ts";
import { careCommunicationRoutes } from "#api/modules/communications/communication-routes.ts";
import { careConsultationRoutes } from "#api/modules/consultations/consultation-routes.ts";
import { careMedicalRecordRoutes } from "#api/modules/consultations/medical-record-routes.ts";
import { careRatingRoutes } from "#api/modules/directory/rating-routes.ts";
import { careMembershipRoutes } from "#api/modules/membership/membership-routes.ts";
import { careStripeWebhookRoutes } from "#api/modules/membership/stripe-webhook-routes.ts";
import { careMyDataRoutes } from "#api/modules/my-data/my-data-routes.ts";
import { careNotificationRoutes } from "#api/modules/notifications/notification-routes.ts";
import { careSchedulingRoutes } from "#api/modules/scheduling/scheduling-routes.ts";
import { careVideoCallRoutes } from "#api/modules/video-call/video-call-routes.ts";
import { careVisitChatRoutes } from "#api/modules/visit-chat/visit-chat-routes.ts";

export type CareApiOptions = {
  productSlug: string;
  /** Set with PAYMENTS=stripe: the webhook endpoint exists only then. */
  stripe?: StripePayments | undefined;
};

/**
 * The care API (the specification's "Second API"), mounted at the root: `/auth/…` and
 * `/${PRODUCT_SLUG}/…`.
 * Each endpoint registers into one of the two encapsulated scopes below so that its hooks (bearer
 * checks) stay inside it.
 */
export const careApi: FastifyPluginAsyncZod<CareApiOptions> = async (app, { productSlug, stripe }) => {
  await app.register(
    async (auth) => {
      await auth.register(careAuthRoutes);
    },
    { prefix: "/auth" },
  );
  await app.register(
    async (product) => {
      await product.register(careAccountRoutes);
      await product.register(careRatingRoutes);
      await product.register(careMembershipRoutes);
      if (stripe) await product.register(careStripeWebhookRoutes, { stripe });
      await product.register(careCommunicationRoutes);
      await product.register(careMyDataRoutes);
      await product.register(careConsultationRoutes);
      await product.register(careMedicalRecordRoutes);
      await product.register(careVisitChatRoutes);
      await product.register(careVideoCallRoutes);
      await product.register(careSchedulingRoutes);
      await product.register(careNotificationRoutes);
    },
    { prefix: `/${productSlug}` },
  );
};
