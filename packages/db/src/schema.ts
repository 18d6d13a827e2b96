import type {
  ContactSource,
  ContactTopic,
  MailingList,
  MailingListStatus,
} from "@ambercare/contracts/communications-constants";
import type {
  ConsultationStatus,
  DocumentContentType,
  MessageAuthor,
  PaymentSource,
  VisitActorKind,
} from "@ambercare/contracts/consultation-limits";
import { DEFAULT_LOCALE, LOCALES, type Locale, type TranslatedLocale } from "@ambercare/contracts/locales";
import type {
  BillingInterval,
  CheckoutKind,
  InvoiceStatus,
  MembershipPlanKey,
  SubscriptionStatus,
} from "@ambercare/contracts/membership-constants";
import type { PlanKey } from "@ambercare/contracts/plans";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { ACCOUNT_ROLES, type AccountRole, DEFAULT_ACCOUNT_ROLE } from "@ambercare/contracts/roles";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * Database schema (PostgreSQL 15 and PGlite). Column names are snake_case in SQL and camelCase in
 * TypeScript. The directory's texts are in the default language (DEFAULT_LOCALE) in their own columns,
 * and in every other language in one `translations` jsonb column of the same row (ADR 028), so a new
 * language is new data, not a new column in every table.
 */

/** A row's texts in the languages other than the default: `{ "bg": { "name": "…" } }`. */
export type Translations<Fields extends string> = Partial<Record<TranslatedLocale, Record<Fields, string>>>;

const translations = <Fields extends string>() =>
  jsonb("translations").$type<Translations<Fields>>().notNull().default({});

/** Medical specializations offered by the service (`GET /api/specialization`). */
export const specializations = pgTable("specializations", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  slug: text("slug").notNull().unique(),
  nameEn: text("name_en").notNull(),
  descriptionEn: text("description_en").notNull(),
  translations: translations<"name" | "description">(),
  sortOrder: integer("sort_order").notNull().default(0),
});

/** Conditions seen, each handled by one specialization ("Conditions we see" page). */
export const conditions = pgTable(
  "conditions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    slug: text("slug").notNull().unique(),
    nameEn: text("name_en").notNull(),
    translations: translations<"name">(),
    specializationId: integer("specialization_id")
      .notNull()
      .references(() => specializations.id, { onDelete: "restrict" }),
  },
  (table) => [index("conditions_specialization_id_idx").on(table.specializationId)],
);

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

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
 * Clinicians patients can find (`GET /api/provider`). The slug appears in shareable URLs.
 * The rating aggregate is kept on the row (count, sum of stars and the rounded average) and changed
 * in the same transaction as the rating itself, so a search never aggregates the ratings table.
 */
export const providers = pgTable(
  "providers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull().unique(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** MD, DO, NP or PA. */
    credentials: text("credentials").notNull(),
    /** Same-origin image path, or null when the provider has no photo. */
    photoPath: text("photo_path"),
    bioEn: text("bio_en").notNull(),
    translations: translations<"bio">(),
    /** ISO 639-1 codes of the languages the provider consults in, English first. */
    languages: text("languages").array().notNull(),
    offersChat: boolean("offers_chat").notNull().default(true),
    offersVideo: boolean("offers_video").notNull().default(true),
    availableToday: boolean("available_today").notNull().default(false),
    ratingCount: integer("rating_count").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    /** round(rating_sum / rating_count, 2); 0 while there are no ratings. */
    ratingAverage: numeric("rating_average", { precision: 3, scale: 2, mode: "number" }).notNull().default(0),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("providers_credentials_known", sql`${table.credentials} in ('MD', 'DO', 'NP', 'PA')`),
    check("providers_offers_a_type", sql`${table.offersChat} or ${table.offersVideo}`),
    check("providers_rating_count_non_negative", sql`${table.ratingCount} >= 0`),
    // The default order of the directory, column for column (best rated, most rated, then by name):
    // a page is read straight off the index instead of sorting every match.
    index("providers_rating_order_idx").on(
      table.ratingAverage.desc(),
      table.ratingCount.desc(),
      table.lastName,
      table.firstName,
      table.id,
    ),
    // "Available today" and chat/video: the filters and their counts come from the index alone.
    index("providers_availability_idx").on(table.availableToday, table.offersVideo, table.offersChat),
    index("providers_name_idx").on(table.lastName, table.firstName, table.id),
    // Case-insensitive prefix search on a name (`lower(x) like 'ann%'`).
    index("providers_last_name_lower_idx").using("btree", sql`lower(${table.lastName}) text_pattern_ops`),
    index("providers_first_name_lower_idx").using("btree", sql`lower(${table.firstName}) text_pattern_ops`),
    index("providers_full_name_lower_idx").using(
      "btree",
      sql`lower(${table.firstName} || ' ' || ${table.lastName}) text_pattern_ops`,
    ),
  ],
);

