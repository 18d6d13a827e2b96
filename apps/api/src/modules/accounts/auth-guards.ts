import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import type { FastifyReply, FastifyRequest } from "fastify";
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

export type AuthGuards = {
  /** A live access token of any account (patients, and the service account where routes allow it). */
  user: BearerPreHandler;
  /**
   * A live token of the service account (the web server's credential for a visitor's public care
   * calls); a patient's token gets 403.
   */
  service: BearerPreHandler;
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
    async service(request, reply) {
      await user(request, reply);
      if (!authOf(request).isServiceAccount) {
        throw new AppError("SERVICE_TOKEN_REQUIRED", 403, AUTH_ERRORS.serviceTokenRequired);
      }
    },
  };
}
