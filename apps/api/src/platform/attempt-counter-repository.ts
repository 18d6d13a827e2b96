import type { Executor } from "@ambercare/db/client";
import { rateLimitBuckets } from "@ambercare/db/schema";
import { eq, inArray, sql } from "drizzle-orm";

export type Count = { hits: number; resetAt: Date };

/**
 * Fixed-window counters in `rate_limit_buckets` (shared with the request rate limit, whose sweep
 * deletes ended windows). Keys arrive already hashed. Every change is one atomic statement, so API
 * instances counting the same key at the same moment never lose a hit.
 */
export function createAttemptCounterRepository(db: Executor) {
  return {
    /** Adds one to the key's count, starting a new window of `windowMs` when the last one ended. */
    async hit(key: string, windowMs: number, now: Date): Promise<Count> {
      const nowSql = sql`${now.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(rateLimitBuckets)
        .values({ key, hits: 1, resetAt: new Date(now.getTime() + windowMs) })
        .onConflictDoUpdate({
          target: rateLimitBuckets.key,
          set: {
            hits: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then 1 else least(${rateLimitBuckets.hits} + 1, 2147483647) end`,
            resetAt: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then excluded.reset_at else ${rateLimitBuckets.resetAt} end`,
          },
        })
        .returning({ hits: rateLimitBuckets.hits, resetAt: rateLimitBuckets.resetAt });
      if (!row) throw new Error("attempt counter upsert returned no row");
      return row;
    },

    /** The key's count in its current window, without adding to it (0 when none or ended). */
    async count(key: string, now: Date): Promise<number> {
      const [row] = await db
        .select({ hits: rateLimitBuckets.hits, resetAt: rateLimitBuckets.resetAt })
        .from(rateLimitBuckets)
        .where(eq(rateLimitBuckets.key, key));
      return row && row.resetAt > now ? row.hits : 0;
    },

    /** Takes back one hit (an attempt that turned out not to count). */
    async release(key: string): Promise<void> {
      await db
        .update(rateLimitBuckets)
        .set({ hits: sql`greatest(${rateLimitBuckets.hits} - 1, 0)` })
        .where(eq(rateLimitBuckets.key, key));
    },

    /** Forgets several keys in one statement. */
    async clearAll(keys: readonly string[]): Promise<void> {
      if (keys.length === 0) return;
      await db.delete(rateLimitBuckets).where(inArray(rateLimitBuckets.key, [...keys]));
    },
  };
}

export type AttemptCounterRepository = ReturnType<typeof createAttemptCounterRepository>;