/**
 * Clinician accounts: each links one account (role "clinician") to the one directory provider it
 * works as, and each provider has at most one account. The clinician's licences and visit types are
 * the provider's. `disabled_at` ends the account's access (its sessions are revoked, its logins
 * refused) while keeping who did what in the audit log.
 */
export const clinicians = pgTable("clinicians", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  providerId: uuid("provider_id")
    .notNull()
    .unique()
    .references(() => providers.id, { onDelete: "restrict" }),
  disabledAt: timestamptz("disabled_at"),
  /**
   * When the clinician went on duty in the console; null while off duty. "Available today" of
   * their provider in the directory reads it instead of the provider's seeded flag.
   */
  onDutySince: timestamptz("on_duty_since"),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
});

export const providerSpecializations = pgTable(
  "provider_specializations",
  {
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    specializationId: integer("specialization_id")
      .notNull()
      .references(() => specializations.id, { onDelete: "restrict" }),
  },
  (table) => [
    primaryKey({ columns: [table.providerId, table.specializationId] }),
    index("provider_specializations_specialization_idx").on(table.specializationId, table.providerId),
  ],
);

export const providerConditions = pgTable(
  "provider_conditions",
  {
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    conditionId: integer("condition_id")
      .notNull()
      .references(() => conditions.id, { onDelete: "restrict" }),
  },
  (table) => [
    primaryKey({ columns: [table.providerId, table.conditionId] }),
    index("provider_conditions_condition_idx").on(table.conditionId, table.providerId),
  ],
);

/** The US states (USPS codes) where a provider is licensed to practise. */
export const providerLicenses = pgTable(
  "provider_licenses",
  {
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.providerId, table.state] }),
    index("provider_licenses_state_idx").on(table.state, table.providerId),
    check("provider_licenses_state_code", sql`${table.state} ~ '^[A-Z]{2}$'`),
  ],
);

/**
 * A patient's chat or video consultation (docs/decisions/018-consultations-and-records.md). The
 * intake answers are one jsonb document validated by `intakeSchema` (packages/contracts): they are
 * always read and written whole, never queried field by field, except the state, which has its own
 * column. provider_id stays null until a provider is chosen or a clinician accepts the request.
 * Status changes only through the transition table of
 * apps/api/src/modules/consultations/visit-lifecycle.ts, each one written to
 * consultation_status_history.
 */
export const consultations = pgTable(
  "consultations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerId: uuid("provider_id").references(() => providers.id, { onDelete: "restrict" }),
    type: text("type").$type<ConsultationType>().notNull(),
    status: text("status").$type<ConsultationStatus>().notNull().default("requested"),
    /** USPS code of the state the patient is in during the visit. */
    state: text("state"),
    intake: jsonb("intake"),
    /** One random key per filled-in form, so a double submit creates (and pays) once. */
    idempotencyKey: uuid("idempotency_key"),
    /** "membership" or "visit_credit": a canceled visit-credit consultation gives the credit back. */
    paidWith: text("paid_with").$type<PaymentSource>().notNull().default("membership"),
    consentsAcceptedAt: timestamptz("consents_accepted_at"),
    visitSummary: text("visit_summary"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
    acceptedAt: timestamptz("accepted_at"),
    startedAt: timestamptz("started_at"),
    completedAt: timestamptz("completed_at"),
    canceledAt: timestamptz("canceled_at"),
    expiredAt: timestamptz("expired_at"),
    /**
     * Set in the transaction that expires the visit or cancels it for the clinician: its refund (or
     * the notice that the membership covered it) and the patient's e-mail are still to be done.
     * Cleared once done, so the job that retries them never refunds twice.
     */
    settlementPending: boolean("settlement_pending").notNull().default(false),
  },
  (table) => [
    check("consultations_type_known", sql`${table.type} in ('chat', 'video')`),
    check(
      "consultations_status_known",
      sql`${table.status} in ('requested', 'accepted', 'in_progress', 'completed', 'canceled', 'expired')`,
    ),
    check("consultations_paid_with_known", sql`${table.paidWith} in ('membership', 'visit_credit')`),
    check(
      "consultations_completed_at_set",
      sql`(${table.status} = 'completed') = (${table.completedAt} is not null)`,
    ),
    check(
      "consultations_canceled_at_set",
      sql`(${table.status} = 'canceled') = (${table.canceledAt} is not null)`,
    ),
    check(
      "consultations_expired_at_set",
      sql`(${table.status} = 'expired') = (${table.expiredAt} is not null)`,
    ),
    // A visit a clinician accepted always has its provider.
    check(
      "consultations_provider_when_accepted",
      sql`${table.status} in ('requested', 'canceled', 'expired') or ${table.providerId} is not null`,
    ),
    check("consultations_state_code", sql`${table.state} ~ '^[A-Z]{2}$'`),
    index("consultations_user_id_idx").on(table.userId, table.createdAt),
    index("consultations_provider_id_idx").on(table.providerId),
    uniqueIndex("consultations_user_idempotency_key").on(table.userId, table.idempotencyKey),
    // The clinicians' queue and the expiry job read the open requests, oldest first.
    index("consultations_requested_idx").on(table.createdAt).where(sql`${table.status} = 'requested'`),
    index("consultations_settlement_pending_idx").on(table.id).where(sql`${table.settlementPending}`),
  ],
);

