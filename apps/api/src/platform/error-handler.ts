import type { ErrorCode } from "@ambercare/contracts/error-codes";
import { isDatabaseUnavailable } from "@ambercare/db/unavailable";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  ResponseSerializationError,
  type ZodFastifySchemaValidationError,
} from "fastify-type-provider-zod";
import { auditRefusal } from "#api/platform/audit-log.ts";
import { AppError } from "#api/platform/errors.ts";

export const INTERNAL_SERVER_ERROR = "Internal Server Error";
export const NOT_FOUND = "Not found";
/** How long a client should wait before trying again while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After: the database cannot be reached, which says nothing about the request. */
export function databaseUnavailable(cause: unknown): AppError {
  return new AppError("DATABASE_UNAVAILABLE", 503, "Database unavailable", {
    cause,
    headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

type HttpFailure = { status: number; message: string; code: ErrorCode };

const CONTEXT_LABEL: Record<string, string> = {
  body: "body field",
  querystring: "query parameter",
  params: "path parameter",
  headers: "header",
};

/** "Invalid query parameter "lang": Invalid option: expected one of "en"|"bg"" */
export function describeValidationErrors(
  issues: ZodFastifySchemaValidationError[],
  context: string | undefined,
): string {
  const label = CONTEXT_LABEL[context ?? ""] ?? "input";
  const parts = issues.slice(0, 3).map((issue) => {
    const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
    return field === ""
      ? `Invalid ${label.split(" ")[0]}: ${issue.message}`
      : `Invalid ${label} "${field}": ${issue.message}`;
  });
  if (issues.length > 3) parts.push(`and ${issues.length - 3} more`);
  return parts.join("; ");
}

/**
 * Fastify's own 4xx errors (body parsing, content type, size) in words for the client; their
 * default messages are fine for a developer but vary between versions.
 */
const INVALID_JSON: HttpFailure = {
  status: 400,
  message: "Request body is not valid JSON",
  code: "INVALID_JSON",
};
const FASTIFY_CLIENT_ERRORS: Record<string, HttpFailure> = {
  FST_ERR_CTP_INVALID_JSON_BODY: INVALID_JSON,
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: "Request body is empty", code: "EMPTY_BODY" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: "Unsupported content type",
    code: "UNSUPPORTED_MEDIA_TYPE",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: "Content-Length does not match the body",
    code: "BAD_REQUEST",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    message: "Request body is too large",
    code: "PAYLOAD_TOO_LARGE",
  },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, message: "Invalid content type", code: "UNSUPPORTED_MEDIA_TYPE" },
};

const INTERNAL: HttpFailure = { status: 500, message: INTERNAL_SERVER_ERROR, code: "INTERNAL_ERROR" };

function toHttpFailure(error: unknown): HttpFailure {
  if (error instanceof AppError) return { status: error.status, message: error.message, code: error.code };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      status: 400,
      message: describeValidationErrors(error.validation, error.validationContext),
      code: "VALIDATION_FAILED",
    };
  }
  if (error instanceof ResponseSerializationError) return INTERNAL;
  const fastifyError = error as Partial<FastifyError> | null;
  const code = typeof fastifyError?.code === "string" ? fastifyError.code : undefined;
  const known = code ? FASTIFY_CLIENT_ERRORS[code] : undefined;
  if (known) return known;
  const status = fastifyError?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    // A JSON.parse SyntaxError reaches here with statusCode 400 and a parser message.
    if (error instanceof SyntaxError) return INVALID_JSON;
    const message =
      typeof fastifyError?.message === "string" && fastifyError.message
        ? fastifyError.message
        : "Bad request";
    return {
      status,
      message,
      code: status === 404 ? "NOT_FOUND" : status === 429 ? "RATE_LIMITED" : "BAD_REQUEST",
    };
  }
  return INTERNAL;
}

/**
 * The one error handler: every failure leaves as `{ "error": "…", "code": "…" }`. A 5xx is logged with its
 * request id (in the logger's bindings) and answers with a fixed message, so no internals leak.
 */
export async function errorHandler(thrown: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (clientWentAway(thrown, request)) {
    // The caller closed its connection while its body was being read: nothing failed here, and no
    // one is left to answer. Its socket error (ECONNRESET) must not read as the database's.
    request.log.info("the client closed the request before its body was read");
    return reply.code(400).send({ error: "Request aborted", code: "VALIDATION_FAILED" });
  }
  // Recognised by its cause (the driver's connection error), wherever in the request it was thrown.
  const error =
    !(thrown instanceof AppError) && isDatabaseUnavailable(thrown) ? databaseUnavailable(thrown) : thrown;
  const { status, message, code } = toHttpFailure(error);
  if (error instanceof AppError) reply.headers(error.headers);
  if (error instanceof AppError && error.refusedAccess) {
    // Written after any transaction of the request rolled back, so the refusal itself is kept.
    await auditRefusal(request, error.refusedAccess).catch((auditError: unknown) =>
      request.log.error({ err: auditError }, "audit of a refused access failed"),
    );
  }
  if (status >= 500) {
    request.log.error({ err: thrown }, status === 500 ? "request failed" : message);
  }
  return status === 500
    ? reply.code(status).send({ error: INTERNAL_SERVER_ERROR, code: "INTERNAL_ERROR" })
    : reply.code(status).send({
        error: message,
        code,
        ...(error instanceof AppError && error.details ? { details: error.details } : {}),
      });
}

/** The request's own body stream failed because the client aborted it (not a database socket). */
function clientWentAway(thrown: unknown, request: FastifyRequest): boolean {
  const code = (thrown as { code?: unknown } | null)?.code;
  return (code === "ECONNRESET" || code === "ECONNABORTED") && request.raw.readableAborted;
}

/** Registered on the root instance so it covers every route, the 404 handler and both APIs. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(
    // Throttle route scanning like any other request.
    { preHandler: app.rateLimit() },
    async () => {
      throw new AppError("NOT_FOUND", 404, NOT_FOUND);
    },
  );
}
