import type { Server } from "node:http";

/**
 * How long an idle keep-alive connection stays open. Node closes one after 5 s by default, shorter
 * than browsers and proxies keep theirs (a minute or more): a visitor who clicks after reading for
 * five seconds sends the request on a connection the server is closing at that moment, and gets a
 * connection reset instead of a page. The server must be the side that waits longer, so its close
 * never races a client's reuse; 65 s outlasts the common 60 s idle timeout of load balancers.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Sets the web server's connection timeouts (server.mjs calls it on the listening server). */
export function configureConnections(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // The time allowed for a request's headers must outlast the idle time, or a request arriving on
  // a connection that has been idle almost as long could be cut off.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
