import type { Locale } from "@ambercare/contracts/locales";
import type { VisitType } from "@ambercare/contracts/visit-types";
import type { Database, Executor } from "@ambercare/db/client";
import { bookings, clinicianSchedules } from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";
import type { BookedVisit, BookingEvents } from "#api/modules/scheduling/booking-events.ts";
import type { Clock } from "#api/platform/clock.ts";
import { enqueue, type JobRunner } from "#api/platform/jobs.ts";
import { greeting, mailT, visitTime } from "#api/platform/mail/mail-copy.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { renderParagraphMail } from "#api/platform/mail/paragraph-mail.ts";
import { mailRecipient } from "#api/platform/mail/recipient.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The reminders of a booked visit (ADR 059): one job per BOOKING_REMINDERS_MINUTES before its start,
 * queued in the transaction that books or moves it, keyed by the booking and its sequence. When
 * due, the job reads the booking again and writes to the patient only while it is still 'booked' at
 * the same start: a canceled or moved visit's reminders do nothing (the move queued its own).
 */

export const REMINDER_JOB = "booking.reminder";
/** NO_SHOW_GRACE_MINUTES after the start: a visit its clinician never started is canceled. */
export const NO_SHOW_JOB = "booking.no-show";
const MINUTE = 60_000;

type ReminderPayload = { bookingId: string; startsAt: string; minutes: number };

/** `booking.reminder:<booking>:<sequence>:<minutes>`: one job per reminder of one booked time. */
export const reminderKey = (visit: Pick<BookedVisit, "bookingId" | "sequence">, minutes: number) =>
  `${REMINDER_JOB}:${visit.bookingId}:${visit.sequence}:${minutes}`;

/**
 * The booking events that queue reminders. A reminder whose time has passed when the visit is
 * booked (a visit booked for within the hour has no "a day before") is not queued.
 */
export function reminderEvents(deps: {
  clock: Clock;
  minutesBefore: readonly number[];
  noShowGraceMinutes: number;
}): BookingEvents {
  async function queue(tx: Executor, visit: BookedVisit): Promise<void> {
    const now = deps.clock.now().getTime();
    const check: ReminderPayload = {
      bookingId: visit.bookingId,
      startsAt: visit.startsAt.toISOString(),
      minutes: 0,
    };
    await enqueue(tx, {
      kind: NO_SHOW_JOB,
      key: `${NO_SHOW_JOB}:${visit.bookingId}:${visit.sequence}`,
      runAt: new Date(visit.startsAt.getTime() + deps.noShowGraceMinutes * MINUTE),
      payload: check,
    });
    for (const minutes of deps.minutesBefore) {
      const runAt = new Date(visit.startsAt.getTime() - minutes * MINUTE);
      if (runAt.getTime() <= now) continue;
      const payload: ReminderPayload = {
        bookingId: visit.bookingId,
        startsAt: visit.startsAt.toISOString(),
        minutes,
      };
      await enqueue(tx, { kind: REMINDER_JOB, key: reminderKey(visit, minutes), runAt, payload });
    }
  }
  return {
    booked: queue,
    moved: (tx, visit) => queue(tx, visit),
    // The canceled visit's jobs stay and find the booking no longer 'booked' when they run.
    async canceled() {},
  };
}

export { visitTime };

/** The e-mails of a booked time: its reminder, and the confirmations of booking, move and cancel. */
export type BookingMailKind = "reminder" | "booked" | "moved" | "bookingCanceled";

export function renderBookingMail(
  kind: BookingMailKind,
  locale: Locale,
  vars: {
    productName: string;
    firstName: string | null;
    type: VisitType;
    startsAt: Date;
    timeZone: string;
    link: string;
  },
): RenderedMail {
  const visit = mailT(locale)(`visit.types.${vars.type}`);
  const time = visitTime(vars.startsAt, locale, vars.timeZone);
  const t = mailT(locale, { productName: vars.productName, visit, time });
  const paragraphs = [greeting(t, vars.firstName), t(`visit.${kind}.when`)];
  if (kind === "reminder") paragraphs.push(t("visit.reminder.checkIn"), t("common.emergency"));
  paragraphs.push(t("common.signature"));
  return renderParagraphMail(locale, {
    subject: t(`visit.${kind}.subject`),
    paragraphs,
    action: { label: t("visit.reminder.action"), link: vars.link },
  });
}

/** A booking as its e-mails need it, with the clinician's zone (UTC without a schedule). */
export async function bookingForMail(db: Database, bookingId: string) {
  const [row] = await db
    .select({
      status: bookings.status,
      startsAt: bookings.startsAt,
      endsAt: bookings.endsAt,
      type: bookings.type,
      sequence: bookings.sequence,
      consultationId: bookings.consultationId,
      patientUserId: bookings.patientUserId,
      clinicianZone: sql<string>`coalesce(${clinicianSchedules.timeZone}, 'UTC')`,
    })
    .from(bookings)
    .leftJoin(clinicianSchedules, eq(clinicianSchedules.clinicianUserId, bookings.clinicianUserId))
    .where(eq(bookings.id, bookingId));
  return row;
}

/**
 * The booking a reminder is about, while it is still booked at the reminded start and has not
 * begun; undefined otherwise (canceled, moved, or a runner that was down past the start).
 */
export async function stillDue(db: Database, payload: { bookingId: string; startsAt: string }, now: Date) {
  const row = await bookingForMail(db, payload.bookingId);
  if (row?.status !== "booked" || row.consultationId === null) return undefined;
  if (row.startsAt.getTime() !== new Date(payload.startsAt).getTime()) return undefined;
  if (now.getTime() >= row.startsAt.getTime()) return undefined;
  return { ...row, consultationId: row.consultationId };
}

/**
 * The reminder job's handler. The time is written in the patient's zone (their profile's), else
 * the clinician's, else UTC. The job's key is the message's idempotency key: a run repeated after a
 * crash between the send and the done mark sends the same message, which the mailer writes once.
 */
export function registerBookingReminders(
  jobs: JobRunner,
  deps: { db: Database; mailer: Mailer; productName: string; consultationsUrl: string },
): void {
  jobs.register(REMINDER_JOB, async (job) => {
    const row = await stillDue(deps.db, job.payload as ReminderPayload, job.now);
    if (!row) return;
    const patient = await mailRecipient(deps.db, row.patientUserId);
    if (!patient) return;
    const mail = renderBookingMail("reminder", patient.locale, {
      productName: deps.productName,
      firstName: patient.firstName,
      type: row.type,
      startsAt: row.startsAt,
      timeZone: patient.timeZone ?? row.clinicianZone,
      link: `${deps.consultationsUrl}/${row.consultationId}`,
    });
    await deps.mailer.send({
      ...mail,
      to: patient.email,
      template: "visit-reminder",
      idempotencyKey: job.key,
    });
  });
}

/** The no-show check's handler: the booking service cancels and refunds a visit never started. */
export function registerNoShowCheck(
  jobs: JobRunner,
  bookings: { clinicianNeverStarted(bookingId: string, startsAt: Date, at: Date): Promise<boolean> },
): void {
  jobs.register(NO_SHOW_JOB, async (job) => {
    const payload = job.payload as ReminderPayload;
    await bookings.clinicianNeverStarted(payload.bookingId, new Date(payload.startsAt), job.now);
  });
}
