import {
  createHeartbeat,
  LIVE_API_PATH,
  LIVE_CLOSE_CODES,
  LIVE_ERROR_CODES,
} from "@ambercare/contracts/live";
import type { FastifyPluginAsync } from "fastify";
import type { WebSocket } from "ws";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { AppError } from "#api/platform/errors.ts";

/** Frames from a client are small (resume, ping, typing…); a larger one closes the connection. */
export const LIVE_MAX_FRAME_BYTES = 16 * 1024;

/**
 * Open sockets one session may hold on one API process: a page holds one, so this is a dozen tabs.
 * The next upgrade is refused with 429 (the web's relay passes it on), so one stolen or scripted
 * session cannot hold the process's sockets and memory.
 */
export const LIVE_MAX_SOCKETS_PER_SESSION = 12;

/** Sessions checked per read by the live sockets' session check. */
const SESSION_CHECK_BATCH = 500;

/**
 * Frames one socket may send: a burst of LIVE_FRAME_BURST (a call's set-up sends an offer and a few
 * dozen ICE candidates at once), refilled at LIVE_FRAMES_PER_SECOND. Frames past it are dropped with
 * one RATE_LIMITED error per flood; a socket that keeps flooding (LIVE_FRAME_FLOOD dropped without a
 * pause) is closed with 4429.
 */
export const LIVE_FRAME_BURST = 60;
export const LIVE_FRAMES_PER_SECOND = 20;
export const LIVE_FRAME_FLOOD = 300;

/** A token bucket: `take()` is true while the socket is within its frame rate. */
export function createFrameBudget(
  burst: number,
  perSecond: number,
  now: () => number = () => performance.now(),
) {
  let tokens = burst;
  let at = now();
  return {
    take(): boolean {
      const current = now();
      tokens = Math.min(burst, tokens + ((current - at) / 1000) * perSecond);
      at = current;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    /** Whole frames the socket could still send right now. */
    spare(): number {
      return Math.floor(tokens);
    },
  };
}

/** What to do with one frame: handle it, drop it (warning the page on a flood's first), or close. */
export type FrameVerdict = "handle" | "drop" | "warn" | "close";

/**
 * One socket's frame policy. A frame let through by a token refilled in the middle of a flood
 * (one every 50 ms at 20/s, while the server is slow to read a queue of frames) does not end the
 * flood: the count and its one error start again only once the socket has paused long enough to
 * hold a spare frame after this one. Without that, a flood read slowly is never closed and the
 * page gets an error per refill.
 */
export function createFrameGate(burst: number, perSecond: number, flood: number, now?: () => number) {
  const budget = createFrameBudget(burst, perSecond, now);
  let dropped = 0;
  return (): FrameVerdict => {
    if (budget.take()) {
      if (budget.spare() >= 1) dropped = 0;
      return "handle";
    }
    dropped += 1;
    if (dropped >= flood) return "close";
    return dropped === 1 ? "warn" : "drop";
  };
}

/**
 * The live events WebSocket of the main API (ADR 033), for the account of the bearer token: the
 * upgrade is refused with 401 without one, like every other call. Every LIVE_PING_INTERVAL_S the
 * process pings all its sockets in one round (createHeartbeat: one timer, not one per socket); a
 * connection whose pong has not come back by the next round is closed, and one whose session has
 * ended (logout, idle timeout) is closed with 4401 at the same pace.
 */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const pingIntervalMs = app.config.LIVE_PING_INTERVAL_S * 1000;
  /** Open sockets per session (token hash) on this process. */
  const openBySession = new Map<string, number>();
  /** Each open socket's session, for the check below. */
  const sessionOf = new Map<WebSocket, string>();
  const heartbeat = createHeartbeat(pingIntervalMs);

  /**
   * Every LIVE_PING_INTERVAL_S, the sessions of all the open sockets are checked in one read per
   * SESSION_CHECK_BATCH (not one read per socket: an idle process with thousands of sockets would
   * spend its time there), and the sockets of the sessions that ended are closed with 4401.
   */
  async function checkSessions(): Promise<void> {
    const hashes = [...new Set(sessionOf.values())];
    for (let start = 0; start < hashes.length; start += SESSION_CHECK_BATCH) {
      const batch = hashes.slice(start, start + SESSION_CHECK_BATCH);
      const live = await app.accounts.sessions.liveAmong(batch);
      const ended = new Set(batch.filter((hash) => !live.has(hash)));
      if (ended.size === 0) continue;
      for (const [socket, hash] of sessionOf) {
        if (ended.has(hash)) socket.close(LIVE_CLOSE_CODES.unauthorized);
      }
    }
  }
  let checking = false;
  const sessionTimer = setInterval(() => {
    if (checking || sessionOf.size === 0) return;
    checking = true;
    checkSessions()
      .catch((error: unknown) => app.log.warn({ err: error }, "live events: checking the sessions failed"))
      .finally(() => {
        checking = false;
      });
  }, pingIntervalMs);
  sessionTimer.unref();
  app.addHook("onClose", async () => {
    clearInterval(sessionTimer);
    heartbeat.stop();
  });

  app.get(
    LIVE_API_PATH,
    // An upgrade, not a JSON call: kept out of the OpenAPI document and the route table.
    {
      websocket: true,
      onRequest: guards.user,
      preHandler: async (request) => {
        const open = openBySession.get(authOf(request).tokenHash) ?? 0;
        if (open >= LIVE_MAX_SOCKETS_PER_SESSION) {
          throw new AppError("RATE_LIMITED", 429, "Too many open pages for this session.", {
            headers: { "retry-after": "10" },
          });
        }
      },
      schema: { hide: true },
    },
    (socket: WebSocket, request) => {
      const { userId, tokenHash } = authOf(request);
      openBySession.set(tokenHash, (openBySession.get(tokenHash) ?? 0) + 1);
      const gate = createFrameGate(LIVE_FRAME_BURST, LIVE_FRAMES_PER_SECOND, LIVE_FRAME_FLOOD);
      const connection = app.live.connect(userId, (frame) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
      });
      const stopHeartbeat = heartbeat.add(socket);
      // A logout, a password change or the idle timeout ends the session: its socket ends too.
      sessionOf.set(socket, tokenHash);
      socket.on("message", (data, isBinary) => {
        const verdict = gate();
        if (verdict === "warn" && socket.readyState === socket.OPEN) {
          socket.send(JSON.stringify({ type: "error", code: LIVE_ERROR_CODES.rateLimited }));
        }
        if (verdict === "close") socket.close(LIVE_CLOSE_CODES.tooManyFrames);
        if (verdict !== "handle") return;
        const text = isBinary ? "" : data.toString();
        void connection.receive(text);
      });
      socket.on("close", () => {
        const left = (openBySession.get(tokenHash) ?? 1) - 1;
        if (left > 0) openBySession.set(tokenHash, left);
        else openBySession.delete(tokenHash);
        stopHeartbeat();
        sessionOf.delete(socket);
        connection.close();
      });
      socket.on("error", (error) => {
        // The frames are the user's: only the socket's error is logged.
        request.log.debug({ err: error }, "live events: socket error");
      });
    },
  );
};
