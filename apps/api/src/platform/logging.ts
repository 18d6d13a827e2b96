import type { FastifyRequest } from "fastify";

/**
 * What the API writes to its logs about requests and errors. The rule: no secrets and no health
 * data. Bodies are never logged; query strings are dropped (a search for a condition is health
 * data); authorization and cookie headers are redacted in case a future serializer adds headers.
 */

export const REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: stripQuery(request.url),
    remoteAddress: request.ip,
  };
}

function stripQuery(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : `${url.slice(0, q)}?…`;
}

/**
 * Keeps an error's type, SQLSTATE/Fastify code, message and stack, and drops every other field:
 * node-postgres errors carry `detail` ("Key (email)=(…) already exists") and Drizzle's
 * DrizzleQueryError carries `params`, both of which can hold a patient's data.
 */
export type SerializedError = { type: string; message: string; stack: string; [key: string]: unknown };

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: "non-Error thrown", stack: "" };
  const out: SerializedError = {
    type: error.constructor?.name || error.name,
    message: scrub(error.message),
    stack: scrub(error.stack ?? ""),
  };
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") out.code = code;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  if (typeof statusCode === "number") out.statusCode = statusCode;
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

function scrub(text: string): string {
  return (
    text
      // DrizzleQueryError: "Failed query: <sql>\nparams: <values>" (the stack repeats the message).
      .replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, "\nparams: [redacted]")
      // PostgreSQL echoes the offending input: invalid input syntax for type integer: "…"
      .replace(/(: )"(?:[^"\\]|\\.)*"(?=$|\n)/gm, '$1"[redacted]"')
  );
}
