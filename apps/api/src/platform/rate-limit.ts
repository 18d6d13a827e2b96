import { createHash } from "node:crypto";
import type { Database } from "@ambercare/db/client";
import { rateLimitBuckets } from "@ambercare/db/schema";
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

type Hit = { current: number; ttl: number };

/** How often expired counters are deleted; a counter past its window is reset in place anyway. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Rate-limit counters kept in the database, so every API process behind a load balancer counts
 * against one budget per client (architecture: nothing another instance needs lives in memory).
 * One atomic upsert per request: it starts a new window when the old one has ended.
 */
export function createDatabaseStore(db: Database, clock: Clock): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly namespace = "global",
    ) {}

    incr(key: string, callback: (error: Error | null, result?: Hit) => void, timeWindow: number): void {
      this.hit(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    read(key: string, callback: (error: Error | null, result?: Hit) => void): void {
      this.peek(key).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      // A route with its own limits gets its own counters. @fastify/rate-limit passes the merged
      // options with `routeInfo` (the route) or an empty `routeInfo` for `createRateLimit()`.
      const options = routeOptions as {
        routeInfo?: { method?: unknown; url?: unknown };
        max?: unknown;
        timeWindow?: unknown;
      };
      const route = options.routeInfo;
      const namespace =
        route && typeof route.url === "string"
          ? `${String(route.method)} ${route.url}`
          : `custom ${String(options.max)}/${String(options.timeWindow)}`;
      return new DatabaseStore(undefined, namespace);
    }

    private digest(key: string): string {
      // Stored hashed: the limiter never needs a client's address back.
      return createHash("sha256").update(`${this.namespace}\u0000${key}`).digest("hex");
    }

    private async hit(key: string, timeWindow: number): Promise<Hit> {
      const now = clock.now();
      const nowSql = sql`${now.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(rateLimitBuckets)
        .values({ key: this.digest(key), hits: 1, resetAt: new Date(now.getTime() + timeWindow) })
        .onConflictDoUpdate({
          target: rateLimitBuckets.key,
          set: {
            hits: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then 1 else least(${rateLimitBuckets.hits} + 1, 2147483647) end`,
            resetAt: sql`case when ${rateLimitBuckets.resetAt} <= ${nowSql} then excluded.reset_at else ${rateLimitBuckets.resetAt} end`,
          },
        })
        .returning({ hits: rateLimitBuckets.hits, resetAt: rateLimitBuckets.resetAt });
      if (!row) throw new Error("rate-limit upsert returned no row");
      return { current: row.hits, ttl: Math.max(0, row.resetAt.getTime() - now.getTime()) };
    }

    private async peek(key: string): Promise<Hit> {
      const now = clock.now();
      const [row] = await db
        .select({ hits: rateLimitBuckets.hits, resetAt: rateLimitBuckets.resetAt })
        .from(rateLimitBuckets)
        .where(and(eq(rateLimitBuckets.key, this.digest(key)), gt(rateLimitBuckets.resetAt, now)));
      return row ? { current: row.hits, ttl: row.resetAt.getTime() - now.getTime() } : { current: 0, ttl: 0 };
    }
  }
  return DatabaseStore;
}

export type RateLimitPluginOptions = { db: Database; clock: Clock; max: number };

/** Global per-client limit of `max` requests per minute; 429 `{ error }` beyond it. */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { db, clock, max }: RateLimitPluginOptions) => {
    await app.register(rateLimit, {
      global: true,
      max,
      timeWindow: 60_000,
      store: createDatabaseStore(db, clock),
      // A database hiccup must not lock every client out; the request itself will then report it.
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        new AppError("RATE_LIMITED", context.statusCode, `Too many requests, retry in ${context.after}`),
    });

    const sweep = setInterval(() => {
      db.delete(rateLimitBuckets)
        .where(lte(rateLimitBuckets.resetAt, clock.now()))
        .then(
          () => undefined,
          (error: unknown) => app.log.warn({ err: error }, "rate-limit sweep failed"),
        );
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));
  },
  { name: "ambercare-rate-limit" },
);
