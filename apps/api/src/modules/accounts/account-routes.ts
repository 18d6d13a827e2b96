import {
  completeProfileRequest,
  updateUserRequest,
  userIdParams,
  userResponse,
} from "@ambercare/contracts/auth";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";

const bearer = [{ bearerAuth: [] }];
const failures = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope };

/**
 * The care API's calls on the patient's own account (mounted under /{PRODUCT_SLUG}): every call takes the
 * patient's token and works only on that patient's user id (403 otherwise, for the service
 * account too).
 */
export const careAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const guards = createAuthGuards(accounts.sessions);

  app.get(
    "/get-user-details/:userId",
    {
      onRequest: guards.user,
      config: { audit: { action: "profile.read", resource: "profile" } },
      schema: {
        tags: ["care"],
        summary: "The patient's account",
        security: bearer,
        params: userIdParams,
        response: { 200: userResponse, ...failures },
      },
    },
    async (request) => ({ data: await accounts.getUser(authOf(request), request.params.userId) }),
  );

  app.post(
    "/update-user",
    {
      onRequest: guards.patient,
      config: { audit: { action: "profile.update", resource: "profile" } },
      schema: {
        tags: ["care"],
        summary: "Change some profile fields (user_id plus the fields to change)",
        security: bearer,
        body: updateUserRequest,
        response: { 200: userResponse, ...failures },
      },
    },
    async (request) => ({ data: await accounts.updateUser(authOf(request), request.body) }),
  );

  app.post(
    "/complete-profile",
    {
      onRequest: guards.patient,
      config: { audit: { action: "profile.update", resource: "profile" } },
      schema: {
        tags: ["care"],
        summary: "Set every required profile field and mark the profile complete",
        security: bearer,
        body: completeProfileRequest,
        response: { 200: userResponse, ...failures },
      },
    },
    async (request) => ({ data: await accounts.completeProfile(authOf(request), request.body) }),
  );
};
