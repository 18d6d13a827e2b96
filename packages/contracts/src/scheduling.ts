import { z } from "zod";
import { localeSchema, timeZoneSchema } from "./auth.ts";
import { CONSULTATION_STATUSES } from "./consultation-limits.ts";
import { dataEnvelope } from "./envelope.ts";
import { CONSULTATION_TYPES } from "./provider-limits.ts";
import { US_STATE_CODES, type UsStateCode } from "./us-states.ts";
import { perVisitType } from "./visit-types.ts";

/**
 * Booked visits (docs/decisions/059-booked-visits.md): a clinician's weekly hours and exceptions,
 * the free slots computed from them, holds, and the booked visit's own calls (reschedule, check-in,
 * the clinician's agenda, marking a visit missed). Times on the wire are ISO instants (UTC); hours
 * are wall times "HH:MM" in the clinician's own time zone.
 */

/** Limits of the clinician's settings. */
export const SCHEDULE_LIMITS = Object.freeze({
  minNoticeMinutes: { min: 0, max: 7 * 24 * 60 },
  horizonDays: { min: 1, max: 90 },
  slotMinutes: { min: 5, max: 240 },
  /** Ranges a week may hold (several a day). */
  weeklyRanges: 70,
  /** How many days of slots one call may ask for. */
  slotDays: 31,
  /** Nearest free slots offered beside a refusal (`near`). */
  nearest: 5,
});

/** The messages of the booking refusals (the web shows its own words, by code). */
export const SCHEDULING_ERRORS = Object.freeze({
  slotTaken: "This time was just booked by someone else: choose another one",
  slotHeld: "Someone else is booking this time right now: choose another one, or try again in a few minutes",
  holdExpired: "The time you held was released: choose a time again",
  holdNotFound: "Hold not found",
  outsideHours: "This time is not one of the clinician's free times",
  tooLateToCancel: "The free cancellation period of this visit is over: the visit counts as used",
  notTakingVisits: "This provider is not taking visits yet",
  checkInNotOpen: "Check-in opens 15 minutes before the visit and closes when it ends",
  notMissedYet:
    "A visit can be marked missed only when the patient has not checked in 10 minutes after its start",
  scheduleInvalid: "The hours overlap or are out of order",
} as const);

const usState = z.enum(
  US_STATE_CODES as [UsStateCode, ...UsStateCode[]],
  "Expected a US state code such as CA",
);

/** "HH:MM", 00:00 to 24:00 (24:00 only as the end of a range). */
export const wallTimeSchema = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Expected a time HH:MM such as 09:30");

