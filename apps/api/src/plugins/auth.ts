import { createHash, timingSafeEqual } from "node:crypto";
import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "#api/errors.ts";

/**
 * Bearer authentication for route `preHandler`s. A missing, empty, malformed or unknown token is
 * always the same 401 `{ "error": "Invalid access token" }` (spec §5, §8): the client learns
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

/** Constant-time string comparison (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** For calls that use the shared public bearer credential (spec §6): reset password, unsubscribe, … */
export const requirePublicBearer: BearerPreHandler = requireBearer((token, request) =>
  safeEqual(token, request.server.config.PUBLIC_API_TOKEN),
);
