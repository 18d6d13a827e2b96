import type { Database, Executor } from "@ambercare/db/client";
import { liveEvents } from "@ambercare/db/schema";
import { and, asc, eq, gt, inArray, lt, max, sql } from "drizzle-orm";

export type LiveEventRow = {
  id: number;
  userId: string;
  topic: string;
  payload: Record<string, unknown>;
};

/**
 * A key space of its own for the advisory locks below, so they never meet another module's
 * (the first key of the two-key form).
 */
const PUBLISH_LOCK_SPACE = 0x4c495645; // "LIVE"

export function createLiveRepository(db: Database) {
  return {
    /**
     * Inserts one row per recipient, inside `tx`. Each recipient's advisory lock is taken first and
     * held until `tx` ends, so the ids of one recipient's events are handed out in the order their
     * transactions commit: a reader that has seen id N never misses a later commit with a smaller
     * id. Recipients are locked in sorted order, so two publishers cannot wait on each other.
     */
    async insert(
      tx: Executor,
      recipientUserIds: readonly string[],
      topic: string,
      payload: Record<string, unknown>,
    ): Promise<Array<{ id: number; userId: string }>> {
      const recipients = [...new Set(recipientUserIds)].sort();
      // One statement for all the locks (one round trip while the caller's transaction holds its own
      // locks): a function scan of the array takes them in its order, the sorted one.
      await tx.execute(
        sql`select pg_advisory_xact_lock(${sql.raw(String(PUBLISH_LOCK_SPACE))}, hashtext(recipient)) from unnest(${sql`array[${sql.join(
          recipients.map((userId) => sql`${userId}`),
          sql`, `,
        )}]::text[]`}) with ordinality as locked(recipient, n) order by n`,
      );
      return tx
        .insert(liveEvents)
        .values(recipients.map((userId) => ({ userId, topic, payload })))
        .returning({ id: liveEvents.id, userId: liveEvents.userId });
    },

    /** One recipient's events after `afterId`, oldest first, at most `limit`. */
    async listAfter(userId: string, afterId: number, limit: number): Promise<LiveEventRow[]> {
      return db
        .select({
          id: liveEvents.id,
          userId: liveEvents.userId,
          topic: liveEvents.topic,
          payload: liveEvents.payload,
        })
        .from(liveEvents)
        .where(and(eq(liveEvents.userId, userId), gt(liveEvents.id, afterId)))
        .orderBy(asc(liveEvents.id))
        .limit(limit);
    },

    /** The newest event id of one recipient (0 when there is none). */
    async latestId(userId: string): Promise<number> {
      const [row] = await db
        .select({ latest: max(liveEvents.id) })
        .from(liveEvents)
        .where(eq(liveEvents.userId, userId));
      return Number(row?.latest ?? 0);
    },

    async deleteBefore(before: Date): Promise<void> {
      await db.delete(liveEvents).where(lt(liveEvents.createdAt, before));
    },

    /** Rows by id, for the PostgreSQL notification sent with them. */
    async notifyPostgres(tx: Executor, channel: string, ids: readonly number[]): Promise<void> {
      if (ids.length === 0) return;
      await tx.execute(
        sql`select pg_notify(${channel}, json_build_object('id', id, 'user_id', user_id)::text) from ${liveEvents} where ${inArray(liveEvents.id, [...ids])}`,
      );
    },

    /** A notification outside any transaction (a relayed frame, delivered at once). */
    async notifyRelay(channel: string, text: string): Promise<void> {
      await db.execute(sql`select pg_notify(${channel}, ${text})`);
    },
  };
}

export type LiveRepository = ReturnType<typeof createLiveRepository>;
