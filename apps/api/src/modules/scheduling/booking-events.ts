import type { Executor } from "@ambercare/db/client";

/** A booked visit as its reminders need it (they re-read the booking when due). */
export type BookedVisit = {
  bookingId: string;
  consultationId: string;
  patientUserId: string;
  clinicianUserId: string;
  startsAt: Date;
  endsAt: Date;
  /** iCalendar SEQUENCE: one more at each reschedule. */
  sequence: number;
};

/**
 * Where booked visits are announced, for what hangs on their time: the reminders (24 h and 1 h
 * before), the clinician-never-started check and the calendar e-mails (ADR 059). Each call runs inside
 * the transaction (`tx`) that made the change, so a job queued there (a `jobs` row) exists if and only
 * if the change commits. A job must still re-read the booking when it runs: a reminder of a visit
 * that was moved or canceled since is a no-op (the booking is no longer 'booked' at that start).
 */
export interface BookingEvents {
  /** A hold became a booked visit (create-consultation with hold_id). */
  booked(tx: Executor, visit: BookedVisit): Promise<void>;
  /** The visit moved to a new time: `visit` is the new booking, `from` the one it replaced. */
  moved(tx: Executor, visit: BookedVisit, from: { bookingId: string; startsAt: Date }): Promise<void>;
  /** The visit was canceled (by the patient, the clinician or the system). */
  canceled(tx: Executor, visit: BookedVisit, by: "patient" | "clinician" | "system"): Promise<void>;
}

/** Nothing listens yet: booking works alone, and a jobs runner plugs in here. */
export const noBookingEvents: BookingEvents = {
  async booked() {},
  async moved() {},
  async canceled() {},
};

/** Several listeners, called in turn in the change's transaction. */
export function bookingEventsOf(...listeners: BookingEvents[]): BookingEvents {
  return {
    async booked(tx, visit) {
      for (const listener of listeners) await listener.booked(tx, visit);
    },
    async moved(tx, visit, from) {
      for (const listener of listeners) await listener.moved(tx, visit, from);
    },
    async canceled(tx, visit, by) {
      for (const listener of listeners) await listener.canceled(tx, visit, by);
    },
  };
}
