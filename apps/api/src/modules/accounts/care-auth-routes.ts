import {
  changePasswordRequest,
  companionLoginRequest,
  confirmEmailRequest,
  confirmEmailResponse,
  emailRequest,
  loginRequest,
  loginResponse,
  passwordChangedResponse,
  registerRequest,
  registrationResponse,
  resetMailResponse,
  resetPasswordRequest,
  SIGN_UP_MAIL_SENT,
} from "@ambercare/contracts/auth";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import { loginStepResponse, secondFactorLoginRequest } from "@ambercare/contracts/second-factor";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";

export type CareAuthOptions = { productSlug: string };

const bearer = [{ bearerAuth: [] }];

/**
 * The care API's `/auth/…` calls (mounted under /auth): login takes the shared public bearer;
 * register, confirm-email and the two reset calls take the service account's token (the web server makes them
 * for a visitor who is not logged in); change-password takes the patient's own token.
 */
export const careAuthRoutes: FastifyPluginAsyncZod<CareAuthOptions> = async (app, { productSlug }) => {
  const accounts = app.accounts;
  const guards = createAuthGuards(accounts.sessions);

  app.post(
    "/login",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["care"],
        summary:
          "Log in with e-mail and password (care API token, or a pending login with a second factor); the service account logs in here",
        security: bearer,
        body: loginRequest,
        response: {
          200: loginStepResponse,
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request) => accounts.login(request.body, "care", request.ip),
  );

  app.post(
    "/login/companion",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["care"],
        summary:
          "The care API token for a main API login of the last minute, once per login (the password is not checked again)",
        security: bearer,
        body: companionLoginRequest,
        response: { 200: loginResponse, 400: errorEnvelope, 401: errorEnvelope },
      },
    },
    async (request) => accounts.companionLogin(request.body.main_access_token),
  );

  app.post(
    "/login/second-factor",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["care"],
        summary:
          "The second login step (care API token): the pending login's token, and a code unless the main API's step took it",
        security: bearer,
        body: secondFactorLoginRequest,
        response: { 200: loginResponse, 400: errorEnvelope, 401: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) =>
      accounts.secondFactor.completeLogin(
        { pendingLoginToken: request.body.pending_login_token, code: request.body.code },
        "care",
        request.ip,
      ),
  );

  app.post(
    `/register-${productSlug}`,
    {
      onRequest: guards.service,
      schema: {
        tags: ["care"],
        summary:
          "Sign up (same answer for any address; the owner gets the next step by e-mail); service token",
        security: bearer,
        body: registerRequest,
        response: { 202: registrationResponse, 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request, reply) => {
      await accounts.register(request.body);
      return reply.code(202).send({ data: { message: SIGN_UP_MAIL_SENT } });
    },
  );

  app.post(
    `/${productSlug}/confirm-email`,
    {
      onRequest: guards.service,
      schema: {
        tags: ["care"],
        summary: "Confirm a new account with the token from the sign-up e-mail; logs in on both APIs",
        security: bearer,
        body: confirmEmailRequest,
        response: { 200: confirmEmailResponse, 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => ({ data: await accounts.confirmEmail(request.body.token) }),
  );

  app.post(
    `/${productSlug}/reset-password/token`,
    {
      onRequest: guards.service,
      schema: {
        tags: ["care"],
        summary: "E-mail a password-reset link if the account exists (always 200); service token",
        security: bearer,
        body: emailRequest,
        response: { 200: resetMailResponse, 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => {
      await accounts.requestPasswordReset(request.body.email);
      return { data: { sent: true as const } };
    },
  );

  app.post(
    `/${productSlug}/reset-password`,
    {
      onRequest: guards.service,
      schema: {
        tags: ["care"],
        summary: "Set a new password with the token from the reset e-mail; ends every session",
        security: bearer,
        body: resetPasswordRequest,
        response: {
          200: passwordChangedResponse,
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
        },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.body);
      return { data: { password_changed: true as const } };
    },
  );

  app.post(
    `/${productSlug}/change-password`,
    {
      onRequest: guards.user,
      schema: {
        tags: ["care"],
        summary: "Change the password of the token's own account",
        security: bearer,
        body: changePasswordRequest,
        response: {
          200: passwordChangedResponse,
          400: errorEnvelope,
          401: errorEnvelope,
          403: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request) => {
      await accounts.changePassword(authOf(request), request.body, request.ip);
      return { data: { password_changed: true as const } };
    },
  );
};
