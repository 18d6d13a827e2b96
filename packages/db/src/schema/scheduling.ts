// Booked visits: clinicians' hours and the bookings of their time (ADR 059).
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { clinicians } from "./care-team.ts";
import { timestamptz } from "./columns.ts";
import { consultations } from "./consultations.ts";
import { providers } from "./directory.ts";
import { visitTypeLiterals } from "./visit-types.ts";

export type BookingStatus = "held" | "booked" | "released" | "moved" | "canceled";
export type HourExceptionKind = "off" | "extra";

/**
 * A clinician's booking settings: the IANA zone their hours are written in, the least notice a
 * booking needs, how many days ahead patients may book, and slot lengths per visit type overriding
 * the clinic's (SLOT_MINUTES_<KIND>, default the kind's slotMinutes in packages/contracts'
 * visit-types list). A clinician without a row takes no bookings.
 */
export const clinicianSchedules = pgTable(
  "clinician_schedules",
  {
    clinicianUserId: uuid("clinician_user_id")
      .primaryKey()
      .references(() => clinicians.userId, { onDelete: "cascade" }),
    timeZone: text("time_zone").notNull(),
    minNoticeMinutes: integer("min_notice_minutes").notNull().default(60),
    horizonDays: integer("horizon_days").notNull().default(14),
    slotMinutes: jsonb("slot_minutes")
      .$type<Partial<Record<ConsultationType, number>>>()
      .notNull()
      .default({}),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check("clinician_schedules_min_notice_range", sql`${table.minNoticeMinutes} between 0 and 10080`),
    check("clinician_schedules_horizon_range", sql`${table.horizonDays} between 1 and 90`),
  ],
);

/**
 * The weekly hours: ranges of a weekday (ISO, 1 = Monday … 7 = Sunday) in minutes after the
 * clinician's local midnight, with the visit types taken in them. Several rows a day.
 */
export const clinicianWeeklyHours = pgTable(
  "clinician_weekly_hours",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clinicianUserId: uuid("clinician_user_id")
      .notNull()
      .references(() => clinicians.userId, { onDelete: "cascade" }),
    weekday: integer("weekday").notNull(),
    startMinute: integer("start_minute").notNull(),
    endMinute: integer("end_minute").notNull(),
    visitTypes: text("visit_types").array().$type<ConsultationType[]>().notNull(),
  },
  (table) => [
    check("clinician_weekly_hours_weekday_range", sql`${table.weekday} between 1 and 7`),
    check(
      "clinician_weekly_hours_minutes_range",
      sql`0 <= ${table.startMinute} and ${table.startMinute} < ${table.endMinute} and ${table.endMinute} <= 1440`,
    ),
    check(
      "clinician_weekly_hours_visit_types_known",
      sql`${table.visitTypes} <@ array[${visitTypeLiterals()}]::text[] and cardinality(${table.visitTypes}) > 0`,
    ),
    index("clinician_weekly_hours_clinician_idx").on(table.clinicianUserId, table.weekday),
  ],
);

/**
 * A change of one of the clinician's local dates: 'off' removes a range (or, without one, the whole
 * day), 'extra' adds a range with its visit types.
 */
export const clinicianHourExceptions = pgTable(
  "clinician_hour_exceptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clinicianUserId: uuid("clinician_user_id")
      .notNull()
      .references(() => clinicians.userId, { onDelete: "cascade" }),
    onDate: date("on_date", { mode: "string" }).notNull(),
    kind: text("kind").$type<HourExceptionKind>().notNull(),
    startMinute: integer("start_minute"),
    endMinute: integer("end_minute"),
    visitTypes: text("visit_types")
      .array()
      .$type<ConsultationType[]>()
      .notNull()
      .default(sql`array[${visitTypeLiterals()}]::text[]`),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (table) => [
    check("clinician_hour_exceptions_kind_known", sql`${table.kind} in ('off', 'extra')`),
    check(
      "clinician_hour_exceptions_range",
      sql`(${table.startMinute} is null and ${table.endMinute} is null and ${table.kind} = 'off')
        or (0 <= ${table.startMinute} and ${table.startMinute} < ${table.endMinute} and ${table.endMinute} <= 1440)`,
    ),
    index("clinician_hour_exceptions_clinician_idx").on(table.clinicianUserId, table.onDate),
  ],
);

/**
 * A clinician's time taken by a patient: 'held' for a few minutes while the patient fills in the
 * intake and pays (`hold_expires_at`), then 'booked' with its consultation; 'released' (a hold
 * given back or expired), 'moved' (rescheduled: the visit's next booking took over) or 'canceled'.
 * No two 'held' or 'booked' rows of one clinician overlap: the migration adds the exclusion
 * constraint `bookings_no_overlap` (btree_gist), which Drizzle cannot declare, and a trigger that
 * cancels the booking of a consultation that is canceled, expires or is missed.
 */
export const bookings = pgTable(
  "bookings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    consultationId: uuid("consultation_id").references(() => consultations.id, { onDelete: "cascade" }),
    patientUserId: uuid("patient_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clinicianUserId: uuid("clinician_user_id")
      .notNull()
      .references(() => clinicians.userId, { onDelete: "cascade" }),
    providerId: uuid("provider_id")
      .notNull()
      .references(() => providers.id, { onDelete: "restrict" }),
    type: text("type").$type<ConsultationType>().notNull(),
    /** USPS code of the state the patient will be in. */
    state: text("state").notNull(),
    startsAt: timestamptz("starts_at").notNull(),
    endsAt: timestamptz("ends_at").notNull(),
    status: text("status").$type<BookingStatus>().notNull(),
    holdExpiresAt: timestamptz("hold_expires_at"),
    /** iCalendar SEQUENCE of the visit's invitation: one more than the booking it was moved from. */
    sequence: integer("sequence").notNull().default(0),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check(
      "bookings_status_known",
      sql`${table.status} in ('held', 'booked', 'released', 'moved', 'canceled')`,
    ),
    check("bookings_type_known", sql`${table.type} in (${visitTypeLiterals()})`),
    check("bookings_range", sql`${table.startsAt} < ${table.endsAt}`),
    check("bookings_state_code", sql`${table.state} ~ '^[A-Z]{2}$'`),
    check("bookings_hold_expiry", sql`${table.status} <> 'held' or ${table.holdExpiresAt} is not null`),
    check(
      "bookings_booked_consultation",
      sql`${table.status} <> 'booked' or ${table.consultationId} is not null`,
    ),
    index("bookings_clinician_starts_idx").on(table.clinicianUserId, table.startsAt),
    index("bookings_consultation_idx").on(table.consultationId),
    index("bookings_patient_idx").on(table.patientUserId, table.status),
  ],
);
