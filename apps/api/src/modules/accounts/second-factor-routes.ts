import { loginResponse, logoutRequest } from "@ambercare/contracts/auth";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import {
  confirmSecondFactorRequest,
  disableSecondFactorRequest,
  lostDeviceRequest,
  lostDeviceResetRequest,
  lostDeviceResponse,
  recoveryCodesResponse,
  secondFactorDisabledResponse,
  secondFactorLoginRequest,
  secondFactorSetupResponse,
  secondFactorStatusResponse,
} from "@ambercare/contracts/second-factor";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";

const bearer = [{ bearerAuth: [] }];
const refusals = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 409: errorEnvelope };

/**
 * The main API's second-factor calls (served under /api/v1, ADR 024): the patient's own setup
 * (their token), the second login step (no token, like login), and the lost-device link (the shared
 * public bearer, like forgot-password).
 */
export const secondFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const accounts = app.accounts;
  const secondFactor = accounts.secondFactor;
  const guards = createAuthGuards(accounts.sessions);

  app.get(
    "/api/auth/second-factor",
    {
      onRequest: guards.user,
      schema: {
        tags: ["main"],
        summary: "Whether the second factor is on; the secret only while a setup waits for its first code",
        security: bearer,
        response: { 200: secondFactorStatusResponse, ...refusals },
      },
    },
    async (request) => ({ data: await secondFactor.status(authOf(request)) }),
  );

  app.post(
    "/api/auth/second-factor/setup",
    {
      onRequest: guards.user,
      schema: {
        tags: ["main"],
        summary: "Start setting up TOTP: a new secret and its otpauth:// URI (replaces an unconfirmed one)",
        security: bearer,
        body: logoutRequest,
        response: { 200: secondFactorSetupResponse, ...refusals },
      },
    },
    async (request) => ({ data: await secondFactor.startSetup(authOf(request)) }),
  );

  app.post(
    "/api/auth/second-factor/confirm",
    {
      onRequest: guards.user,
      schema: {
        tags: ["main"],
        summary: "Switch TOTP on with a current code; answers the 10 recovery codes, this once",
        security: bearer,
        body: confirmSecondFactorRequest,
        response: { 200: recoveryCodesResponse, ...refusals },
      },
    },
    async (request) => {
      const codes = await secondFactor.confirmSetup(authOf(request), request.body.code, request.ip);
      return { data: { recovery_codes: codes } };
    },
  );

  app.post(
    "/api/auth/second-factor/disable",
    {
      onRequest: guards.user,
      schema: {
        tags: ["main"],
        summary: "Turn the second factor off with the password and a current code (or a recovery code)",
        security: bearer,
        body: disableSecondFactorRequest,
        response: { 200: secondFactorDisabledResponse, 429: errorEnvelope, ...refusals },
      },
    },
    async (request) => {
      await secondFactor.disable(authOf(request), request.body, request.ip);
      return { data: { second_factor_disabled: true as const } };
    },
  );

  app.post(
    "/api/auth/second-factor/recovery-codes",
    {
      onRequest: guards.user,
      schema: {
        tags: ["main"],
        summary:
          "Ten new recovery codes (the earlier ones stop working), with the password and a current code",
        security: bearer,
        body: disableSecondFactorRequest,
        response: { 200: recoveryCodesResponse, 429: errorEnvelope, ...refusals },
      },
    },
    async (request) => {
      const codes = await secondFactor.replaceRecoveryCodes(authOf(request), request.body, request.ip);
      return { data: { recovery_codes: codes } };
    },
  );

  app.post(
    "/api/auth/login/second-factor",
    {
      schema: {
        tags: ["main"],
        summary: "The second login step: the pending login's token and a code (main API token)",
        body: secondFactorLoginRequest,
        response: { 200: loginResponse, 400: errorEnvelope, 401: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) =>
      secondFactor.completeLogin(
        { pendingLoginToken: request.body.pending_login_token, code: request.body.code },
        "main",
        request.ip,
      ),
  );

  app.post(
    "/api/auth/login/lost-device",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["main"],
        summary: "E-mail a single-use link that turns the second factor off (needs a pending login)",
        security: bearer,
        body: lostDeviceRequest,
        response: { 200: lostDeviceResponse, 400: errorEnvelope, 401: errorEnvelope },
      },
    },
    async (request) => {
      await secondFactor.requestLostDeviceLink(request.body.pending_login_token);
      return { data: { sent: true as const } };
    },
  );

  app.post(
    "/api/auth/second-factor/reset",
    {
      onRequest: requirePublicBearer,
      schema: {
        tags: ["main"],
        summary: "Turn the second factor off with the e-mailed link and the password",
        security: bearer,
        body: lostDeviceResetRequest,
        response: {
          200: secondFactorDisabledResponse,
          400: errorEnvelope,
          401: errorEnvelope,
          429: errorEnvelope,
        },
      },
    },
    async (request) => {
      await secondFactor.resetWithLink(request.body, request.ip);
      return { data: { second_factor_disabled: true as const } };
    },
  );
};
