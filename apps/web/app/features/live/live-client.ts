import { LIVE_CLOSE_CODES, LIVE_WEB_PATH, type LiveServerFrame } from "@ambercare/contracts/live";

/**
 * The page's live events connection (ADR 033): one WebSocket per tab to `/live` on the site, shared
 * by every component that listens. It resumes from the last event it saw after every reconnect
 * (the server replays what was missed, in order) and is "connected" only once the server answers
 * that it has resumed. It reconnects with exponential back-off and jitter, and finds a dead link by
 * its own pings going unanswered. Loaded only by pages that use it.
 */

export type LiveState = "connecting" | "connected" | "reconnecting" | "offline";
/**
 * An event of a topic the page listens to. `id` is null for a relayed frame that was never stored
 * (a typing indicator): it is not replayed and does not move the resume point.
 */
export type LiveEvent = { id: number | null; topic: string; payload: Record<string, unknown> };
export type LiveListener = (event: LiveEvent) => void;

/** The smallest part of the browser's WebSocket the client uses (tests give their own). */
export type LiveSocket = {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
};

export type LiveClientOptions = {
  url: string;
  openSocket(url: string): LiveSocket;
  /** Whether the browser thinks it is online (navigator.onLine). */
  isOnline?(): boolean;
  /** Calls `listener` when the browser comes back online; returns the unsubscribe. */
  onOnline?(listener: () => void): () => void;
  /** Calls `listener` when the browser goes offline; returns the unsubscribe. */
  onOffline?(listener: () => void): () => void;
  random?(): number;
  setTimer?(run: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
  /** How often the page pings (app level) while connected. */
  pingIntervalMs?: number;
  /** How long a ping may go unanswered (by its pong or any other frame) before the link is dead. */
  pongTimeoutMs?: number;
};

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
const OPEN = 1;

/**
 * The wait before reconnect attempt `attempt` (0 for the first): exponential from 0.5 s, capped at
 * 30 s, of which a random half ("equal jitter") so pages cut off together do not all come back in
 * the same second, and none waits less than half of its step.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(step / 2 + random() * (step / 2));
}

export type LiveClient = {
  readonly state: LiveState;
  /** The last event id seen (what the next connection resumes after). */
  readonly lastEventId: number | null;
  /** Listens to events of `topics` (an empty list: every topic); returns the unsubscribe. */
  subscribe(topics: readonly string[], listener: LiveListener): () => void;
  onState(listener: (state: LiveState) => void): () => void;
  /**
   * Sends a frame to the API (a typing indicator) if the link is up; returns whether it was sent.
   * Nothing is queued: what must arrive goes through an HTTP call.
   */
  send(frame: { type: string } & Record<string, unknown>): boolean;
  /** Closes for good (no reconnect). */
  close(): void;
};

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const random = options.random ?? Math.random;
  const isOnline = options.isOnline ?? (() => true);
  const pingIntervalMs = options.pingIntervalMs ?? 15_000;
  const pongTimeoutMs = options.pongTimeoutMs ?? 10_000;

  const listeners = new Set<{ topics: ReadonlySet<string>; listener: LiveListener }>();
  const stateListeners = new Set<(state: LiveState) => void>();
  let state: LiveState = "connecting";
  let socket: LiveSocket | null = null;
  let lastEventId: number | null = null;
  let attempt = 0;
  let retryTimer: unknown = null;
  let pingTimer: unknown = null;
  let pongTimer: unknown = null;
  let closed = false;
  const stopOnline = options.onOnline?.(() => {
    if (state === "offline" && !closed) {
      cancelRetry();
      connect();
    }
  });

  // The browser knows its network is gone: the open socket is dead, though nothing tells it so
  // until the heartbeat's ping goes unanswered (up to pingIntervalMs + pongTimeoutMs, 25 s). Say
  // "offline" now and connect again when the browser is back online; the resume point is kept,
  // so nothing sent meanwhile is missed.
  const stopOffline = options.onOffline?.(() => {
    if (!closed) goOffline();
  });

  const setState = (next: LiveState) => {
    if (next === state) return;
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const cancelRetry = () => {
    if (retryTimer !== null) clearTimer(retryTimer);
    retryTimer = null;
  };

  /** Lets the socket go with any pending reconnect, and says "offline". */
  const goOffline = () => {
    cancelRetry();
    dropSocket();
    setState("offline");
  };

  const stopHeartbeat = () => {
    if (pingTimer !== null) clearTimer(pingTimer);
    if (pongTimer !== null) clearTimer(pongTimer);
    pingTimer = null;
    pongTimer = null;
  };

  const scheduleHeartbeat = () => {
    stopHeartbeat();
    pingTimer = setTimer(() => {
      pingTimer = null;
      if (!socket || socket.readyState !== OPEN) return;
      socket.send(JSON.stringify({ type: "ping" }));
      pongTimer = setTimer(() => {
        pongTimer = null;
        // No answer: the link is dead even if the browser has not noticed. Start again.
        dropSocket();
        scheduleReconnect();
      }, pongTimeoutMs);
    }, pingIntervalMs);
  };

  /** Any frame proves the link alive. */
  const heard = () => {
    attempt = 0;
    scheduleHeartbeat();
  };

  const dropSocket = () => {
    stopHeartbeat();
    const current = socket;
    socket = null;
    if (!current) return;
    current.onopen = null;
    current.onmessage = null;
    current.onclose = null;
    current.onerror = null;
    current.close();
  };

  const notify = (event: LiveEvent) => {
    for (const { topics, listener } of listeners) {
      if (topics.size === 0 || topics.has(event.topic)) listener(event);
    }
  };

  const deliver = (frame: LiveServerFrame) => {
    if ("type" in frame && frame.type === "resumed") {
      setState("connected");
      return;
    }
    if (!("topic" in frame) || typeof frame.topic !== "string") return;
    if (!("id" in frame)) {
      // Relayed, never stored: only for now, and without a place in the order of events.
      notify({ id: null, topic: frame.topic, payload: frame.payload ?? {} });
      return;
    }
    if (typeof frame.id !== "number") return;
    // After a reconnect the replay starts after the last id seen; anything at or before it is old.
    if (lastEventId !== null && frame.id <= lastEventId) return;
    lastEventId = frame.id;
    notify(frame);
  };

  function connect(): void {
    if (closed) return;
    if (!isOnline()) {
      setState("offline");
      return;
    }
    const current = options.openSocket(options.url);
    socket = current;
    current.onopen = () => {
      // Not "connected" yet: that waits for the server's `resumed`, after which no event can be
      // missed, so what a page re-reads on "connected" is never older than what it is sent next.
      current.send(JSON.stringify({ type: "resume", after: lastEventId }));
      scheduleHeartbeat();
    };
    current.onmessage = (message) => {
      heard();
      if (typeof message.data !== "string") return;
      let frame: LiveServerFrame;
      try {
        frame = JSON.parse(message.data) as LiveServerFrame;
      } catch {
        return;
      }
      deliver(frame);
    };
    current.onerror = () => undefined;
    current.onclose = (event) => {
      socket = null;
      stopHeartbeat();
      if (closed) return;
      if (event.code === LIVE_CLOSE_CODES.unauthorized) {
        // The session ended: a new page load (and login) starts again.
        setState("offline");
        return;
      }
      scheduleReconnect();
    };
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer !== null) return;
    if (!isOnline()) {
      setState("offline");
      return;
    }
    setState("reconnecting");
    const delay = backoffDelay(attempt, random);
    attempt += 1;
    retryTimer = setTimer(() => {
      retryTimer = null;
      connect();
    }, delay);
  }

  const start = () => {
    if (socket === null && retryTimer === null && !closed && state !== "offline") connect();
  };

  return {
    get state() {
      return state;
    },
    get lastEventId() {
      return lastEventId;
    },
    subscribe(topics, listener) {
      const entry = { topics: new Set(topics), listener };
      listeners.add(entry);
      start();
      return () => {
        listeners.delete(entry);
      };
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => {
        stateListeners.delete(listener);
      };
    },
    send(frame) {
      if (state !== "connected" || !socket || socket.readyState !== OPEN) return false;
      socket.send(JSON.stringify(frame));
      return true;
    },
    close() {
      closed = true;
      stopOnline?.();
      stopOffline?.();
      goOffline();
    },
  };
}

let tabClient: LiveClient | undefined;

/** The tab's one client, to `ws(s)://<this site>/live`. */
export function liveClientOfTab(): LiveClient {
  tabClient ??= createLiveClient({
    url: `${window.location.protocol === "https:" ? "wss:" : "ws:"}//${window.location.host}${LIVE_WEB_PATH}`,
    openSocket: (url) => new WebSocket(url) as unknown as LiveSocket,
    isOnline: () => navigator.onLine,
    onOnline(listener) {
      window.addEventListener("online", listener);
      return () => window.removeEventListener("online", listener);
    },
    onOffline(listener) {
      window.addEventListener("offline", listener);
      return () => window.removeEventListener("offline", listener);
    },
  });
  return tabClient;
}
