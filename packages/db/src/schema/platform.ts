// Platform: attempt counters, the audit log, live events and durable jobs (ADR 025, 033, 060).
import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";

/**
 * Rate-limit counters. They live in the database, not in process memory, so that several API
 * processes behind one load balancer share one budget per client (architecture "Processes").
 * `key` is a SHA-256 digest: the limiter never needs the client's IP address back.
 * The login throttle keeps its failure counters here too (per account and per address, keyed by an
 * HMAC of the e-mail or address), so they share the expiry sweep.
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    resetAt: timestamptz("reset_at").notNull(),
  },
  (table) => [index("rate_limit_buckets_reset_at_idx").on(table.resetAt)],
);

/**
 * Who read or wrote a patient's health data, what, when and from where. Rows are only ever
 * inserted. `user_id` is the patient whose data it is; `actor_user_id` the account that acted
 * (the patient, or a clinician's account when `actor_kind` is "clinician"). It holds ids and addresses, never the health data itself.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorKind: text("actor_kind").notNull(),
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: uuid("resource_id"),
    ip: text("ip"),
    at: timestamptz("at").notNull().defaultNow(),
    /** How many times this happened in a row: a burst of refused attempts is one row (audit-log.ts). */
    count: integer("count").notNull().default(1),
  },
  (table) => [
    check(
      "audit_log_actor_kind_known",
      sql`${table.actorKind} in ('patient', 'provider', 'clinician', 'operator', 'system')`,
    ),
    index("audit_log_user_at_idx").on(table.userId, table.at),
  ],
);

/**
 * Real-time events for the open pages of one account (ADR 033): one row per recipient, read by the
 * WebSocket connections of that account (live delivery and the replay after a reconnect, in id order).
 * The payload holds ids and small non-health fields only: a page that needs the content asks the API.
 * Rows older than a day are swept: a page away that long loads afresh.
 */
export const liveEvents = pgTable(
  "live_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    topic: text("topic").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    index("live_events_user_id_id_idx").on(table.userId, table.id),
    index("live_events_created_at_idx").on(table.createdAt),
  ],
);

/**
 * Work to do at a time, once, whichever API process gets to it (ADR 060; apps/api/src/platform/jobs.ts).
 * `dedupe_key` makes enqueueing idempotent (`on conflict do nothing`): the same reminder enqueued
 * twice is one row. A runner claims a due row by setting `locked_until` (its lease) and adding one
 * to `attempts` (the claim's fencing token); it sets `done_at` when the job is finished, or when it
 * gave up after its last attempt (then `last_error` says why; a success clears it). A recurring job
 * (a sweep) is one row whose `run_at` moves on after each run and is never done. The payload holds
 * ids, never health data, and `last_error` an error's type, code and scrubbed message.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    dedupeKey: text("dedupe_key").notNull().unique("jobs_dedupe_key_unique"),
    runAt: timestamptz("run_at").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer("attempts").notNull().default(0),
    lockedUntil: timestamptz("locked_until"),
    doneAt: timestamptz("done_at"),
    lastError: text("last_error"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    // The runners' question every few seconds: the jobs not done, by due time.
    index("jobs_due_idx").on(table.runAt).where(sql`${table.doneAt} is null`),
    // Finished jobs are deleted some days later.
    index("jobs_done_at_idx").on(table.doneAt).where(sql`${table.doneAt} is not null`),
  ],
);