/**
 * Every status change of a consultation: from (null when it was requested), to, who (a user, or
 * null with actor kind "system" for the expiry job), why (a clinician's cancel reason), when.
 */
export const consultationStatusHistory = pgTable(
  "consultation_status_history",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    consultationId: uuid("consultation_id")
      .notNull()
      .references(() => consultations.id, { onDelete: "cascade" }),
    fromStatus: text("from_status").$type<ConsultationStatus>(),
    toStatus: text("to_status").$type<ConsultationStatus>().notNull(),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorKind: text("actor_kind").$type<VisitActorKind>().notNull(),
    reason: text("reason"),
    at: timestamptz("at").notNull(),
  },
  (table) => [
    check(
      "consultation_status_history_actor_kind_known",
      sql`${table.actorKind} in ('patient', 'clinician', 'system')`,
    ),
    index("consultation_status_history_consultation_id_idx").on(table.consultationId, table.at),
  ],
);

/**
 * A participant joining, leaving or rejoining a video visit's call: the visit's history of the call
 * (when each side was there). Nothing of the call's content is stored.
 */
export const visitCallEvents = pgTable(
  "visit_call_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    consultationId: uuid("consultation_id")
      .notNull()
      .references(() => consultations.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    side: text("side").$type<"patient" | "clinician">().notNull(),
    event: text("event").$type<"join" | "leave" | "reconnect">().notNull(),
    at: timestamptz("at").notNull(),
  },
  (table) => [
    check("visit_call_events_side_known", sql`${table.side} in ('patient', 'clinician')`),
    check("visit_call_events_event_known", sql`${table.event} in ('join', 'leave', 'reconnect')`),
    index("visit_call_events_consultation_id_idx").on(table.consultationId, table.at),
  ],
);

/** A patient's rating of a completed consultation: one per consultation (the unique constraint). */
export const ratings = pgTable(
  "ratings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    consultationId: uuid("consultation_id")
      .notNull()
      .unique()
      .references(() => consultations.id, { onDelete: "cascade" }),
    stars: smallint("stars").notNull(),
    comment: text("comment"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("ratings_stars_range", sql`${table.stars} between 1 and 5`),
    check("ratings_comment_length", sql`char_length(${table.comment}) <= 1000`),
    index("ratings_provider_id_idx").on(table.providerId),
    index("ratings_user_id_idx").on(table.userId),
  ],
);

// Membership and billing (docs/decisions/015-membership-and-billing.md).

