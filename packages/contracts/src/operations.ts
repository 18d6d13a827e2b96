import { z } from "zod";
import { AUDIT_ACTIONS, CONSULTATION_STATUSES } from "./consultation-limits.ts";
import { dataEnvelope, listEnvelope } from "./envelope.ts";
import { LOCALES } from "./locales.ts";
import { textSchema } from "./text.ts";
import { US_STATE_CODES } from "./us-states.ts";

/**
 * The operations console (ADR 065): an operator runs the clinic — the care team, visits and their
 * payments, refunds, the access log. An operator never reads clinical notes, intake answers or the
 * visit chat (minimum necessary): the schemas below carry none of them.
 */

const isoDateTime = z.iso.datetime({ offset: true });
const uuid = z.uuid();

/** `GET /api/operations/me`: the logged-in operator. */
export const operatorProfileSchema = z
  .object({ user_id: z.string(), email: z.string(), name: z.string() })
  .strict();
export type OperatorProfile = z.infer<typeof operatorProfileSchema>;
export const operatorProfileResponse = dataEnvelope(operatorProfileSchema);

/** One clinician of the care team, as the operator sees them. */
export const teamMemberSchema = z
  .object({
    user_id: z.string(),
    email: z.string(),
    provider_slug: z.string(),
    provider_name: z.string(),
    second_factor: z.boolean(),
    disabled_at: isoDateTime.nullable(),
    /** When they went on duty; null while off duty. */
    on_duty_since: isoDateTime.nullable(),
    /** Live sessions now (both APIs' tokens of one login count once each). */
    sessions: z.number().int().min(0),
  })
  .strict();
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamResponse = listEnvelope(teamMemberSchema);

export const inviteClinicianRequest = z
  .object({
    email: z.email().max(254),
    provider_slug: textSchema().trim().min(1).max(120),
    locale: z.enum(LOCALES).optional(),
  })
  .strict();
export type InviteClinicianRequest = z.infer<typeof inviteClinicianRequest>;
export const inviteClinicianResponse = dataEnvelope(
  z
    .object({
      outcome: z.enum(["invited", "reinvited"]),
      user_id: z.string(),
      email: z.string(),
      provider_slug: z.string(),
    })
    .strict(),
);

export const teamMemberParams = z.object({ userId: uuid }).strict();
/** `/api/operations/team/:userId/schedule/exceptions/:id`: one exception of one clinician. */
export const teamExceptionParams = z.object({ userId: uuid, id: uuid }).strict();

export const teamMemberResponse = dataEnvelope(
  z
    .object({
      user_id: z.string(),
      disabled: z.boolean(),
      sessions_ended: z.number().int().min(0),
    })
    .strict(),
);

/** What an operator did, in the operations log (who, what, when, from where). */
export const OPERATOR_ACTIONS = Object.freeze([
  "clinician.invite",
  "clinician.disable",
  "clinician.enable",
  "clinician.end_sessions",
  // A clinician's hours set or corrected by an operator (ADR 059, 065).
  "clinician.hours",
  "clinician.exception_add",
  "clinician.exception_remove",
  "visit.search",
  "visit.read",
  "payment.refund",
  "access_log.search",
  "access_log.export",
  "report.export",
  // The directory editor (directory-editor.ts).
  "provider.create",
  "provider.update",
  "provider.photo",
  "provider.unlist",
  "provider.relist",
] as const);
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

export const operatorActionSchema = z
  .object({
    id: z.string(),
    actor_user_id: z.string().nullable(),
    actor_email: z.string().nullable(),
    action: z.enum(OPERATOR_ACTIONS),
    target_type: z.string().nullable(),
    target_id: z.string().nullable(),
    detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    ip: z.string().nullable(),
    at: isoDateTime,
  })
  .strict();
export type OperatorActionRow = z.infer<typeof operatorActionSchema>;
export const operatorActionsResponse = listEnvelope(operatorActionSchema);
export const operatorActionsQuery = z
  .object({ page: z.coerce.number().int().min(1).max(10_000).default(1) })
  .strict();

