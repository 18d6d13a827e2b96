// Communications: the contact form, mailing lists and captcha solutions (ADR 016).
import type {
  ContactSource,
  ContactTopic,
  MailingList,
  MailingListStatus,
} from "@ambercare/contracts/communications-constants";
import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";

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
