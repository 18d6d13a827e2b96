// Notifications that reach people who are not looking (ADR 064): web push devices and the record of
// every send, skip and failure.
import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";

/**
 * One browser that accepted web push for one account (a Push API subscription). `endpoint` is the
 * push service's URL of that browser; `p256dh` and `auth` are its keys (RFC 8291), base64url.
 * `disabled_events` lists the events this device was told not to bring; `detailed` lets its
 * notifications name what happened instead of the generic text. `showing_visit_id` until
 * `showing_until`: the visit a page of this device is visibly showing (nothing is pushed about it).
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique("push_subscriptions_endpoint_unique"),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** What the person calls the device ("Chrome on Android"), from the browser. */
    label: text("label").notNull(),
    locale: text("locale").notNull().default("en"),
    detailed: boolean("detailed").notNull().default(false),
    disabledEvents: text("disabled_events").array().notNull().default(sql`'{}'::text[]`),
    showingVisitId: uuid("showing_visit_id"),
    showingUntil: timestamptz("showing_until"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    lastSentAt: timestamptz("last_sent_at"),
  },
  (table) => [index("push_subscriptions_user_idx").on(table.userId)],
);

/**
 * Every decision about a notification: sent, skipped (and why) or failed. Never the message's text:
 * the event, the channel, the outcome and the ids it was about.
 */
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    channel: text("channel").notNull(),
    /** sent | skipped | failed | removed (the push service said the device is gone). */
    outcome: text("outcome").notNull(),
    reason: text("reason"),
    subscriptionId: uuid("subscription_id"),
    consultationId: uuid("consultation_id"),
    at: timestamptz("at").notNull(),
  },
  (table) => [index("notification_deliveries_user_idx").on(table.userId, table.at)],
);