/** Visits, as the operator finds them: no notes, no intake, no chat. */
export const visitSearchQuery = z
  .object({
    email: textSchema().trim().max(254).optional(),
    date: z.iso.date().optional(),
    state: z.enum(US_STATE_CODES as [string, ...string[]]).optional(),
    status: z.enum(CONSULTATION_STATUSES).optional(),
  })
  .strict();
export type VisitSearchQuery = z.infer<typeof visitSearchQuery>;

export const operatorVisitSchema = z
  .object({
    id: z.string(),
    patient_email: z.string(),
    patient_name: z.string().nullable(),
    state: z.string().nullable(),
    type: z.string(),
    status: z.enum(CONSULTATION_STATUSES),
    provider_name: z.string().nullable(),
    created_at: isoDateTime,
  })
  .strict();
export type OperatorVisit = z.infer<typeof operatorVisitSchema>;
/** At most this many visits per search: narrow it to see others. */
export const VISIT_SEARCH_LIMIT = 50;
export const visitSearchResponse = listEnvelope(operatorVisitSchema);

export const visitTimelineEvent = z
  .object({
    at: isoDateTime,
    /** "status" (a lifecycle step: `detail` is the status reached), "call" (join/leave), "refund". */
    kind: z.enum(["status", "call", "refund"]),
    detail: z.string(),
    actor: z.enum(["patient", "clinician", "system", "operator"]).nullable(),
  })
  .strict();

export const visitPaymentSchema = z
  .object({
    invoice_id: z.string(),
    amount_cents: z.number().int(),
    paid_at: isoDateTime.nullable(),
    refunded_at: isoDateTime.nullable(),
    refunded_amount_cents: z.number().int().nullable(),
    refund_reason: z.string().nullable(),
  })
  .strict();
export type VisitPayment = z.infer<typeof visitPaymentSchema>;

export const operatorVisitDetailResponse = dataEnvelope(
  z
    .object({
      visit: operatorVisitSchema,
      timeline: z.array(visitTimelineEvent),
      payments: z.array(visitPaymentSchema),
    })
    .strict(),
);

export const visitParams = z.object({ id: uuid }).strict();
export const REFUND_REASON_MAX = 500;
export const refundRequest = z
  .object({
    invoice_id: uuid,
    /** Cents to give back; absent: all that is left of what was paid. */
    amount_cents: z.number().int().min(1).optional(),
    reason: textSchema().trim().min(3).max(REFUND_REASON_MAX),
    /**
     * One refund form's submit: a second submit with the same key answers the same refund. Several
     * refunds of one payment have different keys; without one, a payment is refunded once.
     */
    idempotency_key: uuid.optional(),
  })
  .strict();
export type RefundRequest = z.infer<typeof refundRequest>;
export const refundResponse = dataEnvelope(visitPaymentSchema);

/** The access log across patients (every read or write of a patient's data, ADR 065). */
export const accessLogQuery = z
  .object({
    /** The patient's e-mail, or part of it. */
    patient: textSchema().trim().max(254).optional(),
    /** Who acted: their e-mail, or part of it. */
    actor: textSchema().trim().max(254).optional(),
    action: z.enum(AUDIT_ACTIONS).optional(),
    /** First and last day (UTC), both included. */
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .strict();
export type AccessLogQuery = z.infer<typeof accessLogQuery>;
export const ACCESS_LOG_PAGE_SIZE = 50;
/** The most rows one CSV export holds: narrow the search for more. */
export const ACCESS_LOG_EXPORT_LIMIT = 10_000;

export const accessLogEntrySchema = z
  .object({
    id: z.string(),
    at: isoDateTime,
    patient_email: z.string(),
    actor_email: z.string().nullable(),
    actor_kind: z.string(),
    action: z.string(),
    resource_type: z.string(),
    resource_id: z.string().nullable(),
    ip: z.string().nullable(),
    /** How many times in a row: a burst of refused attempts is one entry. */
    count: z.number().int().min(1),
  })
  .strict();
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;
export const accessLogResponse = listEnvelope(accessLogEntrySchema);
