// Platform: attempt counters, the audit log and live events (ADR 025, 033).
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
  },
  (table) => [
    check(
      "audit_log_actor_kind_known",
      sql`${table.actorKind} in ('patient', 'provider', 'clinician', 'system')`,
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
