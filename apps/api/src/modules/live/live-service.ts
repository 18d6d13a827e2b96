import {
  LIVE_ERROR_CODES,
  LIVE_TOPIC_PATTERN,
  type LiveErrorCode,
  type LiveServerFrame,
} from "@ambercare/contracts/live";
import type { Database, Executor } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { LiveRepository } from "#api/modules/live/live-repository.ts";
import type { LiveNote, LiveRelay, LiveSignal } from "#api/modules/live/live-signal.ts";

/** Events read per query when a connection catches up; it reads again until it has them all. */
const READ_BATCH = 200;
/** The payload is for ids and small fields: content is fetched from the API by the page. */
const MAX_PAYLOAD_BYTES = 2048;

/** What a handler of client frames knows about the connection the frame came on. */
export type LiveMessageContext = {
  /** The account the connection's token belongs to. */
  userId: string;
  /** Sends a frame to this connection only. */
  send(frame: Record<string, unknown>): void;
};

type Handler = {
  schema: z.ZodType;
  handle(message: unknown, context: LiveMessageContext): void | Promise<void>;
};

/** One open WebSocket of one account, as the service sees it (the routes own the socket). */
export type LiveConnection = {
  readonly userId: string;
  /** Hands the client's frame (raw text) to its handler; answers bad frames with an error frame. */
  receive(raw: string): Promise<void>;
  /** Stops delivery; call when the socket closes. */
  close(): void;
};

const frameHead = z.object({ type: z.string().min(1).max(64) }).loose();
const resumeFrame = z
  .object({ type: z.literal("resume"), after: z.number().int().min(0).nullish() })
  .strict();
const pingFrame = z.object({ type: z.literal("ping") }).strict();

export class LivePayloadError extends Error {
  override name = "LivePayloadError";
}

/**
 * Live events (ADR 033): `publish` writes one row per recipient (inside the caller's transaction when
 * given one) and signals every API process; each process delivers to its open connections of those
 * recipients by reading the table after the connection's last delivered id. Delivery is therefore
 * in id order, with no gap and no duplicate, whether it is a replay after a reconnect or live.
 */
