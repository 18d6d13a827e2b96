import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import { ROLE_ERRORS } from "@ambercare/contracts/roles";
import type { FastifyReply, FastifyRequest } from "fastify";
import { roleRequiresSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import type { AuthContext, SessionService } from "#api/modules/accounts/session-service.ts";
import { safeEqual } from "#api/modules/accounts/tokens.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * Bearer authentication for route `preHandler`s. A missing, empty, malformed or unknown token is
 * always the same 401 `{ "error": "Invalid access token" }` (a missing token reads so too): the client learns
 * nothing about which of these it was.
 */

export type BearerPreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The token of `Authorization: Bearer <token>`, or undefined when absent or malformed. */
export function readBearerToken(request: Pick<FastifyRequest, "headers">): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer +([\x21-\x7E]+) *$/i.exec(header);
  return match?.[1];
}

export function invalidAccessToken(): AppError {
  return new AppError("INVALID_ACCESS_TOKEN", 401, INVALID_ACCESS_TOKEN);
}

/**
 * Builds a preHandler that accepts the request only when `verify` accepts its bearer token.
 * `verify` may attach what it learned (the user, say) to the request before returning true.
 */
export function requireBearer(
  verify: (token: string, request: FastifyRequest) => boolean | Promise<boolean>,
): BearerPreHandler {
  return async (request, reply) => {
    const token = readBearerToken(request);
    if (token === undefined || !(await verify(token, request))) {
      reply.header("www-authenticate", 'Bearer realm="ambercare"');
      throw invalidAccessToken();
    }
  };
}

/** For calls that use the shared public bearer credential (ADR 003): reset password, unsubscribe, … */
export const requirePublicBearer: BearerPreHandler = requireBearer((token, request) =>
  safeEqual(token, request.server.config.PUBLIC_API_TOKEN),
);

declare module "fastify" {
  interface FastifyRequest {
    /** The owner of the request's access token, set by the user and service guards below. */
    auth: AuthContext | null;
  }
}

/** The request's verified token owner; only call it behind `guards.user` or `guards.service`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw invalidAccessToken();
  return request.auth;
}

/** A clinician's request, as `clinicianOf` answers it: the account and the provider it works as. */
export type ClinicianContext = AuthContext & { role: "clinician"; providerId: string };

/**
 * The clinician behind a request that passed `guards.clinician`: `clinicianOf(request).providerId`
 * is the provider whose licences, visit types and visits the clinician works with.
 */
export function clinicianOf(request: FastifyRequest): ClinicianContext {
  const auth = authOf(request);
  if (auth.role !== "clinician" || auth.providerId === null) throw clinicianOnly();
  return { ...auth, role: "clinician", providerId: auth.providerId };
}

function clinicianOnly(): AppError {
  return new AppError("CLINICIAN_ONLY", 403, ROLE_ERRORS.clinicianOnly);
}

function operatorOnly(): AppError {
  return new AppError("OPERATOR_ONLY", 403, ROLE_ERRORS.operatorOnly);
}

/** An operator's request, as `operatorOf` answers it (behind `guards.operator`). */
export type OperatorContext = AuthContext & { role: "operator" };

/** The operator behind a request that passed `guards.operator`. */
export function operatorOf(request: FastifyRequest): OperatorContext {
  const auth = authOf(request);
  if (auth.role !== "operator" || auth.isServiceAccount) throw operatorOnly();
  return { ...auth, role: "operator" };
}

export type AuthGuards = {
  /**
   * A live access token of any account (patients, clinicians, and the service account where routes
   * allow it): for the calls about the account itself (me, logout, password, second factor).
   */
  user: BearerPreHandler;
  /**
   * A patient's calls on their own data (profile, consultations, membership, records, data rights):
   * as `user`, but a clinician's or an operator's token gets 403 PATIENT_ONLY. The service account passes as with
   * `user`; the services refuse it where it acts for nobody.
   */
  patient: BearerPreHandler;
  /**
   * The care console's calls: an active clinician with the second factor on. A patient (or the
   * service account) gets 403 CLINICIAN_ONLY; a clinician still without the factor 403
   * SECOND_FACTOR_SETUP_REQUIRED. Behind it, `clinicianOf(request)` gives the provider id.
   */
  clinician: BearerPreHandler;
  /**
   * A live token of the service account (the web server's credential for a visitor's public care
   * calls); a patient's token gets 403.
   */
  service: BearerPreHandler;
  /**
   * The operations console's calls (ADR 065): an operator with the second factor on. A patient, a
   * clinician or the service account gets 403 OPERATOR_ONLY; an operator still without the factor
   * 403 SECOND_FACTOR_SETUP_REQUIRED.
   */
  operator: BearerPreHandler;
};

/**
 * Guards for route `onRequest` hooks: they run before the body is even parsed, so an anonymous
 * caller learns nothing about a route's input rules. A token from either login (main or care) is
 * accepted on both APIs: the web sends whichever it holds.
 */
export function createAuthGuards(sessions: Pick<SessionService, "authenticate">): AuthGuards {
  const user = requireBearer(async (token, request) => {
    const auth = await sessions.authenticate(token);
    request.auth = auth ?? null;
    return auth !== undefined;
  });
  return {
    user,
    async patient(request, reply) {
      await user(request, reply);
      if (authOf(request).role !== "patient") {
        throw new AppError("PATIENT_ONLY", 403, ROLE_ERRORS.patientOnly);
      }
    },
    async clinician(request, reply) {
      await user(request, reply);
      const auth = authOf(request);
      if (auth.isServiceAccount || auth.role !== "clinician" || auth.providerId === null)
        throw clinicianOnly();
      if (roleRequiresSecondFactor(auth.role) && !auth.secondFactorEnabled) {
        throw new AppError("SECOND_FACTOR_SETUP_REQUIRED", 403, ROLE_ERRORS.secondFactorSetupRequired);
      }
    },
    async operator(request, reply) {
      await user(request, reply);
      const auth = authOf(request);
      if (auth.isServiceAccount || auth.role !== "operator") throw operatorOnly();
      if (roleRequiresSecondFactor(auth.role) && !auth.secondFactorEnabled) {
        throw new AppError(
          "SECOND_FACTOR_SETUP_REQUIRED",
          403,
          ROLE_ERRORS.operatorSecondFactorSetupRequired,
        );
      }
    },
    async service(request, reply) {
      await user(request, reply);
      if (!authOf(request).isServiceAccount) {
        throw new AppError("SERVICE_TOKEN_REQUIRED", 403, AUTH_ERRORS.serviceTokenRequired);
      }
    },
  };
}
