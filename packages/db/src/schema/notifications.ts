// Notifications that reach people who are not looking (ADR 064): web push devices, the mobile
// number texts go to with its consent, and the record of every send, skip and failure.
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
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
  (table) => [
    index("notification_deliveries_user_idx").on(table.userId, table.at),
    // The retention sweep deletes by age alone.
    index("notification_deliveries_at_idx").on(table.at),
  ],
);

/**
 * The mobile number a patient's reminder texts go to (one per account). `phone` is E.164, confirmed
 * when the patient typed back the 6-digit code sent to it: only its salted SHA-256 is kept
 * (`code_hash`, `salt:hex`), until `code_expires_at`, for `code_attempts` tries; `code_sent_at` and
 * the day's `codes_sent` since `codes_window_started` throttle new codes (kept when the number is
 * removed, so removing it and adding it again sends no more). `consented_at`: the patient's express
 * consent to reminder texts to this number (the wording in `text_message_consents`); a new number
 * needs it again. `opted_out_at`: texts stopped, from the profile or by a STOP reply (`opted_out_via`).
 */
export const textMessageNumbers = pgTable(
  "text_message_numbers",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    phone: text("phone"),
    confirmedAt: timestamptz("confirmed_at"),
    codeHash: text("code_hash"),
    codeExpiresAt: timestamptz("code_expires_at"),
    codeAttempts: integer("code_attempts").notNull().default(0),
    codeSentAt: timestamptz("code_sent_at"),
    codesSent: integer("codes_sent").notNull().default(0),
    codesWindowStarted: timestamptz("codes_window_started"),
    consentedAt: timestamptz("consented_at"),
    optedOutAt: timestamptz("opted_out_at"),
    optedOutVia: text("opted_out_via"),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (table) => [
    index("text_message_numbers_phone_idx").on(table.phone),
    check("text_message_numbers_phone_e164", sql`${table.phone} ~ '^\\+[1-9][0-9]{6,14}$'`),
  ],
);

/**
 * The record of consent to reminder texts, kept as it happened: `given` with the exact wording the
 * patient was shown, in which language, when and from which address; `withdrawn` (the profile's
 * opt-out), `stopped` (a STOP reply), `restarted` (a START reply after consent). Never edited.
 */
export const textMessageConsents = pgTable(
  "text_message_consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    action: text("action").notNull(),
    wording: text("wording"),
    locale: text("locale"),
    ip: text("ip"),
    at: timestamptz("at").notNull(),
  },
  (table) => [
    index("text_message_consents_user_idx").on(table.userId, table.at),
    check(
      "text_message_consents_action_known",
      sql`${table.action} in ('given', 'withdrawn', 'stopped', 'restarted')`,
    ),
    check(
      "text_message_consents_given_has_wording",
      sql`${table.action} <> 'given' or ${table.wording} is not null`,
    ),
  ],
);
