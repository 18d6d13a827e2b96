import type { Database, Executor } from "@ambercare/db/client";
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { BookedVisit, BookingEvents } from "#api/modules/scheduling/booking-events.ts";
import { bookingForMail, renderBookingMail } from "#api/modules/scheduling/booking-reminders.ts";
import type { Clock } from "#api/platform/clock.ts";
import { enqueue, type JobRunner } from "#api/platform/jobs.ts";
import { mailT } from "#api/platform/mail/mail-copy.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { mailRecipient } from "#api/platform/mail/recipient.ts";

/**
 * The calendar e-mails of a booked visit (ADR 059): on booking, move and cancel the patient gets a
 * message with an `.ics` invitation. Its UID is the consultation's (one calendar event per visit
 * whatever its moves), its SEQUENCE the booking's; booking and move send METHOD:REQUEST, a cancel
 * METHOD:CANCEL. Each is a job queued in the change's transaction and due at once, so the message
 * goes out after the change commits and only if it does, and a crash before the send retries it.
 */

export const CONFIRMATION_JOB = "booking.confirmation";

type Change = "booked" | "moved" | "canceled";
type ConfirmationPayload = { bookingId: string; change: Change };

export function confirmationEvents(deps: { clock: Clock }): BookingEvents {
  const queue = (tx: Executor, visit: BookedVisit, change: Change) => {
    const payload: ConfirmationPayload = { bookingId: visit.bookingId, change };
    return enqueue(tx, {
      kind: CONFIRMATION_JOB,
      key: `${CONFIRMATION_JOB}:${visit.bookingId}:${visit.sequence}:${change}`,
      runAt: deps.clock.now(),
      payload,
    }).then(() => undefined);
  };
  return {
    booked: (tx, visit) => queue(tx, visit, "booked"),
    moved: (tx, visit) => queue(tx, visit, "moved"),
    canceled: (tx, visit) => queue(tx, visit, "canceled"),
  };
}

/** The visit's calendar entry: UID per consultation, SEQUENCE per booking. */
export function visitInvitation(input: {
  consultationId: string;
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  link: string;
  organizer: string;
  /** The invited patient; none in the file the patient downloads for their own calendar. */
  attendee: string | null;
  canceled: boolean;
  host: string;
  /** `publish`: a file to add to one's own calendar (no invitation to answer). */
  method?: "invite" | "publish";
}): string {
  const calendar = ical({
    prodId: { company: "Ambercare", product: "visits", language: "EN" },
    method: input.canceled
      ? ICalCalendarMethod.CANCEL
      : input.method === "publish"
        ? ICalCalendarMethod.PUBLISH
        : ICalCalendarMethod.REQUEST,
  });
  calendar.createEvent({
    id: `${input.consultationId}@${input.host}`,
    sequence: input.sequence,
    start: input.startsAt,
    end: input.endsAt,
    summary: input.summary,
    url: input.link,
    description: input.link,
    status: input.canceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: input.summary, email: input.organizer },
    attendees: input.attendee ? [{ email: input.attendee }] : [],
  });
  return calendar.toString();
}

/** The From address's mailbox (the organizer) and its domain (the UIDs' host), from MAIL_FROM. */
export function calendarOrganizer(mailFrom: string): { organizer: string; host: string } {
  const organizer = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return { organizer, host: organizer.split("@")[1] ?? "ambercare.invalid" };
}

export function registerBookingConfirmations(
  jobs: JobRunner,
  deps: {
    db: Database;
    mailer: Mailer;
    productName: string;
    consultationsUrl: string;
    /** The From address's mailbox, the invitation's organizer. */
    organizer: string;
  },
): void {
  const { host } = calendarOrganizer(deps.organizer);
  jobs.register(CONFIRMATION_JOB, async (job) => {
    const payload = job.payload as ConfirmationPayload;
    const row = await bookingForMail(deps.db, payload.bookingId);
    if (!row || row.consultationId === null) return;
    // A booking moved or canceled before its confirmation went out: the later change's job tells.
    if (payload.change !== "canceled" && row.status !== "booked") return;
    const patient = await mailRecipient(deps.db, row.patientUserId);
    if (!patient) return;
    const link = `${deps.consultationsUrl}/${row.consultationId}`;
    const kind = payload.change === "canceled" ? "bookingCanceled" : payload.change;
    const mail = renderBookingMail(kind, patient.locale, {
      productName: deps.productName,
      firstName: patient.firstName,
      type: row.type,
      startsAt: row.startsAt,
      timeZone: patient.timeZone ?? row.clinicianZone,
      link,
    });
    const visit = mailT(patient.locale)(`visit.types.${row.type}`);
    const canceled = payload.change === "canceled";
    const invitation = visitInvitation({
      consultationId: row.consultationId,
      sequence: row.sequence,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      summary: `${deps.productName}: ${visit}`,
      link,
      organizer: deps.organizer,
      attendee: patient.email,
      canceled,
      host,
    });
    const method = canceled ? "CANCEL" : "REQUEST";
    await deps.mailer.send({
      ...mail,
      to: patient.email,
      template: `visit-${payload.change}`,
      idempotencyKey: job.key,
      attachments: [
        {
          filename: "visit.ics",
          content: invitation,
          contentType: `text/calendar; charset=utf-8; method=${method}`,
        },
      ],
    });
  });
}
