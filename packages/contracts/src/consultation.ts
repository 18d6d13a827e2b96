import { z } from "zod";
import {
  AUDIT_ACTIONS,
  AUDIT_RESOURCES,
  CONSULTATION_STATUSES,
  DOCUMENT_CONTENT_TYPES,
  MESSAGE_ATTACHMENTS_MAX,
  MESSAGE_AUTHORS,
  MESSAGE_MAX_LENGTH,
  PATIENT_KINDS,
  PAYMENT_SOURCES,
} from "./consultation-limits.ts";
import { dataEnvelope, listEnvelope } from "./envelope.ts";
import { intakeRecord, intakeSchema } from "./intake-schemas.ts";
import { CONSULTATION_TYPES } from "./provider.ts";
import { textSchema } from "./text.ts";

/**
 * Consultations, their intake, medical documents, message threads and the audit log (care API,
 * `/{product}/create-consultation`, `/{product}/consultations…`, `/{product}/medical-records…`,
 * `/{product}/audit-log`). The intake is declared once in intake.ts, its schemas built in
 * intake-schemas.ts (docs/decisions/057-one-intake-schema.md);
 * docs/decisions/018-consultations-and-records.md explains the rest.
 */

/** Each consent must be given; the server records when. */
export const consentsSchema = z
  .object({
    informed_consent: z.literal(true),
    audio_video_recording: z.literal(true),
    financial_communications: z.literal(true),
  })
  .strict();

export const createConsultationRequest = z
  .object({
    /** One random UUID per filled-in form: a second submit of the same form creates nothing new. */
    idempotency_key: z.uuid(),
    type: z.enum(CONSULTATION_TYPES),
    /** A provider chosen in find-a-doctor; null lets the care team assign one licensed in the state. */
    provider_slug: z
      .string()
      .max(200)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      .nullish()
      .transform((v) => v ?? null),
    /**
     * A slot held with `POST /{product}/bookings/holds` (ADR 059): the consultation is then a booked
     * visit at that time, with the hold's provider, type and state (the intake's state must match).
     */
    hold_id: z
      .uuid()
      .nullish()
      .transform((v) => v ?? null),
    intake: intakeSchema,
    consents: consentsSchema,
  })
  .strict();
export type CreateConsultationRequest = z.input<typeof createConsultationRequest>;

const providerSummary = z
  .object({ id: z.uuid(), slug: z.string(), name: z.string(), credentials: z.string() })
  .strict();

export const consultation = z
  .object({
    id: z.uuid(),
    type: z.enum(CONSULTATION_TYPES),
    status: z.enum(CONSULTATION_STATUSES),
    provider: providerSummary.nullable(),
    state: z.string().length(2),
    /** "self", or the dependent's first and last name. */
    patient: z.enum(PATIENT_KINDS),
    patient_name: z.string().nullable(),
    paid_with: z.enum(PAYMENT_SOURCES),
    visit_summary: z.string().nullable(),
    rated: z.boolean(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    canceled_at: z.iso.datetime().nullable(),
    /** A booked visit's start (ADR 059); null for an on-demand request. Optional for older answers. */
    scheduled_start: z.iso.datetime().nullable().optional(),
    /** When the patient of a booked visit checked in; null until then. */
    checked_in_at: z.iso.datetime().nullable().optional(),
  })
  .strict();
export type Consultation = z.infer<typeof consultation>;

/** One consultation with its intake answers and when each consent was given. */
export const consultationDetail = consultation
  .extend({ intake: intakeRecord, consents_accepted_at: z.iso.datetime() })
  .strict();
export type ConsultationDetail = z.output<typeof consultationDetail>;

export const consultationResponse = dataEnvelope(consultation);
export const consultationDetailResponse = dataEnvelope(consultationDetail);
export const consultationListResponse = listEnvelope(consultation);
export type ConsultationListResponse = z.infer<typeof consultationListResponse>;

/** `GET /{product}/medical-records/visits`: the most recent visits that were not canceled, with their intake. */
export const visitRecordsResponse = listEnvelope(consultationDetail);

export const consultationIdParams = z.object({ id: z.uuid() });

export const medicalDocument = z
  .object({
    id: z.uuid(),
    file_name: z.string(),
    content_type: z.enum(DOCUMENT_CONTENT_TYPES),
    size: z.number().int().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    created_at: z.iso.datetime(),
  })
  .strict();
export type MedicalDocument = z.infer<typeof medicalDocument>;
export const medicalDocumentIdParams = z.object({ id: z.uuid() });
export const medicalDocumentResponse = dataEnvelope(medicalDocument);
export const medicalDocumentListResponse = listEnvelope(medicalDocument);

/** A file sent in a visit's thread (one of the visit patient's medical documents). */
export const messageAttachment = medicalDocument.pick({
  id: true,
  file_name: true,
  content_type: true,
  size: true,
});
export type MessageAttachment = z.infer<typeof messageAttachment>;

/**
 * One message of a visit's thread. `seq` is the server's order (1, 2, 3… per visit): clients sort
 * and catch up by it. `delivered_at`/`read_at` are the other party's receipts. A retracted message
 * keeps its text for the record; pages show it as retracted.
 */
export const message = z
  .object({
    id: z.uuid(),
    consultation_id: z.uuid(),
    seq: z.number().int().min(1),
    client_id: z.uuid().nullable(),
    author: z.enum(MESSAGE_AUTHORS),
    body: z.string(),
    created_at: z.iso.datetime(),
    delivered_at: z.iso.datetime().nullable(),
    read_at: z.iso.datetime().nullable(),
    retracted_at: z.iso.datetime().nullable(),
    attachments: z.array(messageAttachment),
  })
  .strict();
export type Message = z.infer<typeof message>;
export const messageResponse = dataEnvelope(message);
export const messageListResponse = listEnvelope(message);
export const createMessageRequest = z
  .object({
    body: textSchema().trim().min(1).max(MESSAGE_MAX_LENGTH),
    /** The sender's own id for this message: sending it again returns the stored one (200). */
    client_id: z.uuid().optional(),
    /** Files uploaded to this visit first (`POST …/attachments`). */
    attachment_ids: z.array(z.uuid()).max(MESSAGE_ATTACHMENTS_MAX).optional(),
  })
  .strict();
export type CreateMessageRequest = z.input<typeof createMessageRequest>;

/** `GET …/messages?after=N`: only the messages after sequence number N (a page catching up). */
export const messageListQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number)
      .optional(),
  })
  .strict();

