import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { WebhookRejectedError } from "#api/integrations/payments/payment-provider.ts";
import type { StripePayments } from "#api/integrations/payments/stripe-payments.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * `POST /{product}/stripe/webhook` (PAYMENTS=stripe): Stripe's events, verified and read by the
 * Stripe adapter from the Stripe-Signature header and the raw body, then applied by the membership
 * service, each once (replays change nothing).
 */
export const careStripeWebhookRoutes: FastifyPluginAsyncZod<{
  stripe: Pick<StripePayments, "readWebhook">;
}> = async (app, { stripe }) => {
  // The signature covers the bytes as sent, so this scope keeps JSON bodies as text.
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    done(null, body);
  });

  serve(app, apiRoutes.membership.stripeWebhook, async (request) => {
    const raw = typeof request.body === "string" ? request.body : "";
    const signature = request.headers["stripe-signature"];
    let event: ReturnType<StripePayments["readWebhook"]>;
    try {
      event = stripe.readWebhook(raw, typeof signature === "string" ? signature : undefined, app.clock.now());
    } catch (error) {
      if (error instanceof WebhookRejectedError) throw new AppError(error.code, 400, error.message);
      throw error;
    }
    const result = await app.membership.applyPaymentEvent(event);
    return { data: { received: true as const, result } };
  });
};
