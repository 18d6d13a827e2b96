import { z } from "zod";
import { medicalDocument } from "./consultation.ts";
import {
  CANCEL_REASON_MAX_LENGTH,
  CONSULTATION_STATUSES,
  VISIT_SUMMARY_MAX_LENGTH,
} from "./consultation-limits.ts";
import { dataEnvelope, listEnvelope } from "./envelope.ts";
import { intakeRecord } from "./intake-schemas.ts";
import { CONSULTATION_TYPES } from "./provider.ts";
import { SYMPTOMS } from "./symptoms.ts";
import { textSchema } from "./text.ts";

/**
 * The care console's calls (main API, `/api/care-team/…`): the queue of requests a clinician may
 * take, the visits they hold, a visit's workspace, and the steps of the visit. Only a clinician's
 * token passes; a patient gets 403 CLINICIAN_ONLY.
 */

/** The live topic of queue changes, sent to every clinician who may take the request. */
export const QUEUE_TOPIC = "queue.changed";
export const QUEUE_CHANGES = ["created", "accepted", "canceled", "expired"] as const;
export type QueueChange = (typeof QUEUE_CHANGES)[number];

/**
 * A request in the queue: what a clinician needs to decide to take it. No name, no free text:
 * the intake is read (and audited) only once the visit is theirs.
 */
export const queuedVisit = z
  .object({
    id: z.uuid(),
    type: z.enum(CONSULTATION_TYPES),
    state: z.string(),
    created_at: z.iso.datetime(),
    /** Seconds since the request was made, by the API's clock. */
    wait_seconds: z.number().int().min(0),
    symptoms: z.array(z.enum(SYMPTOMS)),
    /** The patient described other symptoms in words (read in the workspace). */
    other_symptoms: z.boolean(),
    /** The age of the person the visit is for, in whole years; null when unknown. */
    patient_age: z.number().int().min(0).nullable(),
    /** The patient chose this clinician's provider page. */
    chosen: z.boolean(),
  })
  .strict();
export type QueuedVisit = z.infer<typeof queuedVisit>;
export const queueResponse = listEnvelope(queuedVisit);

/** A visit the clinician accepted, as the console lists it. */
export const consoleVisit = z
  .object({
    id: z.uuid(),
    type: z.enum(CONSULTATION_TYPES),
    status: z.enum(CONSULTATION_STATUSES),
    state: z.string(),
    /** The person the visit is for: the account holder or their dependent. */
    patient_name: z.string(),
    patient_age: z.number().int().min(0).nullable(),
    created_at: z.iso.datetime(),
    accepted_at: z.iso.datetime().nullable(),
    started_at: z.iso.datetime().nullable(),
    completed_at: z.iso.datetime().nullable(),
    visit_summary: z.string().nullable(),
  })
  .strict();
export type ConsoleVisit = z.infer<typeof consoleVisit>;
export const consoleVisitResponse = dataEnvelope(consoleVisit);
export const consoleVisitListResponse = listEnvelope(consoleVisit);

/** An earlier visit of the same patient with this clinician's provider. */
export const pastVisit = z
  .object({
    id: z.uuid(),
    type: z.enum(CONSULTATION_TYPES),
    status: z.enum(CONSULTATION_STATUSES),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
    symptoms: z.array(z.enum(SYMPTOMS)),
    visit_summary: z.string().nullable(),
  })
  .strict();
export type PastVisit = z.infer<typeof pastVisit>;

/** The answer of a cancel: a request that was never this clinician's carries nothing more. */
export const visitStatusResponse = dataEnvelope(
  z.object({ id: z.uuid(), status: z.enum(CONSULTATION_STATUSES) }).strict(),
);

export const visitDocumentParams = z.object({ id: z.uuid(), documentId: z.uuid() });

export const cancelVisitRequest = z
  .object({ reason: textSchema().trim().min(1).max(CANCEL_REASON_MAX_LENGTH) })
  .strict();
export const completeVisitRequest = z
  .object({ summary: textSchema().trim().min(1).max(VISIT_SUMMARY_MAX_LENGTH) })
  .strict();

/** Each part of the SOAP notes, and an addendum, is at most this long. */
export const VISIT_NOTE_MAX_LENGTH = 20_000;
/** The notes save this long after the clinician's last keystroke. */
export const NOTES_AUTOSAVE_DELAY_MS = 800;
export const SOAP_PARTS = ["subjective", "objective", "assessment", "plan"] as const;
export type SoapPart = (typeof SOAP_PARTS)[number];

/** The `{ error }` texts of the console's own refusals (codes NOTES_STALE, NOTES_SIGNED, NOTES_NOT_SIGNED). */
export const CONSOLE_ERRORS = Object.freeze({
  notesStale: "These notes were changed elsewhere since you loaded them: reload to see the newer text",
  notesSigned: "The notes are signed: add an addendum instead",
  notesNotSigned: "Addenda are for signed notes: edit the notes until you sign them",
});

const noteText = textSchema().max(VISIT_NOTE_MAX_LENGTH);

/** The clinician's notes of a visit; `version` 0 means nothing was saved yet. */
export const visitNotes = z
  .object({
    subjective: z.string(),
    objective: z.string(),
    assessment: z.string(),
    plan: z.string(),
    version: z.number().int().min(0),
    updated_at: z.iso.datetime().nullable(),
    signed_at: z.iso.datetime().nullable(),
    addenda: z.array(
      z
        .object({ id: z.uuid(), body: z.string(), signed_by: z.string(), signed_at: z.iso.datetime() })
        .strict(),
    ),
  })
  .strict();
export type VisitNotes = z.infer<typeof visitNotes>;
export const visitNotesResponse = dataEnvelope(visitNotes);

/** A save: the whole text of the four parts and the version it was based on (last write wins otherwise). */
export const saveVisitNotesRequest = z
  .object({
    subjective: noteText,
    objective: noteText,
    assessment: noteText,
    plan: noteText,
    version: z.number().int().min(0),
  })
  .strict();
export type SaveVisitNotesRequest = z.infer<typeof saveVisitNotesRequest>;

export const addendumRequest = z
  .object({ body: textSchema().trim().min(1).max(VISIT_NOTE_MAX_LENGTH) })
  .strict();

/** Whether the clinician takes requests now, and the wait a new request can expect. */
export const dutyStatus = z
  .object({
    on_duty: z.boolean(),
    since: z.iso.datetime().nullable(),
    /** Minutes a new request can expect to wait for this clinician; null while off duty. */
    expected_wait_minutes: z.number().int().min(0).nullable(),
  })
  .strict();
export type DutyStatus = z.infer<typeof dutyStatus>;
export const dutyStatusResponse = dataEnvelope(dutyStatus);
export const setDutyRequest = z.object({ on_duty: z.boolean() }).strict();

/** What the clinician works with during a visit; every part of it is an audited read. */
export const visitWorkspace = z
  .object({
    visit: consoleVisit,
    intake: intakeRecord,
    documents: z.array(medicalDocument),
    past_visits: z.array(pastVisit),
    notes: visitNotes,
  })
  .strict();
export type VisitWorkspace = z.infer<typeof visitWorkspace>;
export const visitWorkspaceResponse = dataEnvelope(visitWorkspace);
