import { createHash } from "node:crypto";
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

/** How long an authenticated token keeps its person's budget without being authenticated again. */
const KNOWN_PERSON_TTL_MS = 10 * 60_000;

/**
 * People whose bearer token this process authenticated lately, so that the general limit counts a
 * logged-in person by who they are rather than by their address: a clinic's, a family's or a
 * carrier's NAT puts many people behind one address. Only a token the auth guards accepted is
 * remembered (never the service account's, which acts for many visitors): a made-up token is
 * counted by its address like any anonymous request, so inventing tokens buys no budget. Tokens
 * are held as SHA-256 digests; at most `limit` of them, the least recent forgotten first.
 */
export type KnownPeople = {
  remember(token: string, userId: string): void;
  /** The person of a token authenticated within the last ten minutes, else undefined. */
  personOf(token: string): string | undefined;
};

export function createKnownPeople(clock: Clock, limit = TRACKED_CLIENTS): KnownPeople {
  const people = new Map<string, { userId: string; until: number }>();
  const digest = (token: string) => createHash("sha256").update(token, "utf8").digest("base64url");
  return {
    remember(token, userId) {
      const key = digest(token);
      people.delete(key);
      people.set(key, { userId, until: clock.now().getTime() + KNOWN_PERSON_TTL_MS });
      if (people.size > limit) {
        const oldest = people.keys().next().value;
        if (oldest !== undefined) people.delete(oldest);
      }
    },
    personOf(token) {
      const known = people.get(digest(token));
      if (!known || known.until <= clock.now().getTime()) return undefined;
      return known.userId;
    },
  };
}

const BEARER = /^Bearer +([\x21-\x7E]+) *$/i;

export type RateLimitPluginOptions = {
  db: Database;
  clock: Clock;
  /** Requests per minute of one logged-in person (RATE_LIMIT_MAX). */
  max: number;
  /** Requests per minute of one address, for whatever is not a known person (RATE_LIMIT_ADDRESS_MAX). */
  addressMax: number;
  people: KnownPeople;
};

/**
 * The general limit: `max` requests per minute per logged-in person (a token the API authenticated
 * lately: KnownPeople), and `addressMax` per client address for everything else (the visitor's
 * address when the web server calls for one: platform/visitor.ts); 429 `{ error }` beyond it.
 *
 * Counted in this process's memory, never in the database: a flood must not become a write per
 * request. It is a guard against floods, not an exact budget; with N API processes a client that
 * is spread across all of them gets at most N × max (ADR 025). What must be exact and shared across
 * processes (login, password reset, sign-up, contact and captcha attempts) is counted in
 * `rate_limit_buckets` by platform/attempt-counter-repository.ts, which this plugin only sweeps.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { db, clock, max, addressMax, people }: RateLimitPluginOptions) => {
    await app.register(rateLimit, {
      // Not @fastify/rate-limit's global mode: it appends its hook after each route's own onRequest
      // hooks, so a route's auth guard refused a flood of made-up tokens (a database read each) before
      // the limit ever counted them. The hook below runs the same limit first, for every route.
      global: false,
      keyGenerator(request) {
        const header = request.headers.authorization;
        const token = typeof header === "string" ? BEARER.exec(header)?.[1] : undefined;
        const person = token === undefined ? undefined : people.personOf(token);
        return person === undefined ? request.ip : `person:${person}`;
      },
      max: (_request, key) => (key.startsWith("person:") ? max : addressMax),
      timeWindow: 60_000,
      store: createMemoryStore(clock),
      errorResponseBuilder: (_request, context) =>
        new AppError("RATE_LIMITED", context.statusCode, `Too many requests, retry in ${context.after}`),
    });

    const limit = app.rateLimit();
    app.addHook("onRequest", async (request, reply) => {
      if (request.routeOptions.config?.rateLimit === false) return;
      await limit.call(app, request, reply);
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
