import { VISITOR_HEADER, VISITOR_SIGNATURE_HEADER, verifiedVisitor } from "@ambercare/contracts/visitor";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export type VisitorPluginOptions = {
  /** PUBLIC_API_TOKEN: the secret the web server signs the visitor's address with. */
  secret: string;
};

/**
 * Makes `request.ip` the visitor's address when the web server says, with a valid signature, which
 * visitor it calls for (ADR 025). Every limit, the login throttle, the audit log and the request log
 * then count and record that visitor instead of the web server. Without a valid signature the
 * headers are ignored and `request.ip` stays the peer's address (or TRUST_PROXY's answer).
 *
 * Registered before the rate limiter, whose hook reads `request.ip`.
 */
export const visitorPlugin = fp(
  async (app: FastifyInstance, { secret }: VisitorPluginOptions) => {
    let warnedOfProxy = false;
    app.addHook("onRequest", async (request) => {
      const visitor = verifiedVisitor(
        secret,
        request.headers[VISITOR_HEADER],
        request.headers[VISITOR_SIGNATURE_HEADER],
      );
      if (visitor !== undefined) {
        // Fastify's `ip` is a getter on the request prototype; an own property on this request wins.
        Object.defineProperty(request, "ip", { value: visitor, enumerable: true });
        return;
      }
      const peer = request.socket.remoteAddress;
      if (!warnedOfProxy && request.headers["x-forwarded-for"] !== undefined && request.ip === peer) {
        // A proxy forwards clients here but is not trusted: they all count as the proxy's address.
        warnedOfProxy = true;
        request.log.warn(
          { peer },
          "X-Forwarded-For ignored: set TRUST_PROXY to this proxy's address so limits count its clients apart",
        );
      }
    });
  },
  { name: "ambercare-visitor" },
);
