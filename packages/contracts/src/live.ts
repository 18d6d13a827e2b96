/**
 * The live events protocol (ADR 033): JSON frames on the WebSocket between a page and the API,
 * relayed unchanged by the web server. This file holds no zod so the browser client stays small.
 */

/** The browser opens `wss://<site>/live`; the web server relays it to the API's main surface. */
export const LIVE_WEB_PATH = "/live";
/** The API's WebSocket, a path of the main API (served as `/api/v1/api/live`, like its other calls). */
export const LIVE_API_PATH = "/api/live";

/** Server → client: one event, ids only (`payload` holds ids and small non-health fields). */
export type LiveEventFrame = { id: number; topic: string; payload: Record<string, unknown> };
/**
 * Server → client: a relayed frame (a typing indicator) that was never stored, so it has no id, is
 * not replayed after a reconnect and does not move the page's resume point.
 */
export type LiveRelayFrame = { topic: string; payload: Record<string, unknown> };

/** Client → server, built in: where to start, and the page's own heartbeat. */
export type LiveResumeFrame = {
  type: "resume";
  /** The last event id the page has seen; omitted or null: only events from now on. */
  after?: number | null;
};
export type LivePingFrame = { type: "ping" };

/** Server → client answers other than events. */
export type LivePongFrame = { type: "pong" };
/**
 * The answer to `resume`, sent once the connection's starting point is set and before any event:
 * from here on every event after that point reaches the page. A page re-reads its data only after
 * this frame, never on the socket's `open`: an event committed between a re-read done at `open` and
 * the server setting the starting point would otherwise reach neither (the missed call ring).
 */
export type LiveResumedFrame = {
  type: "resumed";
  /** The id the connection starts after: the page's own `after`, or the latest event when it had none. */
  after: number;
};
export type LiveErrorFrame = { type: "error"; code: LiveErrorCode; frame_type?: string };
export type LiveServerFrame =
  | LiveEventFrame
  | LiveRelayFrame
  | LivePongFrame
  | LiveResumedFrame
  | LiveErrorFrame;

export const LIVE_ERROR_CODES = Object.freeze({
  /** Not JSON, not an object, or no `type`. */
  badFrame: "BAD_FRAME",
  /** A `type` no handler is registered for. */
  unknownType: "UNKNOWN_TYPE",
  /** The frame's fields do not match its type's schema. */
  invalidFrame: "INVALID_FRAME",
  /** A second `resume` on one connection. */
  alreadyResumed: "ALREADY_RESUMED",
  /** The handler could not process a valid frame. */
  failed: "FRAME_FAILED",
  /** Frames came faster than the socket's rate allows: this one and the rest of the burst are dropped. */
  rateLimited: "RATE_LIMITED",
} as const);
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[keyof typeof LIVE_ERROR_CODES];

/** WebSocket close codes the server uses (4000–4999 are the application's). */
export const LIVE_CLOSE_CODES = Object.freeze({
  /** The session ended (token revoked or expired): the page should not reconnect. */
  unauthorized: 4401,
  /** The other side of the relay went away. */
  upstreamGone: 1011,
  /** The socket kept sending far past its frame rate: closed; the page may reconnect after a pause. */
  tooManyFrames: 4429,
} as const);

/**
 * A visit participant's typing indicator: the page sends `{type: "visit.typing", consultation_id,
 * typing}`; the other side's pages get `{topic: "visit.typing", payload: {consultation_id, side,
 * typing}}`, relayed and never stored.
 */
export const VISIT_TYPING_TOPIC = "visit.typing";
export type VisitTypingFrame = { type: typeof VISIT_TYPING_TOPIC; consultation_id: string; typing: boolean };

/**
 * A visit's chat changed (a message sent or retracted): `{consultation_id, message_id, seq, change}`,
 * with `attachments` (how many files) when the message brought files.
 */
export const VISIT_MESSAGE_TOPIC = "visit.message";

/** Topics are lower-case dotted names such as `visit.status`, `visit.message`, `queue.changed`. */
export const LIVE_TOPIC_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** The part of a server-side WebSocket (`ws`) the heartbeat uses. */
export type PingableSocket = {
  ping(): void;
  terminate(): void;
  on(event: "pong", listener: () => void): unknown;
};

/** Sockets pinged per turn of the event loop in a round: a round of thousands does not hold it. */
export const HEARTBEAT_BATCH = 500;

/** The sockets of one process that the heartbeat pings. */
export type Heartbeat = {
  /** Pings `socket` from the next round on; returns its removal, for the socket's close. */
  add(socket: PingableSocket): () => void;
  /** Sockets being pinged. */
  readonly size: number;
  /** Stops the rounds (the server's close); the sockets are left as they are. */
  stop(): void;
};

/**
 * One ping round per process every `intervalMs` for all its sockets, not a timer per socket: each
 * round terminates the sockets whose pong to the previous round's ping has not come back, and pings
 * the others, HEARTBEAT_BATCH at a time (a round over more sockets yields to the event loop between
 * batches). A dead link (a laptop shut, a proxy that dropped the connection) is therefore noticed
 * within two intervals: the first round after it pings, the next one terminates. A socket added
 * between rounds counts as alive until its first ping. Both the API and the web server's relay use it.
 */
export function createHeartbeat(intervalMs: number, batch = HEARTBEAT_BATCH): Heartbeat {
  /** Each socket's state: whether it answered the last ping (or has not been pinged yet). */
  const sockets = new Map<PingableSocket, { alive: boolean }>();
  let walking = false;

  function walk(entries: Iterator<[PingableSocket, { alive: boolean }]>): void {
    for (let done = 0; done < batch; done += 1) {
      const next = entries.next();
      if (next.done) {
        walking = false;
        return;
      }
      const [socket, state] = next.value;
      if (!state.alive) {
        sockets.delete(socket);
        socket.terminate();
        continue;
      }
      state.alive = false;
      try {
        socket.ping();
      } catch {
        // Not open after all (ws throws while connecting): it is dropped like a dead one.
        sockets.delete(socket);
        socket.terminate();
      }
    }
    setTimeout(() => walk(entries), 0);
  }

  const timer = setInterval(() => {
    // A round still walking (more sockets than the loop can ping in an interval) is not restarted.
    if (walking || sockets.size === 0) return;
    walking = true;
    walk(sockets.entries());
  }, intervalMs);
  (timer as { unref?: () => void }).unref?.();

  return {
    add(socket) {
      const state = { alive: true };
      sockets.set(socket, state);
      socket.on("pong", () => {
        state.alive = true;
      });
      return () => {
        if (sockets.get(socket) === state) sockets.delete(socket);
      };
    },
    get size() {
      return sockets.size;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