/**
 * A patient's membership. At most one is not ended per patient (partial unique index); ended ones
 * stay for the history and the invoices. Status changes only through the transition table in
 * apps/api/src/modules/membership/subscription-states.ts, each one written to subscription_history. The saved
 * card is its brand, last 4 digits and the payment provider's token, never the number.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    plan: text("plan").$type<MembershipPlanKey>().notNull(),
    interval: text("interval").$type<BillingInterval>().notNull(),
    /** An interval change that takes effect at the next renewal. */
    pendingInterval: text("pending_interval").$type<BillingInterval>(),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    trialEndsAt: timestamptz("trial_ends_at"),
    currentPeriodStart: timestamptz("current_period_start").notNull(),
    currentPeriodEnd: timestamptz("current_period_end").notNull(),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    canceledAt: timestamptz("canceled_at"),
    endedAt: timestamptz("ended_at"),
    /** When a past-due renewal is charged again; failedAttempts counts the failures of this period. */
    retryAt: timestamptz("retry_at"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    provider: text("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id").unique(),
    providerCustomerId: text("provider_customer_id"),
    paymentToken: text("payment_token"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    createdAt: timestamptz("created_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (table) => [
    check(
      "subscriptions_status_known",
      sql`${table.status} in ('trialing', 'active', 'canceled', 'past_due', 'ended')`,
    ),
    check("subscriptions_interval_known", sql`${table.interval} in ('month', 'year')`),
    check(
      "subscriptions_pending_interval_known",
      sql`${table.pendingInterval} is null or ${table.pendingInterval} in ('month', 'year')`,
    ),
    check("subscriptions_plan_known", sql`${table.plan} in ('subscription_monthly', 'subscription_yearly')`),
    check("subscriptions_provider_known", sql`${table.provider} in ('demo', 'stripe')`),
    check("subscriptions_period_order", sql`${table.currentPeriodEnd} > ${table.currentPeriodStart}`),
    uniqueIndex("subscriptions_one_live_per_user").on(table.userId).where(sql`${table.status} <> 'ended'`),
    index("subscriptions_user_id_idx").on(table.userId),
    index("subscriptions_period_end_idx").on(table.currentPeriodEnd),
  ],
);

/** Every status change of a membership: from (null when it was created), to, why, when. */
export const subscriptionHistory = pgTable(
  "subscription_history",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    fromStatus: text("from_status").$type<SubscriptionStatus>(),
    toStatus: text("to_status").$type<SubscriptionStatus>().notNull(),
    reason: text("reason").notNull(),
    at: timestamptz("at").notNull(),
  },
  (table) => [index("subscription_history_subscription_id_idx").on(table.subscriptionId)],
);

/** Why a patient canceled (the cancel-subscription feedback form). */
export const cancelFeedback = pgTable(
  "cancel_feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    comment: text("comment"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (table) => [
    check("cancel_feedback_comment_length", sql`char_length(${table.comment}) <= 1000`),
    index("cancel_feedback_subscription_id_idx").on(table.subscriptionId),
  ],
);

/**
 * A started purchase of a membership or a one-time visit. Paying it (demo page or Stripe webhook)
 * happens once: the row is locked while it is paid and `paid_at` is set in the same transaction.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<CheckoutKind>().notNull(),
    plan: text("plan").$type<PlanKey>().notNull(),
    amountCents: integer("amount_cents").notNull(),
    trialDays: integer("trial_days").notNull(),
    returnPath: text("return_path").notNull(),
    provider: text("provider").notNull(),
    providerSessionId: text("provider_session_id").unique(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    paidAt: timestamptz("paid_at"),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
  },
  (table) => [
    check("checkouts_kind_known", sql`${table.kind} in ('subscription', 'visit')`),
    check("checkouts_amount_positive", sql`${table.amountCents} > 0`),
    index("checkouts_user_id_idx").on(table.userId),
  ],
);

/**
 * What a patient owes or paid: one per paid checkout and one per membership period. The idempotency
 * key (`checkout:<id>`, `renewal:<subscription>:<period start>`) makes a second charge of the same
 * thing impossible. `seq` gives the human-readable number.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: integer("seq").notNull().generatedAlwaysAsIdentity(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    checkoutId: uuid("checkout_id").references(() => checkouts.id, { onDelete: "set null" }),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    providerInvoiceId: text("provider_invoice_id").unique(),
    plan: text("plan").$type<PlanKey>().notNull(),
    description: text("description").notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status").$type<InvoiceStatus>().notNull(),
    periodStart: timestamptz("period_start"),
    periodEnd: timestamptz("period_end"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    issuedAt: timestamptz("issued_at").notNull(),
    paidAt: timestamptz("paid_at"),
    /** A paid one-time visit given back (the visit expired or a clinician canceled it). */
    refundedAt: timestamptz("refunded_at"),
    refundedAmountCents: integer("refunded_amount_cents"),
    providerRefundId: text("provider_refund_id"),
  },
  (table) => [
    check(
      "invoices_refund_complete",
      sql`(${table.refundedAt} is null) = (${table.refundedAmountCents} is null)`,
    ),
    check("invoices_status_known", sql`${table.status} in ('paid', 'open', 'void', 'failed')`),
    check("invoices_amount_not_negative", sql`${table.amountCents} >= 0`),
    check("invoices_paid_at_set", sql`(${table.status} = 'paid') = (${table.paidAt} is not null)`),
    index("invoices_user_id_issued_at_idx").on(table.userId, table.issuedAt),
  ],
);

