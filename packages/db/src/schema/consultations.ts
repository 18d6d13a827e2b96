// Consultations and records: visits, their history, call events, documents, notes and chat (ADR 018, 034).
import type {
  ConsultationStatus,
  DocumentContentType,
  MessageAuthor,
  PaymentSource,
  VisitActorKind,
} from "@ambercare/contracts/consultation-limits";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";
import { providers } from "./directory.ts";
import { visitTypeLiterals } from "./visit-types.ts";

/**
 * A patient's chat or video consultation (docs/decisions/018-consultations-and-records.md). The
 * intake answers are one jsonb document validated by `intakeSchema` (packages/contracts) and stored
 * with the intake version that asked them; `readStoredIntake` reads every version back (ADR 057).
 * They are always read and written whole, never queried field by field, except the state, which has
 * its own column. provider_id stays null until a provider is chosen or a clinician accepts the request.
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
    /** INTAKE_VERSION (packages/contracts/src/intake.ts) when the intake was stored; 1 before versions. */
    intakeVersion: integer("intake_version").notNull().default(1),
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
    /** A booked visit (ADR 059): its start, kept here too so lists need no join; null on demand. */
    scheduledStart: timestamptz("scheduled_start"),
    /** When the patient of a booked visit checked in (from CHECK_IN_OPENS_MINUTES before the start). */
    checkedInAt: timestamptz("checked_in_at"),
    missedAt: timestamptz("missed_at"),
    /**
     * Set in the transaction that expires the visit or cancels it for the clinician: its refund (or
     * the notice that the membership covered it) and the patient's e-mail are still to be done.
     * Cleared once done, so the job that retries them never refunds twice.
     */
    settlementPending: boolean("settlement_pending").notNull().default(false),
  },
  (table) => [
    check("consultations_type_known", sql`${table.type} in (${visitTypeLiterals()})`),
    check(
      "consultations_status_known",
      sql`${table.status} in ('requested', 'accepted', 'in_progress', 'completed', 'canceled', 'expired', 'scheduled', 'missed')`,
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
    check("consultations_missed_at_set", sql`(${table.status} = 'missed') = (${table.missedAt} is not null)`),
    check(
      "consultations_scheduled_has_start",
      sql`${table.status} <> 'scheduled' or ${table.scheduledStart} is not null`,
    ),
    // A visit a clinician accepted always has its provider.
    check(
      "consultations_provider_when_accepted",
      sql`${table.status} in ('requested', 'canceled', 'expired') or ${table.providerId} is not null`,
    ),
    check("consultations_state_code", sql`${table.state} ~ '^[A-Z]{2}$'`),
    check("consultations_intake_version_known", sql`${table.intakeVersion} >= 1`),
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
/**
 * Why the system changed a visit's status, where code decides by it: a booked visit its clinician
 * never started, or whose clinician's licence in the patient's state lapsed before it (ADR 059).
 */
export const VISIT_STATUS_CAUSES = ["clinician_never_started", "licence_lapsed"] as const;
export type VisitStatusCause = (typeof VISIT_STATUS_CAUSES)[number];

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
    /** Why the system made the change, as a code (the reason is free text for people). */
    cause: text("cause").$type<VisitStatusCause>(),
    at: timestamptz("at").notNull(),
  },
  (table) => [
    check(
      "consultation_status_history_actor_kind_known",
      sql`${table.actorKind} in ('patient', 'clinician', 'system')`,
    ),
    check(
      "consultation_status_history_cause_known",
      sql`${table.cause} is null or ${table.cause} in ('clinician_never_started', 'licence_lapsed')`,
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
