import { errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { GrantableEntitlements } from "#api/services/consultation-entitlements.ts";

export type DevEntitlementRoutesOptions = { entitlements: GrantableEntitlements };

const credit = z.number().int().min(0).max(100).optional();

/**
 * `POST /dev/entitlements`: grants a membership or one-time visit credits by hand, so end-to-end
 * tests can request consultations. Registered only when `devEntitlementsEnabled(config)` (never in a
 * production deployment on PostgreSQL); not in the OpenAPI document.
 */
export const devEntitlementRoutes: FastifyPluginAsyncZod<DevEntitlementRoutesOptions> = async (
  app,
  { entitlements },
) => {
  app.post(
    "/dev/entitlements",
    {
      schema: {
        hide: true,
        body: z
          .object({
            user_id: z.uuid(),
            member: z.boolean().optional(),
            credits: z.object({ chat: credit, video: credit }).strict().optional(),
          })
          .strict(),
        response: {
          200: z.object({ data: z.object({ chat: z.number(), video: z.number() }) }),
          400: errorEnvelope,
        },
      },
    },
    async (request) => {
      const { user_id, member, credits } = request.body;
      const userId = user_id.toLowerCase();
      entitlements.grant(userId, {
        ...(member === undefined ? {} : { member }),
        ...(credits ? { credits: { chat: credits.chat ?? 0, video: credits.video ?? 0 } } : {}),
      });
      return { data: entitlements.credits(userId) };
    },
  );
};
