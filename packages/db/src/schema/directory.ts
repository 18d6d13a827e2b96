// The provider directory: specializations, conditions, providers and their licences (ADR 012, 028).

import { calendarDayIn } from "@ambercare/contracts/time-zone";
import type { VisitType } from "@ambercare/contracts/visit-types";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { timestamptz, translations } from "./columns.ts";
import { visitTypeLiterals } from "./visit-types.ts";

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
    /**
     * The kinds of visit the provider offers (ids of packages/contracts' visit-types list), at least
     * one; a new provider offers every kind unless told otherwise. A visit's kind is offered when it
     * is in here (`c.type = any(p.visit_types)`), so a kind no provider lists matches none.
     */
    visitTypes: text("visit_types")
      .array()
      .$type<VisitType[]>()
      .notNull()
      .default(sql`array[${visitTypeLiterals()}]::text[]`),
    availableToday: boolean("available_today").notNull().default(false),
    ratingCount: integer("rating_count").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    /** round(rating_sum / rating_count, 2); 0 while there are no ratings. */
    ratingAverage: numeric("rating_average", { precision: 3, scale: 2, mode: "number" }).notNull().default(0),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /**
     * When an operator took the provider out of the directory (ADR 065): patients no longer find
     * them (search, profile, booking), but their visits, ratings and history stay. Null: listed.
     */
    unlistedAt: timestamptz("unlisted_at"),
  },
  (table) => [
    check("providers_credentials_known", sql`${table.credentials} in ('MD', 'DO', 'NP', 'PA')`),
    check(
      "providers_offers_a_type",
      sql`cardinality(${table.visitTypes}) > 0 and ${table.visitTypes} <@ array[${visitTypeLiterals()}]::text[]`,
    ),
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
    // "Available today" and the kind of visit: the filters and their counts come from the index alone.
    index("providers_availability_idx").on(table.availableToday, table.visitTypes),
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

/** PostgreSQL `bytea` as a Buffer (node-postgres answers a Buffer, PGlite a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * The providers' photos operators upload (ADR 070), in the database so that every host serves them:
 * the checked, re-encoded bytes under the first 32 hex digits of their SHA-256, which is also their
 * name in `providers.photo_path` (`/images/provider-photos/<hash>.jpg`). A row never changes: a new
 * photo is a new row.
 */
export const providerPhotos = pgTable(
  "provider_photos",
  {
    hash: text("hash").primaryKey(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("provider_photos_hash_hex", sql`${table.hash} ~ '^[0-9a-f]{32}$'`),
    check("provider_photos_content_type_image", sql`${table.contentType} = 'image/jpeg'`),
    check("provider_photos_bytes_bounded", sql`octet_length(${table.bytes}) between 1 and 2097152`),
  ],
);

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

/**
 * The US states (USPS codes) where a provider is licensed to practise. A licence with an expiry date
 * counts up to and including that day, the clinic's (CLINIC_TIME_ZONE, licenceDay); from the next
 * day the provider is no longer offered to that state's patients (ADR 065). Null: no expiry recorded.
 */
export const providerLicenses = pgTable(
  "provider_licenses",
  {
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    expiresOn: date("expires_on", { mode: "string" }),
  },
  (table) => [
    primaryKey({ columns: [table.providerId, table.state] }),
    index("provider_licenses_state_idx").on(table.state, table.providerId),
    check("provider_licenses_state_code", sql`${table.state} ~ '^[A-Z]{2}$'`),
  ],
);

/**
 * The calendar day (YYYY-MM-DD) of `now` in the clinic's time zone (CLINIC_TIME_ZONE, UTC by
 * default): the day a licence's expiry is compared with, so a licence that expires on D counts
 * until the midnight that ends D there. `undefined`: UTC.
 */
export function licenceDay(now: Date, timeZone: string | undefined): string {
  return calendarDayIn(now, timeZone ?? "UTC");
}

/** A licence row counts on `today` (licenceDay): no expiry, or it expires that day or later. */
export function licenceInForce(today: string) {
  return sql`(${providerLicenses.expiresOn} is null or ${providerLicenses.expiresOn} >= ${today}::date)`;
}
