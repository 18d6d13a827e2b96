/**
 * Database schema (PostgreSQL 15 and PGlite), one file per domain module under `schema/`, the
 * tables of the API module of the same name (apps/api/src/modules). Column names are snake_case in
 * SQL and camelCase in TypeScript. The directory's texts are in the default language
 * (DEFAULT_LOCALE) in their own columns, and in every other language in one `translations` jsonb
 * column of the same row (ADR 028), so a new language is new data, not a new column in every table.
 *
 * This file gathers them: services import `@ambercare/db/schema`, and drizzle-kit reads the whole
 * schema from here (drizzle.config.ts).
 */
export * from "./schema/accounts.ts";
export * from "./schema/care-team.ts";
export * from "./schema/columns.ts";
export * from "./schema/communications.ts";
export * from "./schema/consultations.ts";
export * from "./schema/directory.ts";
export * from "./schema/membership.ts";
export * from "./schema/my-data.ts";
export * from "./schema/notifications.ts";
export * from "./schema/operations.ts";
export * from "./schema/platform.ts";
export * from "./schema/ratings.ts";
export * from "./schema/scheduling.ts";