/** Each attempt to charge an invoice, successful or not; the key makes a retried attempt a no-op. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    outcome: text("outcome").notNull(),
    failureReason: text("failure_reason"),
    providerPaymentId: text("provider_payment_id"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (table) => [
    check("payments_outcome_known", sql`${table.outcome} in ('succeeded', 'failed')`),
    index("payments_invoice_id_idx").on(table.invoiceId),
  ],
);

/** One consultation bought with a one-time visit; consumed once (consumed_at set). */
export const visitCredits = pgTable(
  "visit_credits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<ConsultationType>().notNull(),
    checkoutId: uuid("checkout_id")
      .notNull()
      .unique()
      .references(() => checkouts.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    consumedAt: timestamptz("consumed_at"),
    /** The consultation that spent it: a refund of that consultation finds its payment here. */
    consultationId: uuid("consultation_id").references(() => consultations.id, { onDelete: "set null" }),
  },
  (table) => [
    check("visit_credits_type_known", sql`${table.type} in ('chat', 'video')`),
    index("visit_credits_user_id_idx").on(table.userId),
    uniqueIndex("visit_credits_consultation_id").on(table.consultationId),
  ],
);

/** Payment-provider webhook events already applied: a replayed event id changes nothing. */
export const processedWebhookEvents = pgTable("processed_webhook_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamptz("processed_at").notNull(),
});

// Communications

/**
 * Messages from the contact form and the support widget (ADR 016). `user_id` is set when a
 * logged-in patient wrote it (their /my-profile/messages shows it). When the patient asks for
 * deletion, name, e-mail and message are erased and `anonymised_at` is set: the row only counts
 * that a message on a topic was received.
 */
export const contactEntries = pgTable(
  "contact_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name"),
    email: text("email"),
    topic: text("topic").$type<ContactTopic>().notNull(),
    message: text("message"),
    segment: text("segment").notNull(),
    source: text("source").$type<ContactSource>().notNull(),
    locale: text("locale").$type<Locale>().notNull().default(DEFAULT_LOCALE),
    createdAt: timestamptz("created_at").notNull(),
    anonymisedAt: timestamptz("anonymised_at"),
  },
  (table) => [
    check("contact_entries_source_known", sql`${table.source} in ('contact_form', 'widget')`),
    check("contact_entries_message_length", sql`char_length(${table.message}) <= 5000`),
    check(
      "contact_entries_anonymised_or_complete",
      sql`${table.anonymisedAt} is not null or (${table.name} is not null and ${table.email} is not null and ${table.message} is not null)`,
    ),
    index("contact_entries_user_id_created_idx").on(table.userId, table.createdAt),
    index("contact_entries_email_idx").on(table.email),
  ],
);

/**
 * Addresses on a marketing e-mail list, with double opt-in: `pending` until the link of the
 * confirmation e-mail is followed (its token stored as SHA-256 only), then `subscribed`; an
 * unsubscribe keeps the row as `unsubscribed` so nothing is sent again until a resubscribe.
 * Only `subscribed` addresses receive marketing mail.
 */
export const mailingListMembers = pgTable(
  "mailing_list_members",
  {
    list: text("list").$type<MailingList>().notNull(),
    email: text("email").notNull(),
    status: text("status").$type<MailingListStatus>().notNull(),
    locale: text("locale").$type<Locale>().notNull().default(DEFAULT_LOCALE),
    confirmTokenHash: text("confirm_token_hash").unique(),
    confirmExpiresAt: timestamptz("confirm_expires_at"),
    createdAt: timestamptz("created_at").notNull(),
    confirmedAt: timestamptz("confirmed_at"),
    unsubscribedAt: timestamptz("unsubscribed_at"),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.list, table.email] }),
    check(
      "mailing_list_members_status_known",
      sql`${table.status} in ('pending', 'subscribed', 'unsubscribed')`,
    ),
    check("mailing_list_members_email_lower_case", sql`${table.email} = lower(${table.email})`),
  ],
);

/**
 * Captcha solutions already accepted, kept until the challenge expires so that one solution
 * cannot be replayed (the primary key makes a second use fail even when two instances race).
 */
