import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Database schema (PostgreSQL 15 and PGlite). Column names are snake_case in SQL and camelCase in
 * TypeScript. Bilingual catalogue text is stored per language column rather than in a translation
 * table: there are exactly two languages (spec §1) and every row must have both.
 */

/** Medical specializations offered by the service (spec §7 `GET /api/specialization`). */
export const specializations = pgTable("specializations", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  slug: text("slug").notNull().unique(),
  nameEn: text("name_en").notNull(),
  nameBg: text("name_bg").notNull(),
  descriptionEn: text("description_en").notNull(),
  descriptionBg: text("description_bg").notNull(),
  sortOrder: integer("sort_order").notNull().default(0),
});

/** Conditions seen, each handled by one specialization ("Conditions we see" page). */
export const conditions = pgTable(
  "conditions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    slug: text("slug").notNull().unique(),
    nameEn: text("name_en").notNull(),
    nameBg: text("name_bg").notNull(),
    specializationId: integer("specialization_id")
      .notNull()
      .references(() => specializations.id, { onDelete: "restrict" }),
  },
  (table) => [index("conditions_specialization_id_idx").on(table.specializationId)],
);

/**
 * Rate-limit counters. They live in the database, not in process memory, so that several API
 * processes behind one load balancer share one budget per client (architecture "Processes").
 * `key` is a SHA-256 digest: the limiter never needs the client's IP address back.
 */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [index("rate_limit_buckets_reset_at_idx").on(table.resetAt)],
);
