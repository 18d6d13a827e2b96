import { keepAlive, LIVE_API_PATH, LIVE_CLOSE_CODES } from "@ambercare/contracts/live";
import type { FastifyPluginAsync } from "fastify";
import type { WebSocket } from "ws";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";

/** Frames from a client are small (resume, ping, typing…); a larger one closes the connection. */
export const LIVE_MAX_FRAME_BYTES = 16 * 1024;

/**
 * The live events WebSocket of the main API (ADR 033), for the account of the bearer token: the
 * upgrade is refused with 401 without one, like every other call. The server pings every
 * LIVE_PING_INTERVAL_S; a connection whose pong has not come back by the next ping is closed, and
 * one whose session has ended (logout, idle timeout) is closed with 4401 at the same pace.
 */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const pingIntervalMs = app.config.LIVE_PING_INTERVAL_S * 1000;

  app.get(
    LIVE_API_PATH,
    // An upgrade, not a JSON call: kept out of the OpenAPI document and the route table.
    { websocket: true, onRequest: guards.user, schema: { hide: true } },
    (socket: WebSocket, request) => {
      const { userId, tokenHash } = authOf(request);
      const connection = app.live.connect(userId, (frame) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      });
      const stopHeartbeat = keepAlive(socket, pingIntervalMs);
      // A logout, a password change or the idle timeout ends the session: its socket ends too.
      const sessionCheck = setInterval(() => {
        app.accounts.sessions.isLive(tokenHash).then(
          (live) => {
            if (!live) socket.close(LIVE_CLOSE_CODES.unauthorized);
          },
          (error: unknown) => request.log.warn({ err: error }, "live events: checking the session failed"),
        );
      }, pingIntervalMs);
      sessionCheck.unref();
      socket.on("message", (data, isBinary) => {
        const text = isBinary ? "" : data.toString();
        void connection.receive(text);
      });
      socket.on("close", () => {
        stopHeartbeat();
        clearInterval(sessionCheck);
        connection.close();
      });
      socket.on("error", (error) => {
        // The frames are the user's: only the socket's error is logged.
        request.log.debug({ err: error }, "live events: socket error");
      });
    },
  );
};
