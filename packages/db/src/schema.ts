import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

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

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Accounts: patients, and the one built-in service account (is_service_account) that the web server
 * uses for public care-API calls (spec §5). Profile fields stay null until the patient fills them in;
 * profile_completed_at is set by complete-profile. The id appears in URLs (get-user-details/{userId}),
 * so it is a random UUID, not a sequence.
 */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased (the check makes sure), so the unique constraint is case-insensitive. */
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    dateOfBirth: date("date_of_birth", { mode: "string" }),
    phone: text("phone"),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2"),
    city: text("city"),
    state: text("state"),
    zip: text("zip"),
    gender: text("gender"),
    locale: text("locale").notNull().default("en"),
    isServiceAccount: boolean("is_service_account").notNull().default(false),
    profileCompletedAt: timestamptz("profile_completed_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check("users_email_lower_case", sql`${table.email} = lower(${table.email})`),
    check("users_locale_known", sql`${table.locale} in ('en', 'bg')`),
    // There is one built-in credential (spec §5): a second service account would be a forgotten key.
    uniqueIndex("users_single_service_account")
      .on(table.isServiceAccount)
      .where(sql`${table.isServiceAccount}`),
  ],
);

/**
 * Opaque bearer tokens of both APIs. Only the SHA-256 of a token is stored: a copy of this table
 * (a backup, a replica) cannot be replayed as sessions. A plain hash suffices (no salt, no argon2)
 * because a token is 32 random bytes, not a guessable password.
 */
export const accessTokens = pgTable(
  "access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Which login issued it: "main" (/api/v1/api/auth/login) or "care" (/auth/login). */
    surface: text("surface").notNull(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    revokedAt: timestamptz("revoked_at"),
  },
  (table) => [
    check("access_tokens_surface_known", sql`${table.surface} in ('main', 'care')`),
    index("access_tokens_user_id_idx").on(table.userId),
    index("access_tokens_expires_at_idx").on(table.expiresAt),
  ],
);

/** Single-use password-reset tokens (SHA-256 only, as access tokens), valid for one hour. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (table) => [
    index("password_reset_tokens_user_id_idx").on(table.userId),
    index("password_reset_tokens_expires_at_idx").on(table.expiresAt),
  ],
);

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
