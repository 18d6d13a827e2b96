import {
  forgotPasswordRequest,
  loginRequest,
  logoutRequest,
  logoutResponse,
  mainRegisterRequest,
  registrationResponse,
  resetMailResponse,
  SIGN_UP_MAIL_SENT,
  userResponse,
} from "@ambercare/contracts/auth";
import { CAPTCHA_ACTIONS } from "@ambercare/contracts/communications";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import { loginStepResponse } from "@ambercare/contracts/second-factor";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";

const bearer = [{ bearerAuth: [] }];

/**
 * The main API's auth calls (served under /api/v1): register, login, me, logout, forgot-password.
 * Register creates no session: the link in the e-mail does (care API `confirm-email`, ADR 032).
 * Register and login need no token; me and logout take a user's token; forgot-password takes the
 * shared public bearer (ADR 003). Register and forgot-password also need a solved captcha (ADR 016).
 */
export const mainAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const guards = createAuthGuards(accounts.sessions);

  app.post(
    "/api/auth/register",
    {
      schema: {
        tags: ["main"],
        summary: "Sign up: the address's owner gets the next step by e-mail (same answer for any address)",
        body: mainRegisterRequest,
        response: { 202: registrationResponse, 400: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request, reply) => {
      const { captcha, ...registration } = request.body;
      await app.communications.captcha.verify(captcha, CAPTCHA_ACTIONS.register, request.ip);
      await accounts.register(registration);
      return reply.code(202).send({ data: { message: SIGN_UP_MAIL_SENT } });
    },
  );

  app.post(
    "/api/auth/login",
    {
      schema: {
        tags: ["main"],
        summary: "Log in with e-mail and password (main API token, or a pending login with a second factor)",
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
    async (request) => accounts.login(request.body, "main", request.ip),
  );

  app.get(
    "/api/auth/me",
    {
      onRequest: guards.user,
      config: { audit: { action: "profile.read", resource: "profile" } },
      schema: {
        tags: ["main"],
        summary: "The account of the bearer token",
        security: bearer,
        response: { 200: userResponse, 401: errorEnvelope, 403: errorEnvelope },
      },
    },
    async (request) => ({ data: await accounts.me(authOf(request)) }),
  );

  app.post(
    "/api/auth/logout",
    {
      onRequest: guards.user,
      schema: {
        tags: ["main"],
        summary: "Revoke the bearer token (either API's); call once per token held",
        security: bearer,
        body: logoutRequest,
        response: { 200: logoutResponse, 400: errorEnvelope, 401: errorEnvelope },
      },
    },
    async (request) => {
      await accounts.logout(authOf(request));
      return { data: { logged_out: true as const } };
    },
  );

  app.post(
    "/api/auth/forgot-password",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["main"],
        summary: "E-mail a password-reset link if the account exists (always 200)",
        security: bearer,
        body: forgotPasswordRequest,
        response: { 200: resetMailResponse, 400: errorEnvelope, 401: errorEnvelope },
      },
    },
    async (request) => {
      await app.communications.captcha.verify(
        request.body.captcha,
        CAPTCHA_ACTIONS.forgotPassword,
        request.ip,
      );
      await accounts.requestPasswordReset(request.body.email);
      return { data: { sent: true as const } };
    },
  );
};
