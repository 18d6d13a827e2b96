import { EventEmitter } from "node:events";
import type { DbHandle, Executor } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type { LiveRepository } from "#api/modules/live/live-repository.ts";

/** That a recipient has a new event; the event itself is read from live_events. */
export type LiveNote = { userId: string; id: number };

/**
 * A frame for the open pages of some accounts that is never stored (a typing indicator): it reaches
 * the pages connected at that moment, on any process, and nobody else, not even after a reconnect.
 */
export type LiveRelay = { userIds: string[]; topic: string; payload: Record<string, unknown> };

/**
 * How the API processes learn that an event was published (ADR 033). The note only wakes the
 * recipient's connections up: they read what is new from the table, so a lost or doubled note never
 * loses or doubles an event.
 */
export interface LiveSignal {
  /** Sends the notes of rows just inserted by `tx`; they take effect once `tx` commits. */
  announce(tx: Executor, notes: readonly LiveNote[]): Promise<void>;
  /**
   * `onNote` for each note from any process; `onResync` when notes may have been lost (the link to
   * the database was down) so every connection looks again.
   */
  subscribe(
    onNote: (note: LiveNote) => void,
    onResync: () => void,
    onRelay: (relay: LiveRelay) => void,
  ): void;
  /** Hands `relay` to every process's `onRelay` now (no transaction: there is nothing to commit). */
  relay(relay: LiveRelay): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = "live_events";
/** Relayed frames travel whole in the notification (ids and flags only, far below its 8000 bytes). */
export const LIVE_RELAY_CHANNEL = "live_relay";

/**
 * PGlite: one process owns the database, so an in-process emitter reaches every connection. A note is
 * emitted on the next turn of the event loop; a connection's read then waits behind the publishing
 * transaction (PGlite runs one transaction at a time) and sees its rows once committed, or none after a
 * rollback.
 */
export function createInProcessSignal(): LiveSignal {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async announce(_tx, notes) {
      setImmediate(() => {
        for (const note of notes) emitter.emit("note", note);
      });
    },
    subscribe(onNote, _onResync, onRelay) {
      emitter.on("note", onNote);
      emitter.on("relay", onRelay);
    },
    async relay(relay) {
      emitter.emit("relay", relay);
    },
    async start() {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/** A `pg` client of its own (not one of the pool's): the shape this module uses. */
type ListenClient = {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  on(event: "notification", listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: "error" | "end", listener: (error?: Error) => void): void;
  end(): Promise<void>;
};
type ListenClientClass = new (config: unknown) => ListenClient;

/**
 * PostgreSQL: `NOTIFY live_events` in the publishing transaction (delivered by the server on commit,
 * dropped on rollback) and one connection per process that LISTENs. The notification carries the
 * event id and its recipient only. When the listening connection fails it is opened again (with
 * back-off) and every connection re-reads, since notifications sent meanwhile are gone.
 */
export function createPostgresSignal(deps: {
  db: DbHandle;
  repository: LiveRepository;
  log: FastifyBaseLogger;
}): LiveSignal {
  const { driver } = deps.db;
  if (driver.kind !== "postgres") throw new Error("createPostgresSignal needs a PostgreSQL database");
  const { pool } = driver;
  const noteListeners: Array<(note: LiveNote) => void> = [];
  const resyncListeners: Array<() => void> = [];
  const relayListeners: Array<(relay: LiveRelay) => void> = [];
  let client: ListenClient | undefined;
  // The pool's own client class and settings: the listening connection is outside the pool, so
  // closing the pool (the database handle) never waits for it, and it never takes a pooled slot.
  const { Client, options } = pool as unknown as { Client: ListenClientClass; options: unknown };
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;

  const onRelayNotification = (payload: string) => {
    let relay: LiveRelay;
    try {
      const parsed = JSON.parse(payload) as Partial<LiveRelay>;
      if (!Array.isArray(parsed.userIds) || typeof parsed.topic !== "string") return;
      relay = { userIds: parsed.userIds.map(String), topic: parsed.topic, payload: parsed.payload ?? {} };
    } catch {
      return;
    }
    for (const listener of relayListeners) listener(relay);
  };

  const onNotification = (message: { channel: string; payload?: string }) => {
    if (message.channel === LIVE_RELAY_CHANNEL && message.payload)
      return onRelayNotification(message.payload);
    if (message.channel !== LIVE_CHANNEL || !message.payload) return;
    let note: LiveNote;
    try {
      const parsed = JSON.parse(message.payload) as { id?: unknown; user_id?: unknown };
      if (typeof parsed.id !== "number" || typeof parsed.user_id !== "string") return;
      note = { id: parsed.id, userId: parsed.user_id };
    } catch {
      return;
    }
    for (const listener of noteListeners) listener(note);
  };

  async function connect(): Promise<void> {
    // A connection of its own, kept for as long as the process listens (ended on close).
    const connection = new Client(options);
    // Until it is wired below, a failure of the socket must not be an unhandled "error" event.
    connection.on("error", () => undefined);
    try {
      await connection.connect();
    } catch (error) {
      connection.end().catch(() => undefined);
      if (!closed) scheduleReconnect();
      throw error;
    }
    let lost = false;
    const onLost = (error?: Error) => {
      // After close() the connection was released there; its end is expected.
      if (lost || closed) return;
      lost = true;
      client = undefined;
      connection.end().catch(() => undefined);
      deps.log.warn({ err: error }, "live events: the listening database connection was lost");
      scheduleReconnect();
    };
    connection.on("error", onLost);
    connection.on("end", onLost);
    connection.on("notification", onNotification);
    try {
      await connection.query(`LISTEN ${LIVE_CHANNEL}`);
      await connection.query(`LISTEN ${LIVE_RELAY_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    if (closed) {
      // close() ran while this connection was being opened: nothing else would end it.
      connection.end().catch(() => undefined);
      return;
    }
    client = connection;
    failures = 0;
  }

  function scheduleReconnect(): void {
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** failures);
    failures += 1;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          for (const listener of resyncListeners) listener();
        },
        () => undefined,
      );
    }, delay);
    retryTimer.unref();
  }

  return {
    async announce(tx, notes) {
      await deps.repository.notifyPostgres(
        tx,
        LIVE_CHANNEL,
        notes.map((note) => note.id),
      );
    },
    subscribe(onNote, onResync, onRelay) {
      noteListeners.push(onNote);
      resyncListeners.push(onResync);
      relayListeners.push(onRelay);
    },
    async relay(relay) {
      await deps.repository.notifyRelay(LIVE_RELAY_CHANNEL, JSON.stringify(relay));
    },
    async start() {
      try {
        await connect();
      } catch (error) {
        // The database is down while the API starts: the API still starts and answers 503 until the
        // database is back, and the listener keeps retrying (connect scheduled it); the resync after
        // it reconnects reads whatever was published meanwhile.
        deps.log.warn({ err: error }, "live events: cannot listen to the database yet; retrying");
      }
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const connection = client;
      client = undefined;
      if (!connection) return;
      await connection.query("UNLISTEN *").catch(() => undefined);
      await connection.end().catch(() => undefined);
    },
  };
}
