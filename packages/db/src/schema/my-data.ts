// My data (Washington My Health My Data): consents and account closures (ADR 017).
import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";

/**
 * Consent choices under Washington's My Health My Data Act: every change is a new row, so the
 * history (what was agreed, when) is kept; the newest row per key is the current choice.
 */
export const dataConsents = pgTable(
  "data_consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    granted: boolean("granted").notNull(),
    recordedAt: timestamptz("recorded_at").notNull(),
  },
  (table) => [
    check("data_consents_key_known", sql`${table.key} in ('optional_processing')`),
    index("data_consents_user_key_idx").on(table.userId, table.key, table.recordedAt),
  ],
);

/**
 * Accounts closed at the patient's request. The users row stays (billing records kept by law
 * point at it) but holds nothing that identifies the patient; this row says when and why it was
 * emptied.
 */
export const accountClosures = pgTable("account_closures", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  closedAt: timestamptz("closed_at").notNull(),
  reason: text("reason").notNull(),
});
