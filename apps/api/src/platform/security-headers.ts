import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import helmet, { type HelmetOptions } from "helmet";

/**
 * The security headers helmet sets with `options`, worked out once. Every middleware of helmet 8
 * sets the same headers whatever the request (no CSP nonce or other per-request directive is used
 * here), so running its chain on each answer, as @fastify/helmet does, only repeated the work: it was
 * a seventh of the API's CPU under a search load (a profile of 2026-11-25).
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  // helmet runs its middlewares synchronously; a later version that did not would set nothing here.
  if (!done) throw new Error("helmet did not finish synchronously: its headers cannot be worked out once");
  return headers;
}

/** Sets helmet's headers (worked out once) on every answer of the app. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const headers = helmetHeaders(options);
    app.addHook("onRequest", (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: "security-headers" },
);
