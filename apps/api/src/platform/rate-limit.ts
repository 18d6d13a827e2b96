import type { Database } from "@ambercare/db/client";
import { rateLimitBuckets } from "@ambercare/db/schema";
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { lte } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/** How often expired attempt counters (logins, resets, sign-ups, contact) are deleted. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

/** Client addresses the general limit remembers per process; the least recent are forgotten first. */
const TRACKED_CLIENTS = 50_000;

type Hit = { current: number; ttl: number };

/**
 * Fixed one-minute windows per client in a Map, on the app's clock (so the test clock moves them).
 * At most TRACKED_CLIENTS entries: the oldest window is dropped first, which can only let a client
 * through early, never block one wrongly.
 */
export function createMemoryStore(clock: Clock, limit = TRACKED_CLIENTS): FastifyRateLimitStoreCtor {
  class MemoryStore implements FastifyRateLimitStore {
    private readonly windows = new Map<string, { hits: number; resetAt: number }>();

    incr(key: string, callback: (error: Error | null, result?: Hit) => void, timeWindow: number): void {
      const now = clock.now().getTime();
      let window = this.windows.get(key);
      if (!window || window.resetAt <= now) {
        this.windows.delete(key);
        window = { hits: 0, resetAt: now + timeWindow };
        this.windows.set(key, window);
        if (this.windows.size > limit) {
          const oldest = this.windows.keys().next().value;
          if (oldest !== undefined) this.windows.delete(oldest);
        }
      }
      window.hits += 1;
      callback(null, { current: window.hits, ttl: window.resetAt - now });
    }

    child(): FastifyRateLimitStore {
      // A route with its own limits counts apart from the general one.
      return new MemoryStore();
    }
  }
  return MemoryStore;
}

export type RateLimitPluginOptions = { db: Database; clock: Clock; max: number };

/**
 * The general limit: `max` requests per minute per client address (the visitor's, when the web
 * server calls for one: platform/visitor.ts), 429 `{ error }` beyond it.
 *
 * Counted in this process's memory, never in the database: a flood must not become a write per
 * request. It is a guard against floods, not an exact budget; with N API processes a client that
 * is spread across all of them gets at most N × max (ADR 025). What must be exact and shared across
 * processes (login, password reset, sign-up, contact and captcha attempts) is counted in
 * `rate_limit_buckets` by platform/attempt-counter-repository.ts, which this plugin only sweeps.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { db, clock, max }: RateLimitPluginOptions) => {
    await app.register(rateLimit, {
      global: true,
      max,
      timeWindow: 60_000,
      store: createMemoryStore(clock),
      errorResponseBuilder: (_request, context) =>
        new AppError("RATE_LIMITED", context.statusCode, `Too many requests, retry in ${context.after}`),
    });

    const sweep = setInterval(() => {
      db.delete(rateLimitBuckets)
        .where(lte(rateLimitBuckets.resetAt, clock.now()))
        .then(
          () => undefined,
          (error: unknown) => app.log.warn({ err: error }, "attempt-counter sweep failed"),
        );
    }, SWEEP_INTERVAL_MS);
    sweep.unref();
    app.addHook("onClose", async () => clearInterval(sweep));
  },
  { name: "ambercare-rate-limit" },
);
