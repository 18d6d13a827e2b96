import { z } from "zod";
import { consultation } from "./consultation.ts";
import type { ConsultationStatus } from "./consultation-limits.ts";
import { dataEnvelope } from "./envelope.ts";

/**
 * The patient's waiting room: one of their visits as it stands now, its place in line while it waits
 * for a clinician, and who accepted it. The page reads it again whenever the live event
 * `visit.status` says the visit changed.
 */

/** The live event every status change of a visit sends to its patient (ids only, ADR 033). */
export const VISIT_STATUS_TOPIC = "visit.status";
export type VisitStatusEvent = { consultation_id: string; status: ConsultationStatus };

/**
 * Without history, how many minutes one request ahead in line is expected to take to be accepted;
 * with history, the average wait of the recently accepted visits of that type (ADR 040).
 */
export const DEFAULT_MINUTES_PER_PLACE = 5;
/** How many recently accepted visits the average wait is taken over. */
export const ESTIMATE_SAMPLE = 20;
/** Accepts older than this many days say little about today's pace: they are left out. */
export const ESTIMATE_WINDOW_DAYS = 7;

const line = z
  .object({
    /** 1: the next request of this type and state a clinician takes. */
    position: z.number().int().min(1),
    /** Rounded up; never beyond the time left before the request expires. */
    estimated_wait_minutes: z.number().int().min(1),
    /** When the request expires (and its money comes back) if nobody accepts it. */
    expires_at: z.iso.datetime(),
  })
  .strict();

/** The clinician's public directory face: what the directory shows of their provider. */
const clinician = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    credentials: z.string(),
    photo: z.string().nullable(),
  })
  .strict();

/**
 * Why the clinic (the system) canceled a booked visit, as the status history's `cause` says it: its
 * clinician never started it within the grace, or the clinician's licence in the visit's state lapsed
 * before it (ADR 059).
 */
export const VISIT_ENDING_CAUSES = ["clinician_never_started", "licence_lapsed"] as const;
export type VisitEndingCause = (typeof VISIT_ENDING_CAUSES)[number];

/**
 * How a visit that did not take place ended, for the patient's page: who ended it (the patient,
 * the clinician, or the clinic: `system` — nobody in time, or a booked visit canceled with a
 * `cause`), the clinician's reason, and what became of the money. `refund`: the one-time visit's
 * price, `refunded_cents` null while the refund is on its way; null when a membership or a returned
 * visit credit covered it (`paid_with` says which). `cause` only when the clinic canceled it.
 */
const ending = z
  .object({
    by: z.enum(["patient", "clinician", "system"]),
    reason: z.string().nullable(),
    cause: z.enum(VISIT_ENDING_CAUSES).optional(),
    refund: z
      .object({ amount_cents: z.number().int(), refunded_cents: z.number().int().nullable() })
      .strict()
      .nullable(),
  })
  .strict();
export type VisitEnding = z.infer<typeof ending>;

export const waitingRoom = z
  .object({
    consultation,
    /** While the visit is requested; null afterwards. */
    line: line.nullable(),
    /** Once a clinician accepted the visit. */
    clinician: clinician.nullable(),
    /** Once the visit was canceled or expired; null otherwise (and absent from older answers). */
    ending: ending.nullable().optional(),
    /** A completed visit's last moment for follow-up questions in its chat; null otherwise. */
    follow_up_until: z.iso.datetime().nullable().optional(),
  })
  .strict();
export type WaitingRoom = z.infer<typeof waitingRoom>;

export const waitingRoomResponse = dataEnvelope(waitingRoom);