/** "HH:MM" → minutes after midnight. */
export function minutesOf(wallTime: string): number {
  const [hours, minutes] = wallTime.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** Minutes after midnight → "HH:MM". */
export function wallTimeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

const visitTypes = z.array(z.enum(CONSULTATION_TYPES)).min(1).max(CONSULTATION_TYPES.length);

/** One range of a weekday: ISO weekday 1 = Monday … 7 = Sunday. */
export const weeklyRange = z
  .object({
    weekday: z.number().int().min(1).max(7),
    start: wallTimeSchema,
    end: wallTimeSchema,
    visit_types: visitTypes,
  })
  .strict()
  .refine((range) => minutesOf(range.start) < minutesOf(range.end), {
    message: "A range must end after it starts",
    path: ["end"],
  });
export type WeeklyRange = z.infer<typeof weeklyRange>;

/** A slot length per kind of visit (visit-types.ts), each optional. */
const slotMinutes = z
  .object(
    perVisitType(() =>
      z.number().int().min(SCHEDULE_LIMITS.slotMinutes.min).max(SCHEDULE_LIMITS.slotMinutes.max).optional(),
    ),
  )
  .strict();

/** `PUT /api/care-team/schedule`: the settings and the whole week, replaced at once. */
export const putScheduleRequest = z
  .object({
    time_zone: timeZoneSchema,
    min_notice_minutes: z
      .number()
      .int()
      .min(SCHEDULE_LIMITS.minNoticeMinutes.min)
      .max(SCHEDULE_LIMITS.minNoticeMinutes.max)
      .optional(),
    horizon_days: z
      .number()
      .int()
      .min(SCHEDULE_LIMITS.horizonDays.min)
      .max(SCHEDULE_LIMITS.horizonDays.max)
      .optional(),
    /** Per visit type, overriding the clinic's default (SLOT_MINUTES_<KIND>: SLOT_MINUTES_CHAT…). */
    slot_minutes: slotMinutes.optional(),
    weekly_hours: z.array(weeklyRange).max(SCHEDULE_LIMITS.weeklyRanges),
  })
  .strict();
export type PutScheduleRequest = z.input<typeof putScheduleRequest>;

export const isoDateSchema = z.iso.date();

/** A change of one date (the clinician's local date): a day or range off, or extra hours. */
export const addExceptionRequest = z
  .object({
    date: isoDateSchema,
    kind: z.enum(["off", "extra"]),
    /** Both or neither; neither (only with "off") is the whole day. */
    start: wallTimeSchema.optional(),
    end: wallTimeSchema.optional(),
    /** For "extra": the visit types of the added range (default both). */
    visit_types: visitTypes.optional(),
  })
  .strict()
  .refine((body) => (body.start === undefined) === (body.end === undefined), {
    message: "Give both start and end, or neither",
    path: ["end"],
  })
  .refine((body) => body.kind === "off" || body.start !== undefined, {
    message: "Extra hours need a start and an end",
    path: ["start"],
  })
  .refine((body) => body.start === undefined || minutesOf(body.start) < minutesOf(body.end ?? "00:00"), {
    message: "A range must end after it starts",
    path: ["end"],
  });
export type AddExceptionRequest = z.input<typeof addExceptionRequest>;

export const hourException = z
  .object({
    id: z.uuid(),
    date: isoDateSchema,
    kind: z.enum(["off", "extra"]),
    start: wallTimeSchema.nullable(),
    end: wallTimeSchema.nullable(),
    visit_types: z.array(z.enum(CONSULTATION_TYPES)),
  })
  .strict();
export type HourException = z.infer<typeof hourException>;
export const hourExceptionResponse = dataEnvelope(hourException);
export const exceptionIdParams = z.object({ id: z.uuid() });

export const schedule = z
  .object({
    time_zone: z.string(),
    min_notice_minutes: z.number().int(),
    horizon_days: z.number().int(),
    /** The slot length per visit type in force (the clinician's, else the clinic's). */
    slot_minutes: z.object(perVisitType(() => z.number().int())).strict(),
    /** What the clinician set themselves (absent types use the clinic's default). */
    own_slot_minutes: slotMinutes,
    weekly_hours: z.array(
      z
        .object({
          weekday: z.number().int(),
          start: wallTimeSchema,
          end: wallTimeSchema,
          visit_types: z.array(z.enum(CONSULTATION_TYPES)),
        })
        .strict(),
    ),
    /** Exceptions of today and later, by date. */
    exceptions: z.array(hourException),
    /** False until the clinician first saves their hours (then time_zone is a default). */
    saved: z.boolean(),
  })
  .strict();
export type Schedule = z.infer<typeof schedule>;
export const scheduleResponse = dataEnvelope(schedule);

/** `GET /api/provider/:slug/slots`. */
export const slotsQuery = z
  .object({
    type: z.enum(CONSULTATION_TYPES),
    /** Where the patient will be during the visit: the provider must be licensed there. */
    state: usState.optional(),
    /** From this instant (default now); earlier is now. */
    from: z.iso.datetime({ offset: true }).optional(),
    /** How many days from `from` (default the clinician's horizon). */
    days: z.coerce.number().int().min(1).max(SCHEDULE_LIMITS.slotDays).optional(),
    /** Only the free slots nearest to this instant (SCHEDULE_LIMITS.nearest of them), in time order. */
    near: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
export type SlotsQuery = z.output<typeof slotsQuery>;

export const slot = z
  .object({ start: z.iso.datetime(), end: z.iso.datetime(), type: z.enum(CONSULTATION_TYPES) })
  .strict();
export type Slot = z.infer<typeof slot>;

export const slotsResponse = dataEnvelope(
  z
    .object({
      /** The clinician's zone (their hours are set in it); show times in the patient's own. */
      time_zone: z.string(),
      slots: z.array(slot),
    })
    .strict(),
);
export type SlotsResponse = z.infer<typeof slotsResponse>;

/** `POST /{product}/bookings/holds`. */
export const createHoldRequest = z
  .object({
    provider_slug: z
      .string()
      .max(200)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    type: z.enum(CONSULTATION_TYPES),
    state: usState,
    start: z.iso.datetime({ offset: true }),
  })
  .strict();
export type CreateHoldRequest = z.input<typeof createHoldRequest>;

export const hold = z
  .object({
    id: z.uuid(),
    provider_slug: z.string(),
    type: z.enum(CONSULTATION_TYPES),
    state: z.string(),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    expires_at: z.iso.datetime(),
  })
  .strict();
export type Hold = z.infer<typeof hold>;
export const holdResponse = dataEnvelope(hold);
export const holdIdParams = z.object({ id: z.uuid() });

/** `POST /{product}/consultations/:id/reschedule`: the new time, held first. */
export const rescheduleRequest = z.object({ hold_id: z.uuid() }).strict();

/** A booked visit's time and what the patient may still do, as the patient's pages show it. */
export const booking = z
  .object({
    consultation_id: z.uuid(),
    status: z.enum(CONSULTATION_STATUSES),
    type: z.enum(CONSULTATION_TYPES),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    /** The clinician's zone. */
    clinician_time_zone: z.string(),
    /** Until then canceling is free; after it the visit counts as used. */
    free_cancel_until: z.iso.datetime(),
    check_in_opens_at: z.iso.datetime(),
    checked_in_at: z.iso.datetime().nullable(),
    /** iCalendar SEQUENCE: goes up with each reschedule. */
    sequence: z.number().int().min(0),
    /**
     * What the moment allows, by the API's clock (which decides every step): checking in (the
     * window is open and the visit not over), moving or canceling free (before the cut-off).
     */
    check_in_open: z.boolean(),
    free_to_change: z.boolean(),
  })
  .strict();
export type Booking = z.infer<typeof booking>;
export const bookingResponse = dataEnvelope(booking);

/** `GET /{product}/consultations/:id/calendar`: the language of the event's title. */
export const calendarQuery = z.object({ lang: localeSchema.optional() }).strict();

/** `GET /api/care-team/agenda`. */
export const agendaQuery = z
  .object({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

export const agendaItem = z
  .object({
    consultation_id: z.uuid(),
    status: z.enum(CONSULTATION_STATUSES),
    type: z.enum(CONSULTATION_TYPES),
    state: z.string(),
    patient_name: z.string(),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    checked_in_at: z.iso.datetime().nullable(),
  })
  .strict();
export type AgendaItem = z.infer<typeof agendaItem>;
export const agendaResponse = z
  .object({
    data: z.array(agendaItem),
    /** The clinician's zone, for the day and week views. */
    meta: z.object({ time_zone: z.string(), from: z.iso.datetime(), to: z.iso.datetime() }).strict(),
  })
  .strict();

/**
 * Live event to a clinician's open console when their agenda changes (a visit booked, moved,
 * canceled, a patient checked in): `{ consultation_id }`; the page reads the agenda again.
 */
export const AGENDA_TOPIC = "agenda.changed";
