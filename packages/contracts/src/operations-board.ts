import { z } from "zod";
import { CONSULTATION_STATUSES } from "./consultation-limits.ts";
import { dataEnvelope } from "./envelope.ts";

/**
 * The operations console's board of today (ADR 065, ADR 067): the requests waiting, the visits
 * under way, today's booked visits, who is on duty, alerts and unusual-access flags. No intake, no
 * notes, no patient's name: visit ids (the visit's page says more, and logs that it was read).
 */

/** The live topic an operator's open board re-reads on: every visit, queue or agenda change. */
export const BOARD_TOPIC = "operations.board";

const isoDateTime = z.iso.datetime({ offset: true });

const boardVisit = {
  id: z.string(),
  type: z.string(),
  state: z.string().nullable(),
  status: z.enum(CONSULTATION_STATUSES),
  /** The directory name of the visit's clinician; null while no one has it. */
  provider_name: z.string().nullable(),
};

export const boardSchema = z
  .object({
    /** The API's clock when the board was read; "today" is its UTC day. */
    now: isoDateTime,
    day: z.iso.date(),
    settings: z
      .object({
        /** A patient waiting longer than this is an alert. */
        waiting_alert_minutes: z.number().int().min(1),
        /** A booked visit not started this long after its start is an alert. */
        late_alert_minutes: z.number().int().min(1),
      })
      .strict(),
    /** On-demand requests waiting for a clinician, longest first. */
    waiting: z.array(z.object({ ...boardVisit, created_at: isoDateTime, waiting_seconds: z.number().int() })),
    /** Visits accepted or started, not yet ended. */
    in_progress: z.array(
      z.object({
        ...boardVisit,
        accepted_at: isoDateTime.nullable(),
        started_at: isoDateTime.nullable(),
        scheduled_start: isoDateTime.nullable(),
      }),
    ),
    /** Today's booked visits (their start on the UTC day), by start; canceled ones left out. */
    booked_today: z.array(
      z.object({ ...boardVisit, scheduled_start: isoDateTime, checked_in_at: isoDateTime.nullable() }),
    ),
    on_duty: z.array(
      z.object({
        user_id: z.string(),
        email: z.string(),
        provider_name: z.string(),
        on_duty_since: isoDateTime,
      }),
    ),
    alerts: z.array(
      z.discriminatedUnion("kind", [
        z.object({
          kind: z.literal("patient_waiting"),
          consultation_id: z.string(),
          minutes: z.number().int(),
        }),
        z.object({
          kind: z.literal("clinician_late"),
          consultation_id: z.string(),
          provider_name: z.string().nullable(),
          minutes: z.number().int(),
          checked_in: z.boolean(),
        }),
      ]),
    ),
    /** Clinicians whose reading of patients' records today looks unusual. */
    flags: z.array(
      z.object({
        kind: z.enum(["no_visit", "many_reads"]),
        actor_user_id: z.string(),
        actor_email: z.string(),
        /** Entries today (a burst of refused attempts counts each attempt). */
        reads_today: z.number().int().min(0),
        /** no_visit: the patients read with no visit with this clinician; many_reads: null. */
        patients: z.number().int().min(0).nullable(),
        /** many_reads: the median of the clinician's daily reads over the 30 days before; no_visit: null. */
        daily_median: z.number().nullable(),
      }),
    ),
  })
  .strict();
export type Board = z.infer<typeof boardSchema>;
export const boardResponse = dataEnvelope(boardSchema);
