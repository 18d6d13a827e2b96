import { errorEnvelope } from "@ambercare/contracts/envelope";
import { stripeWebhookResponse } from "@ambercare/contracts/membership";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { verifyStripeSignature } from "#api/integrations/payments/stripe-payments.ts";
import type { StripeEvent } from "#api/modules/membership/membership-service.ts";
import { AppError } from "#api/platform/errors.ts";

const stripeEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/**
 * `POST /{product}/stripe/webhook` (PAYMENTS=stripe): Stripe's events, verified by the
 * Stripe-Signature header over the raw body, each applied once (replays change nothing).
 */
export const careStripeWebhookRoutes: FastifyPluginAsyncZod<{ webhookSecret: string }> = async (
  app,
  { webhookSecret },
) => {
  // The signature covers the bytes as sent, so this scope keeps JSON bodies as text.
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    "/stripe/webhook",
    {
      schema: {
        tags: ["care"],
        summary: "Stripe webhook (signed); checkout, invoice and subscription events",
        response: {
          200: stripeWebhookResponse,
          400: errorEnvelope,
          409: errorEnvelope,
        },
      },
    },
    async (request) => {
      const raw = typeof request.body === "string" ? request.body : "";
      const signature = request.headers["stripe-signature"];
      if (
        !verifyStripeSignature(
          raw,
          typeof signature === "string" ? signature : undefined,
          webhookSecret,
          app.clock.now(),
        )
      ) {
        throw new AppError("WEBHOOK_SIGNATURE_INVALID", 400, "Invalid signature");
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new AppError("INVALID_JSON", 400, "Request body is not valid JSON");
      }
      const event = stripeEvent.safeParse(parsed);
      if (!event.success) throw new AppError("WEBHOOK_EVENT_INVALID", 400, "Not a Stripe event");
      const result = await app.membership.applyStripeEvent(event.data as StripeEvent);
      return { data: { received: true as const, result } };
    },
  );
};
