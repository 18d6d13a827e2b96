// Accounts: patients, clinicians and the service account, their sessions, single-use e-mailed links
// and the second factor (ADR 010, 024).
import { DEFAULT_LOCALE, LOCALES, type Locale } from "@ambercare/contracts/locales";
import { ACCOUNT_ROLES, type AccountRole, DEFAULT_ACCOUNT_ROLE } from "@ambercare/contracts/roles";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamptz } from "./columns.ts";

/**
 * Accounts: patients, and the one built-in service account (is_service_account) that the web server
 * uses for public care-API calls (ADR 008). Profile fields stay null until the patient fills them in;
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
    locale: text("locale").$type<Locale>().notNull().default(DEFAULT_LOCALE),
    /** IANA zone the patient's times are shown in; null until the browser or the patient told it. */
    timeZone: text("time_zone"),
    isServiceAccount: boolean("is_service_account").notNull().default(false),
    /** "patient" or "clinician" (a clinician also has a `clinicians` row linking a provider). */
    role: text("role").$type<AccountRole>().notNull().default(DEFAULT_ACCOUNT_ROLE),
    profileCompletedAt: timestamptz("profile_completed_at"),
    /**
     * When the owner of the address followed the sign-up link (or a reset link). Null: the account
     * was created but nobody has proved the mailbox yet, and it cannot log in.
     */
    emailConfirmedAt: timestamptz("email_confirmed_at"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check("users_email_lower_case", sql`${table.email} = lower(${table.email})`),
    check(
      "users_role_known",
      sql`${table.role} in (${sql.raw(ACCOUNT_ROLES.map((r) => `'${r}'`).join(", "))})`,
    ),
    check(
      "users_locale_known",
      sql`${table.locale} in (${sql.raw(LOCALES.map((l) => `'${l}'`).join(", "))})`,
    ),
    // There is one built-in credential: a second service account would be a forgotten key.
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
    /** When the token last authenticated a call (to the minute): a patient's idle session ends. */
    lastUsedAt: timestamptz("last_used_at").notNull().defaultNow(),
    /**
     * The browser session the token belongs to: the web server holds one token of each API per
     * session, and both carry the same key (the main login's token hash, or the pending login's
     * with a second factor). Ending "every other session" keeps both. Null: the token's own.
     */
    sessionKey: text("session_key"),
  },
  (table) => [
    check("access_tokens_surface_known", sql`${table.surface} in ('main', 'care')`),
    index("access_tokens_user_id_idx").on(table.userId),
    index("access_tokens_expires_at_idx").on(table.expiresAt),
  ],
);

/**
 * A table of single-use e-mailed links (password reset, lost second-factor device): each token
 * stored as its SHA-256, its account, when it stops working, and when it was used.
 */
function singleUseLinkColumns() {
  return {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    usedAt: timestamptz("used_at"),
  };
}

function singleUseLinkTable<N extends string>(name: N) {
  return pgTable(name, singleUseLinkColumns(), (table) => [
    index(`${name}_user_id_idx`).on(table.userId),
    index(`${name}_expires_at_idx`).on(table.expiresAt),
  ]);
}

/** The kinds of single-use links in `password_reset_tokens`. */
export type MailTokenPurpose = "password-reset" | "email-confirmation";

/**
 * Single-use links of the account e-mails (SHA-256 only, as access tokens): password reset (valid
 * one hour) and sign-up confirmation (24 hours). `purpose` says which; a token of one kind never
 * works for the other.
 */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    ...singleUseLinkColumns(),
    purpose: text("purpose").$type<MailTokenPurpose>().notNull().default("password-reset"),
  },
  (table) => [
    check(
      "password_reset_tokens_purpose_known",
      sql`${table.purpose} in ('password-reset', 'email-confirmation')`,
    ),
    index("password_reset_tokens_user_id_idx").on(table.userId),
    index("password_reset_tokens_expires_at_idx").on(table.expiresAt),
  ],
);

/**
 * A patient's second factor (TOTP, RFC 6238). The secret is stored encrypted (AES-256-GCM under a
 * key from the environment), never in the clear. `enabled_at` is null while the setup waits for its
 * first code; `last_used_step` is the 30-second step of the last code accepted, so each code works
 * once (a later code must belong to a later step).
 */
export const secondFactors = pgTable("second_factors", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretCiphertext: text("secret_ciphertext").notNull(),
  createdAt: timestamptz("created_at").notNull(),
  enabledAt: timestamptz("enabled_at"),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
});

/** Single-use recovery codes of a second factor, as SHA-256 digests of 80-bit random codes. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    usedAt: timestamptz("used_at"),
  },
  (table) => [index("recovery_codes_user_id_idx").on(table.userId)],
);

/**
 * A login whose password was right and which waits for its second factor. The token (stored as its
 * SHA-256) is short-lived; once a code verified it, it yields at most one session per API.
 */
export const pendingLogins = pgTable(
  "pending_logins",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    failedCodes: integer("failed_codes").notNull().default(0),
    verifiedAt: timestamptz("verified_at"),
    mainIssuedAt: timestamptz("main_issued_at"),
    careIssuedAt: timestamptz("care_issued_at"),
  },
  (table) => [
    index("pending_logins_user_id_idx").on(table.userId),
    index("pending_logins_expires_at_idx").on(table.expiresAt),
  ],
);

/** Single-use links of the "lost my device" e-mail, which turn the second factor off. */
export const secondFactorResetTokens = singleUseLinkTable("second_factor_reset_tokens");
