/**
 * Limits and option values of consultations, intake and medical records, with no dependency: the
 * intake form and the upload form (browser code) import them without pulling zod into the page.
 * consultation.ts builds its schemas from the same values.
 */
export const CONSULTATION_STATUSES = Object.freeze([
  "requested",
  "accepted",
  "in_progress",
  "completed",
  "canceled",
  "expired",
  /** A booked visit (ADR 059): it has a time, and a clinician starts it then. */
  "scheduled",
  /** A booked visit the patient did not come to (the clinician marked it): the visit is used. */
  "missed",
] as const);
export type ConsultationStatus = (typeof CONSULTATION_STATUSES)[number];

/**
 * A patient may cancel only before a clinician has started the visit (the API's transition table,
 * apps/api/src/modules/consultations/visit-lifecycle.ts, is the rule; the web reads this list to
 * decide whether to show the button).
 */
export const CANCELABLE_STATUSES: readonly ConsultationStatus[] = Object.freeze([
  "requested",
  "accepted",
  "scheduled",
]);

/**
 * A request that chose a provider is that provider's alone for this many minutes; then every
 * clinician who may take it sees it too, so a busy or absent provider does not keep the patient
 * waiting until the request expires. The provider's page tells the patient so.
 */
export const CHOSEN_PROVIDER_MINUTES = 5;

/** Who changed a visit's status: the patient, a clinician, or Ambercare itself (the expiry job). */
export const VISIT_ACTOR_KINDS = Object.freeze(["patient", "clinician", "system"] as const);
export type VisitActorKind = (typeof VISIT_ACTOR_KINDS)[number];

/** A clinician's reason for canceling a visit: required, written to the status history. */
export const CANCEL_REASON_MAX_LENGTH = 500;
/** The summary a clinician writes when completing a visit. */
export const VISIT_SUMMARY_MAX_LENGTH = 10_000;

/** How a consultation was paid for: decides whether canceling gives a visit credit back. */
export const PAYMENT_SOURCES = Object.freeze(["membership", "visit_credit"] as const);
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** Who the visit is for: the account holder or someone they care for. */
export const PATIENT_KINDS = Object.freeze(["self", "dependent"] as const);
export type PatientKind = (typeof PATIENT_KINDS)[number];

export const SYMPTOMS_OTHER_MAX_LENGTH = 1000;
export const INTAKE_TEXT_MAX_LENGTH = 2000;
export const TRAVEL_DESTINATION_MAX_LENGTH = 200;
export const DEPENDENT_NAME_MAX_LENGTH = 100;
export const MESSAGE_MAX_LENGTH = 4000;
/** Files one message may carry. */
export const MESSAGE_ATTACHMENTS_MAX = 5;

/** Body temperature in degrees Fahrenheit (US patients); outside this range is a typing mistake. */
export const TEMPERATURE_F_MIN = 90;
export const TEMPERATURE_F_MAX = 110;

/** Patient uploads: PDF, JPEG or PNG, recognised by their first bytes, at most 10 MB. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_CONTENT_TYPES = Object.freeze(["application/pdf", "image/jpeg", "image/png"] as const);
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];
export const DOCUMENT_FILE_NAME_MAX_LENGTH = 200;
/** The header that carries the (percent-encoded) file name of a raw-body upload. */
export const DOCUMENT_FILE_NAME_HEADER = "x-file-name";

/** Who wrote a message in a consultation's thread. */
export const MESSAGE_AUTHORS = Object.freeze(["patient", "provider", "system"] as const);
export type MessageAuthor = (typeof MESSAGE_AUTHORS)[number];

/**
 * What the audit log records: every read or write of a patient's data (health data, profile,
 * support messages, consents, the whole-record export) and every refused attempt on it.
 */
export const AUDIT_ACTIONS = Object.freeze([
  "consultation.create",
  "consultation.list",
  "consultation.read",
  "consultation.accept",
  "consultation.cancel",
  "document.upload",
  "document.list",
  "document.download",
  "document.delete",
  "message.list",
  "message.create",
  "message.retract",
  "call.join",
  "call.leave",
  "call.reconnect",
  "profile.read",
  "profile.update",
  "export.download",
  "consent.read",
  "consent.update",
  "support_message.list",
  "support_message.create",
  "access.refused",
  "second_factor.enable",
  "second_factor.disable",
  "second_factor.recovery_code_used",
  "second_factor.recovery_codes_replaced",
  "second_factor.reset",
  // The clinic's operators (ADR 065): a visit's steps and payments, never its notes; a refund.
  "consultation.timeline_read",
  "payment.refund",
] as const);
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_RESOURCES = Object.freeze([
  "consultation",
  "document",
  "message",
  "profile",
  "export",
  "consent",
  "support_message",
  "membership",
  "second_factor",
] as const);
export type AuditResource = (typeof AUDIT_RESOURCES)[number];

export const AUDIT_LOG_PAGE_SIZE = 50;

/** The medical records page shows the intake answers of this many most recent visits. */
export const VISIT_RECORDS_SHOWN = 20;