/** The reader's acknowledgement: everything the other party wrote up to `up_to_seq` arrived / was read. */
export const messageReceiptRequest = z
  .object({ receipt: z.enum(["delivered", "read"]), up_to_seq: z.number().int().min(0) })
  .strict();
export const messageReceiptResponse = dataEnvelope(
  z
    .object({
      receipt: z.enum(["delivered", "read"]),
      up_to_seq: z.number().int().min(0),
      updated: z.number().int(),
    })
    .strict(),
);

export const messageIdParams = z.object({ id: z.uuid(), messageId: z.uuid() });
export const attachmentParams = z.object({ id: z.uuid(), documentId: z.uuid() });

export const auditEntry = z
  .object({
    id: z.uuid(),
    /**
     * "self" when the patient did it; "other" for another patient's account (a refused attempt);
     * otherwise the kind of actor (a clinician of the care team, a provider, the system).
     */
    actor: z.enum(["self", "other", "clinician", "provider", "operator", "system"]),
    /** The clinician's name ("Ann Lee, MD") on a clinician's row; null on every other row. */
    actor_name: z.string().nullable(),
    action: z.enum(AUDIT_ACTIONS),
    resource_type: z.enum(AUDIT_RESOURCES),
    resource_id: z.uuid().nullable(),
    at: z.iso.datetime(),
    ip: z.string().nullable(),
    /** How many times in a row (from `at`, within a minute of each other): a refused burst is one entry. */
    count: z.number().int().min(1),
  })
  .strict();
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditLogResponse = listEnvelope(auditEntry);
export const auditLogQuery = z
  .object({
    page: z
      .string()
      .regex(/^\d{1,6}$/)
      .transform(Number)
      .pipe(z.number().int().min(1))
      .optional()
      .default(1),
  })
  .strict();

export const CONSULTATION_ERRORS = Object.freeze({
  paymentRequired:
    "A consultation needs an active membership or a one-time visit of this type. Start a membership trial or buy a one-time visit.",
  noProviderInState: "No provider is licensed in this state yet",
  providerNotFound: "Provider not found",
  providerNotLicensed: "This provider is not licensed in the state you are in",
  providerTypeNotOffered: "This provider does not offer this type of consultation",
  notFound: "Consultation not found",
  notYours: "This consultation belongs to another patient",
  notCancelable: "Only a consultation that has not started can be canceled",
  transitionRefused: "This consultation cannot change to that status now",
  alreadyTaken: "Another clinician has already accepted this consultation",
  notInQueue: "This consultation is not in your queue",
  otherClinician: "This consultation is another clinician's",
  cancelReasonRequired: "Give a reason for canceling the consultation",
  futureDate: "The date cannot be in the future",
  canceled: "This consultation was canceled",
  documentNotFound: "Document not found",
  documentNotYours: "This document belongs to another patient",
  documentType: "Upload a PDF, JPEG or PNG file",
  documentTooLarge: "The file is larger than 10 MB",
  documentEmpty: "The file is empty",
  documentName: "Give the file a name (the X-File-Name header)",
  threadNotOpen: "The chat opens when a clinician accepts the visit",
  threadClosed: "The follow-up period of this visit is over: its messages can be read but not answered",
  threadReadOnly: "This visit ended without taking place: its messages can be read but not answered",
  messageNotFound: "Message not found",
  messageNotYours: "Only the author of a message can retract it",
  attachmentNotFound: "Attach files uploaded to this visit",
  clientIdReused: "This client_id was already used for another message",
} as const);