export const captchaSolutions = pgTable(
  "captcha_solutions",
  {
    /** SHA-256 of the solved challenge's signature. */
    solutionHash: text("solution_hash").primaryKey(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [index("captcha_solutions_expires_at_idx").on(table.expiresAt)],
);

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

// Consultations and records

/**
 * Documents a patient uploads to their medical records. The bytes live in
 * `$DATA_DIR/uploads/<storage_key>` (outside any web root) under a random key; the content type is
 * the one detected from the first bytes, never the one the browser claimed.
 */
export const medicalDocuments = pgTable(
  "medical_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").$type<DocumentContentType>().notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    storageKey: text("storage_key").notNull().unique(),
    sha256: text("sha256").notNull(),
    /** The visit whose thread it was sent to; such a file can be attached there only. */
    consultationId: uuid("consultation_id").references(() => consultations.id, { onDelete: "set null" }),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check(
      "medical_documents_content_type_known",
      sql`${table.contentType} in ('application/pdf', 'image/jpeg', 'image/png')`,
    ),
    check("medical_documents_size_range", sql`${table.sizeBytes} between 1 and 10485760`),
    index("medical_documents_user_id_idx").on(table.userId, table.createdAt),
  ],
);

/**
 * The clinician's notes of a visit in SOAP form, saved as they type. `version` goes up with every
 * save, so a save based on an older version is refused instead of overwriting newer text. Once
 * signed (with the visit's completion) the notes never change; corrections are addenda.
 */
export const visitNotes = pgTable("visit_notes", {
  consultationId: uuid("consultation_id")
    .primaryKey()
    .references(() => consultations.id, { onDelete: "cascade" }),
  subjective: text("subjective").notNull().default(""),
  objective: text("objective").notNull().default(""),
  assessment: text("assessment").notNull().default(""),
  plan: text("plan").notNull().default(""),
  version: integer("version").notNull().default(0),
  updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  signedAt: timestamptz("signed_at"),
  signedBy: uuid("signed_by").references(() => users.id, { onDelete: "set null" }),
});

/** A correction or addition to signed visit notes, signed by its clinician and timed. */
export const visitNoteAddenda = pgTable(
  "visit_note_addenda",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    consultationId: uuid("consultation_id")
      .notNull()
      .references(() => consultations.id, { onDelete: "cascade" }),
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    signedAt: timestamptz("signed_at").notNull(),
  },
  (table) => [index("visit_note_addenda_consultation_idx").on(table.consultationId, table.signedAt)],
);

/**
 * One thread per consultation: the patient, the clinician and system notices write to it. The
 * server orders it (`seq`, 1, 2, 3… per consultation, given under a lock of the consultation row);
 * a sender's own id (`client_id`) makes a resend find the stored message instead of adding one.
 * Messages are never edited or deleted: a retraction keeps the text for the record.
 */
export const consultationMessages = pgTable(
  "consultation_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    consultationId: uuid("consultation_id")
      .notNull()
      .references(() => consultations.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    /** The id the sender's device gave the message; null for system notices and older messages. */
    clientId: uuid("client_id"),
    author: text("author").$type<MessageAuthor>().notNull(),
    /** The account that wrote it; null for system notices. */
    authorUserId: uuid("author_user_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /** When the other party's device acknowledged receiving it. */
    deliveredAt: timestamptz("delivered_at"),
    /** When the other party acknowledged reading it. */
    readAt: timestamptz("read_at"),
    /** When its author took it back; the text stays for the record. */
    retractedAt: timestamptz("retracted_at"),
  },
  (table) => [
    check("consultation_messages_author_known", sql`${table.author} in ('patient', 'provider', 'system')`),
    check("consultation_messages_body_length", sql`char_length(${table.body}) between 1 and 4000`),
    index("consultation_messages_consultation_idx").on(table.consultationId, table.createdAt),
    uniqueIndex("consultation_messages_seq_idx").on(table.consultationId, table.seq),
    uniqueIndex("consultation_messages_client_id_idx").on(table.consultationId, table.clientId),
  ],
);

/** Files sent in a visit's thread: each is one of the visit patient's medical documents. */
export const consultationMessageAttachments = pgTable(
  "consultation_message_attachments",
  {
    messageId: uuid("message_id")
      .notNull()
      .references(() => consultationMessages.id, { onDelete: "cascade" }),
    documentId: uuid("document_id")
      .notNull()
      .references(() => medicalDocuments.id, { onDelete: "cascade" }),
  },
  (table) => [
    primaryKey({ columns: [table.messageId, table.documentId] }),
    index("consultation_message_attachments_document_idx").on(table.documentId),
  ],
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