export function createLiveService(deps: {
  db: Database;
  repository: LiveRepository;
  signal: LiveSignal;
  log: FastifyBaseLogger;
}) {
  const { repository, signal, log } = deps;
  const connectionsByUser = new Map<string, Set<Pump>>();
  const handlers = new Map<string, Handler>();

  type Pump = {
    userId: string;
    /** The last id delivered; null until the client has said where to start. */
    cursor: number | null;
    running: Promise<void> | null;
    again: boolean;
    closed: boolean;
    send(frame: LiveServerFrame | Record<string, unknown>): void;
  };

  function wake(pump: Pump): void {
    if (pump.closed || pump.cursor === null) return;
    if (pump.running !== null) {
      pump.again = true;
      return;
    }
    pump.running = drain(pump).finally(() => {
      pump.running = null;
    });
  }

  async function drain(pump: Pump): Promise<void> {
    do {
      pump.again = false;
      let batch: Awaited<ReturnType<LiveRepository["listAfter"]>>;
      do {
        if (pump.closed || pump.cursor === null) return;
        try {
          batch = await repository.listAfter(pump.userId, pump.cursor, READ_BATCH);
        } catch (error) {
          // The next note or heartbeat wakes the connection again; nothing was lost.
          log.warn({ err: error }, "live events: reading new events failed");
          return;
        }
        for (const event of batch) {
          if (pump.closed) return;
          pump.send({ id: event.id, topic: event.topic, payload: event.payload });
          pump.cursor = event.id;
        }
      } while (batch.length === READ_BATCH);
    } while (pump.again);
  }

  function onNote(note: LiveNote): void {
    const pumps = connectionsByUser.get(note.userId);
    if (!pumps) return;
    for (const pump of pumps) {
      if (pump.cursor !== null && note.id <= pump.cursor) continue;
      wake(pump);
    }
  }

  function resyncAll(): void {
    for (const pumps of connectionsByUser.values()) for (const pump of pumps) wake(pump);
  }

  function onRelay(relay: LiveRelay): void {
    for (const userId of new Set(relay.userIds)) {
      for (const pump of connectionsByUser.get(userId) ?? []) {
        // A page that has not resumed yet gets nothing, like events: it is not listening yet.
        if (!pump.closed && pump.cursor !== null) pump.send({ topic: relay.topic, payload: relay.payload });
      }
    }
  }

  function checkFrame(topic: string, payload: Record<string, unknown>): void {
    if (!LIVE_TOPIC_PATTERN.test(topic)) throw new LivePayloadError(`live events: bad topic "${topic}"`);
    if (JSON.stringify(payload).length > MAX_PAYLOAD_BYTES) {
      throw new LivePayloadError(`live events: the payload of "${topic}" is over ${MAX_PAYLOAD_BYTES} bytes`);
    }
  }

  signal.subscribe(onNote, resyncAll, onRelay);

  function registerHandler<S extends z.ZodType>(
    type: string,
    schema: S,
    handle: (message: z.infer<S>, context: LiveMessageContext) => void | Promise<void>,
  ): void {
    if (handlers.has(type)) throw new Error(`live events: a handler for "${type}" is already registered`);
    handlers.set(type, { schema, handle: handle as Handler["handle"] });
  }

  registerHandler("ping", pingFrame, (_message, context) => context.send({ type: "pong" }));

  return {
    /**
     * Sends an event to each recipient's open pages (and keeps it a day for their replay). Pass the
     * transaction when the event belongs to a change: it is sent if, and only if, the change commits.
     * `payload` holds ids and small non-health fields (at most 2 KiB of JSON): pages fetch content
     * from the API. Returns the new event ids, one per distinct recipient. `author`, when given, is
     * the account whose own write the event reports (a chat message's writer): delivered to like
     * everyone, but what else follows a live event (a device notification) may leave it out.
     */
    async publish(
      recipientUserIds: readonly string[],
      topic: string,
      payload: Record<string, unknown> = {},
      tx?: Executor,
      _author?: string,
    ): Promise<number[]> {
      checkFrame(topic, payload);
      if (recipientUserIds.length === 0) return [];
      const write = async (executor: Executor) => {
        const inserted = await repository.insert(executor, recipientUserIds, topic, payload);
        await signal.announce(executor, inserted);
        return inserted;
      };
      // In the caller's transaction as it is (no savepoint: two round trips fewer while the caller
      // holds its locks): the locks taken here last until it commits, and a failure here fails it.
      const rows = tx ? await write(tx) : await deps.db.transaction(write);
      return rows.map((row) => row.id);
    },

    /**
     * Sends `{topic, payload}` (no id) to the recipients' pages open at this moment, on every API
     * process, without storing it: it is not replayed after a reconnect and never reaches a page
     * opened later. For what is only true right now, such as "is typing"; anything that must
     * arrive goes through `publish`. Same topic and payload rules as `publish`.
     */
    async relay(recipientUserIds: readonly string[], topic: string, payload: Record<string, unknown> = {}) {
      checkFrame(topic, payload);
      if (recipientUserIds.length === 0) return;
      await signal.relay({ userIds: [...new Set(recipientUserIds)], topic, payload });
    },

    /**
     * Registers the handler of one client frame type (`typing`…): frames that fail `schema` are
     * answered `{type:"error", code:"INVALID_FRAME"}` and never reach the handler. A handler that
     * throws gets the client `FRAME_FAILED`; the connection stays open.
     */
    onMessage: registerHandler,

    /**
     * A new connection of `userId`; nothing is delivered until its client sends `resume`, which is
     * answered `{type:"resumed", after}` once the starting point is set (`after`: the id it starts after).
     */
    connect(
      userId: string,
      send: (frame: LiveServerFrame | Record<string, unknown>) => void,
    ): LiveConnection {
      const pump: Pump = { userId, cursor: null, running: null, again: false, closed: false, send };
      let pumps = connectionsByUser.get(userId);
      if (!pumps) {
        pumps = new Set();
        connectionsByUser.set(userId, pumps);
      }
      pumps.add(pump);
      const context: LiveMessageContext = { userId, send: (frame) => pump.send(frame) };
      const fail = (code: LiveErrorCode, frameType?: string) =>
        pump.send({ type: "error", code, ...(frameType ? { frame_type: frameType } : {}) });
      let resumed = false;

      return {
        userId,
        async receive(raw) {
          let head: z.infer<typeof frameHead>;
          try {
            head = frameHead.parse(JSON.parse(raw));
          } catch {
            fail(LIVE_ERROR_CODES.badFrame);
            return;
          }
          if (head.type === "resume") {
            const parsed = resumeFrame.safeParse(head);
            if (!parsed.success) return fail(LIVE_ERROR_CODES.invalidFrame, "resume");
            if (resumed) return fail(LIVE_ERROR_CODES.alreadyResumed, "resume");
            resumed = true;
            const after = parsed.data.after ?? (await repository.latestId(userId));
            pump.cursor = after;
            // Before any event: the page re-reads on this frame, and every event after `after` follows.
            pump.send({ type: "resumed", after });
            wake(pump);
            return;
          }
          const handler = handlers.get(head.type);
          if (!handler) return fail(LIVE_ERROR_CODES.unknownType, head.type);
          const parsed = handler.schema.safeParse(head);
          if (!parsed.success) return fail(LIVE_ERROR_CODES.invalidFrame, head.type);
          try {
            await handler.handle(parsed.data, context);
          } catch (error) {
            // The frame's content is the user's: only its type is logged.
            log.warn({ err: error, frameType: head.type }, "live events: a frame handler failed");
            fail(LIVE_ERROR_CODES.failed, head.type);
          }
        },
        close() {
          pump.closed = true;
          pumps.delete(pump);
          if (pumps.size === 0 && connectionsByUser.get(userId) === pumps) connectionsByUser.delete(userId);
        },
      };
    },

    /** Wakes every connection (after a heartbeat, say) so a missed note costs at most one interval. */
    resync: resyncAll,

    /** Deletes events older than `before` (the sweep). */
    deleteBefore: (before: Date) => repository.deleteBefore(before),

    start: () => signal.start(),
    close: () => signal.close(),
  };
}

export type LiveService = ReturnType<typeof createLiveService>;
