import { CONSULTATION_ERRORS } from "@ambercare/contracts/consultation";
import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import {
  AGENDA_TOPIC,
  type Booking,
  type CreateHoldRequest,
  type Hold,
  SCHEDULING_ERRORS,
} from "@ambercare/contracts/scheduling";
import type { Database, Executor } from "@ambercare/db/client";
import {
  bookings,
  clinicianSchedules,
  clinicians,
  consultationStatusHistory,
  consultations,
  licenceDay,
  providers,
} from "@ambercare/db/schema";
import { and, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import { changeVisitStatus, type VisitEvents } from "#api/modules/consultations/visit-lifecycle.ts";
import type { Rebook } from "#api/modules/consultations/visit-service.ts";
import { enqueueBookedVisitMail } from "#api/modules/scheduling/booked-visit-mails.ts";
import type { BookedVisit, BookingEvents } from "#api/modules/scheduling/booking-events.ts";
import { createScheduleRepository } from "#api/modules/scheduling/schedule-repository.ts";
import { notTakingVisits, type ScheduleService } from "#api/modules/scheduling/schedule-service.ts";
import { slotAt } from "#api/modules/scheduling/slots.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

export type BookingPolicy = {
  holdMinutes: number;
  cancelCutoffMinutes: number;
  checkInOpensMinutes: number;
  noShowGraceMinutes: number;
};

const MINUTE = 60_000;
/** The times a booked visit that did not take place offers to book again (ADR 059). */
export const REBOOK_OFFERS = 3;
/** Why the no-show check cancels a visit, for people (its cause, `clinician_never_started`, for code). */
export const NEVER_STARTED_REASON = "The clinician did not start the visit in time";

/**
 * A key space of its own for the clinician's booking lock, so it never meets another module's
 * advisory locks (the first key of the two-key form).
 */
const BOOKING_LOCK_SPACE = 0x484f4c44; // "HOLD"

/** PostgreSQL's exclusion_violation: the time overlaps a held or booked one of the clinician. */
function isOverlap(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; depth++) {
    if ((cause as { code?: unknown }).code === "23P01") return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Takes the clinician's booking lock until `tx` ends. Every statement that puts a row into the
 * no-overlap constraint's index (a new hold, a hold becoming a booking) comes after it and before
 * any row lock on bookings, so two of them for one clinician take turns instead of waiting on each
 * other's uncommitted row in the constraint's check, which PostgreSQL ends with a deadlock error
 * after a second (9 of 300 racing inserts in a probe on PostgreSQL 15, 0 with the lock: ADR 059).
 */
export async function lockClinicianBookings(tx: Executor, clinicianUserId: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(${sql.raw(String(BOOKING_LOCK_SPACE))}, hashtext(${clinicianUserId}))`,
  );
}

/**
 * Takes the booking lock of the clinician whose hold `holdId` is (of `patientUserId` when given),
 * when there is such a hold. A hold's clinician never changes, so it is read without a row lock:
 * the booking lock comes before any row lock on bookings, in the order insertHold takes them.
 */
async function lockClinicianOfHold(tx: Executor, holdId: string, patientUserId?: string): Promise<void> {
  const [hold] = await tx
    .select({ clinicianUserId: bookings.clinicianUserId })
    .from(bookings)
    .where(
      and(
        eq(bookings.id, holdId.toLowerCase()),
        patientUserId === undefined ? undefined : eq(bookings.patientUserId, patientUserId),
      ),
    );
  if (hold) await lockClinicianBookings(tx, hold.clinicianUserId);
}

const holdExpired = () => new AppError("HOLD_EXPIRED", 409, SCHEDULING_ERRORS.holdExpired);
const holdNotFound = () => new AppError("HOLD_NOT_FOUND", 404, SCHEDULING_ERRORS.holdNotFound);
const notFound = () => new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
const refused = () =>
  new AppError("CONSULTATION_TRANSITION_REFUSED", 409, CONSULTATION_ERRORS.transitionRefused);
const notLicensed = () =>
  new AppError("PROVIDER_NOT_LICENSED_IN_STATE", 409, CONSULTATION_ERRORS.providerNotLicensed);
const notYours = (row: { id: string; userId: string }) =>
  new AppError("CONSULTATION_NOT_YOURS", 403, CONSULTATION_ERRORS.notYours, {
    refusedAccess: { ownerUserId: row.userId, resourceType: "consultation", resourceId: row.id },
  });

type BookingRow = typeof bookings.$inferSelect;

const visitOf = (row: BookingRow): BookedVisit => ({
  bookingId: row.id,
  consultationId: row.consultationId!,
  patientUserId: row.patientUserId,
  clinicianUserId: row.clinicianUserId,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
  sequence: row.sequence,
});

/** What the consultation service asks of booking when a consultation is created with a hold. */
export type HeldSlot = {
  holdId: string;
  providerId: string;
  providerSlug: string;
  clinicianUserId: string;
  startsAt: Date;
};

/**
 * Holds and booked visits (ADR 059): a patient holds a free slot, the consultation created with the
 * hold books it, and then the visit moves, is checked in to, started, canceled or missed. No two
 * held or booked times of a clinician overlap: the database refuses it (`bookings_no_overlap`), so
 * of patients racing for a slot exactly one gets it.
 */
/** 409 CHECK_IN_NOT_OPEN, with the minutes before the start that check-in opens, as configured. */
function checkInNotOpen(minutes: number): AppError {
  return new AppError("CHECK_IN_NOT_OPEN", 409, SCHEDULING_ERRORS.checkInNotOpen, { details: { minutes } });
}

export function createBookingService(deps: {
  db: Database;
  clock: Clock;
  policy: BookingPolicy;
  schedules: ScheduleService;
  events: BookingEvents;
  /** Live events: the visit's status to the patient's pages, agenda changes to the clinician's. */
  live: VisitEvents;
  /** The directory's availability is stale (a slot was taken or given back). */
  onChange?: () => void;
  /** Gives back what visits that will not take place cost (the visit service's settlement). */
  settlePending?: () => Promise<unknown>;
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string;
}) {
  const changed = () => deps.onChange?.();
  const patientOnly = (auth: AuthContext) => {
    if (auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, "Use the patient's own account");
  };

  const tellClinician = (
    tx: Executor,
    clinicianUserId: string,
    consultationId: string,
    change?: "checked_in",
  ) =>
    deps.live.publish(
      [clinicianUserId],
      AGENDA_TOPIC,
      { consultation_id: consultationId, ...(change ? { change } : {}) },
      tx,
    );

  /** The visit's booking in force ('booked'), else its latest one. */
  async function currentBooking(db: Executor, consultationId: string): Promise<BookingRow | undefined> {
    const [row] = await db
      .select()
      .from(bookings)
      .where(eq(bookings.consultationId, consultationId))
      .orderBy(sql`${bookings.status} = 'booked' desc`, desc(bookings.sequence), desc(bookings.updatedAt))
      .limit(1);
    return row;
  }

  async function lockConsultation(tx: Executor, id: string) {
    const [row] = await tx
      .select({
        id: consultations.id,
        userId: consultations.userId,
        status: consultations.status,
        type: consultations.type,
        state: consultations.state,
        providerId: consultations.providerId,
        checkedInAt: consultations.checkedInAt,
      })
      .from(consultations)
      .where(eq(consultations.id, id))
      .for("update");
    return row;
  }

  async function bookingView(consultationId: string, status: ConsultationStatus, checkedInAt: Date | null) {
    const row = await currentBooking(deps.db, consultationId);
    if (!row) throw notFound();
    const schedule = await createScheduleRepository(deps.db).schedule(row.clinicianUserId);
    const now = deps.clock.now().getTime();
    const freeCancelUntil = row.startsAt.getTime() - deps.policy.cancelCutoffMinutes * MINUTE;
    const checkInOpensAt = row.startsAt.getTime() - deps.policy.checkInOpensMinutes * MINUTE;
    const scheduled = status === "scheduled";
    return {
      consultation_id: consultationId,
      status,
      type: row.type,
      start: row.startsAt.toISOString(),
      end: row.endsAt.toISOString(),
      clinician_time_zone: schedule?.timeZone ?? "UTC",
      free_cancel_until: new Date(freeCancelUntil).toISOString(),
      check_in_opens_at: new Date(checkInOpensAt).toISOString(),
      checked_in_at: checkedInAt?.toISOString() ?? null,
      sequence: row.sequence,
      check_in_open: scheduled && checkInOpensAt <= now && now < row.endsAt.getTime(),
      free_to_change: scheduled && now < freeCancelUntil,
    } satisfies Booking;
  }

  /** The caller's own booked consultation (404, or 403 when another patient's). */
  async function ownVisit(auth: AuthContext, id: string) {
    patientOnly(auth);
    const [row] = await deps.db
      .select({
        id: consultations.id,
        userId: consultations.userId,
        status: consultations.status,
        checkedInAt: consultations.checkedInAt,
      })
      .from(consultations)
      .where(eq(consultations.id, id.toLowerCase()));
    if (!row) throw notFound();
    if (row.userId !== auth.userId) throw notYours(row);
    return row;
  }

  /**
   * Holds or books a row: inserts it after releasing, in the same transaction, the clinician's holds
   * that expired and the patient's own other holds (one hold at a time per patient). An overlap is
   * 409 SLOT_HELD when the time is held by someone, else SLOT_TAKEN. The clinician's booking lock
   * comes first, so a patient who loses a race for the time is told SLOT_HELD at once, not a
   * deadlock's error after a wait.
   */
  async function insertHold(values: typeof bookings.$inferInsert, now: Date): Promise<BookingRow> {
    try {
      return await deps.db.transaction(async (tx) => {
        await lockClinicianBookings(tx, values.clinicianUserId);
        await tx
          .update(bookings)
          .set({ status: "released", updatedAt: now })
          .where(
            and(
              eq(bookings.status, "held"),
              sql`((${bookings.clinicianUserId} = ${values.clinicianUserId} and ${bookings.holdExpiresAt} <= ${now.toISOString()}::timestamptz)
                or ${bookings.patientUserId} = ${values.patientUserId})`,
            ),
          );
        const [row] = await tx.insert(bookings).values(values).returning();
        return row!;
      });
    } catch (error) {
      if (!isOverlap(error)) throw error;
      const [other] = await deps.db
        .select({ status: bookings.status })
        .from(bookings)
        .where(
          and(
            eq(bookings.clinicianUserId, values.clinicianUserId),
            inArray(bookings.status, ["held", "booked"]),
            sql`tstzrange(${bookings.startsAt}, ${bookings.endsAt}, '[)') && tstzrange(${values.startsAt.toISOString()}::timestamptz, ${values.endsAt.toISOString()}::timestamptz, '[)')`,
          ),
        )
        .limit(1);
      throw other?.status === "held"
        ? new AppError("SLOT_HELD", 409, SCHEDULING_ERRORS.slotHeld)
        : new AppError("SLOT_TAKEN", 409, SCHEDULING_ERRORS.slotTaken);
    }
  }

  /** Licence in the state and an enabled clinician, at booking and at start (ADR 059). */
  async function stillMayTreat(tx: Executor, providerId: string, clinicianUserId: string, state: string) {
    const [row] = await tx
      .select({ disabledAt: clinicians.disabledAt })
      .from(clinicians)
      .where(and(eq(clinicians.userId, clinicianUserId), eq(clinicians.providerId, providerId)));
    if (!row || row.disabledAt !== null) throw notTakingVisits();
    const today = licenceDay(deps.clock.now(), deps.timeZone);
    if (!(await createScheduleRepository(tx).isLicensed(providerId, state, today))) throw notLicensed();
  }

  /**
   * The visit's booked time and the nearest free times of its type and state with anyone who fits,
   * but not with its own clinician when they canceled it or never started it (`exceptClinician`).
   */
  async function rebookOf(booking: BookingRow, exceptClinician: boolean): Promise<Rebook> {
    const [schedule] = await deps.db
      .select({ timeZone: clinicianSchedules.timeZone })
      .from(clinicianSchedules)
      .where(eq(clinicianSchedules.clinicianUserId, booking.clinicianUserId));
    const offers = await deps.schedules.nearestFree({
      type: booking.type,
      state: booking.state,
      limit: REBOOK_OFFERS,
      ...(exceptClinician ? { exceptClinicianUserId: booking.clinicianUserId } : {}),
    });
    return {
      bookedFor: booking.startsAt,
      state: booking.state,
      timeZone: schedule?.timeZone ?? "UTC",
      offers,
      graceMinutes: deps.policy.noShowGraceMinutes,
    };
  }

  return {
    /**
     * Holds a free slot of a provider for BOOKING_HOLD_MINUTES: the provider takes bookings (409
     * NOT_TAKING_VISITS), is licensed in the state and offers the type (422), and `start` is one of
     * the slots of their hours within notice and horizon (422 OUTSIDE_HOURS).
     */
    async hold(auth: AuthContext, input: CreateHoldRequest): Promise<Hold> {
      patientOnly(auth);
      const now = deps.clock.now();
      const repository = createScheduleRepository(deps.db);
      const provider = await repository.providerForBooking(
        input.provider_slug,
        input.state,
        licenceDay(now, deps.timeZone),
      );
      if (!provider) throw new AppError("PROVIDER_NOT_FOUND", 404, CONSULTATION_ERRORS.providerNotFound);
      if (!provider.clinicianUserId || provider.clinicianDisabledAt !== null) throw notTakingVisits();
      if (!provider.licensedInState) {
        throw new AppError("PROVIDER_NOT_LICENSED_IN_STATE", 422, CONSULTATION_ERRORS.providerNotLicensed);
      }
      if (!provider.visitTypes.includes(input.type)) {
        throw new AppError(
          "PROVIDER_DOES_NOT_OFFER_VISIT_TYPE",
          422,
          CONSULTATION_ERRORS.providerTypeNotOffered,
        );
      }
      const rules = await deps.schedules.rulesFor(provider.clinicianUserId, now);
      if (!rules) throw notTakingVisits();
      const slot = slotAt(rules, input.type, new Date(input.start), now);
      if (!slot) throw new AppError("OUTSIDE_HOURS", 422, SCHEDULING_ERRORS.outsideHours);
      const row = await insertHold(
        {
          patientUserId: auth.userId,
          clinicianUserId: provider.clinicianUserId,
          providerId: provider.id,
          type: input.type,
          state: input.state,
          startsAt: slot.start,
          endsAt: slot.end,
          status: "held",
          holdExpiresAt: new Date(now.getTime() + deps.policy.holdMinutes * MINUTE),
          createdAt: now,
          updatedAt: now,
        },
        now,
      );
      changed();
      return {
        id: row.id,
        provider_slug: provider.slug,
        type: row.type,
        state: row.state,
        start: row.startsAt.toISOString(),
        end: row.endsAt.toISOString(),
        expires_at: row.holdExpiresAt!.toISOString(),
      };
    },

    /** Whether the provider has an enabled clinician account: only then may a patient request them. */
    async takesRequests(providerId: string): Promise<boolean> {
      return (await createScheduleRepository(deps.db).enabledClinicianOf(providerId)) !== undefined;
    },

    /** Gives a hold back (404 when it is not the caller's or no longer held). */
    async releaseHold(auth: AuthContext, holdId: string): Promise<void> {
      patientOnly(auth);
      const released = await deps.db
        .update(bookings)
        .set({ status: "released", updatedAt: deps.clock.now() })
        .where(
          and(
            eq(bookings.id, holdId.toLowerCase()),
            eq(bookings.patientUserId, auth.userId),
            eq(bookings.status, "held"),
          ),
        )
        .returning({ id: bookings.id });
      if (released.length === 0) throw holdNotFound();
      changed();
    },

    /**
     * The caller's hold a consultation is created with: still held and unexpired (409 HOLD_EXPIRED),
     * for the consultation's type and state (422).
     */
    async heldSlot(userId: string, holdId: string, type: ConsultationType, state: string): Promise<HeldSlot> {
      const [row] = await deps.db
        .select({ booking: bookings, slug: providers.slug })
        .from(bookings)
        .innerJoin(providers, eq(providers.id, bookings.providerId))
        .where(and(eq(bookings.id, holdId.toLowerCase()), eq(bookings.patientUserId, userId)));
      if (!row) throw holdNotFound();
      const { booking } = row;
      if (booking.status !== "held" || booking.holdExpiresAt! <= deps.clock.now()) throw holdExpired();
      if (booking.type !== type || booking.state !== state) {
        throw new AppError("VALIDATION_FAILED", 422, "The held time is for another visit type or state");
      }
      return {
        holdId: booking.id,
        providerId: booking.providerId,
        providerSlug: row.slug,
        clinicianUserId: booking.clinicianUserId,
        startsAt: booking.startsAt,
      };
    },

    /**
     * Books the hold for the consultation, inside the transaction that creates it: 409 HOLD_EXPIRED
     * when it expired or was released meanwhile; the licence and the clinician are checked again.
     */
    async book(tx: Executor, input: { holdId: string; consultationId: string; userId: string; at: Date }) {
      await lockClinicianOfHold(tx, input.holdId);
      const [row] = await tx
        .update(bookings)
        .set({ status: "booked", consultationId: input.consultationId, updatedAt: input.at })
        .where(
          and(
            eq(bookings.id, input.holdId.toLowerCase()),
            eq(bookings.patientUserId, input.userId),
            eq(bookings.status, "held"),
            sql`${bookings.holdExpiresAt} > ${input.at.toISOString()}::timestamptz`,
          ),
        )
        .returning();
      if (!row) throw holdExpired();
      await stillMayTreat(tx, row.providerId, row.clinicianUserId, row.state);
      await deps.events.booked(tx, visitOf(row));
      await tellClinician(tx, row.clinicianUserId, input.consultationId);
      changed();
    },

    /**
     * The patient cancels a booked visit (inside the cancel's transaction): free until
     * BOOKING_CANCEL_CUTOFF_MINUTES before the start, refused after (409 TOO_LATE_TO_CANCEL: the
     * visit is used). The booking itself is released by the database with the status change.
     */
    async patientCancels(tx: Executor, consultationId: string, at: Date): Promise<void> {
      const row = await currentBooking(tx, consultationId);
      if (row?.status !== "booked") return;
      if (at.getTime() > row.startsAt.getTime() - deps.policy.cancelCutoffMinutes * MINUTE) {
        throw new AppError("TOO_LATE_TO_CANCEL", 409, SCHEDULING_ERRORS.tooLateToCancel);
      }
      await deps.events.canceled(tx, visitOf(row), "patient");
      await tellClinician(tx, row.clinicianUserId, consultationId);
      changed();
    },

    /** A booked visit's time and policy, for its patient. */
    async booking(auth: AuthContext, id: string): Promise<Booking> {
      const visit = await ownVisit(auth, id);
      return bookingView(visit.id, visit.status, visit.checkedInAt);
    },

    /**
     * Moves a booked visit to a slot the patient holds: the old booking stays until the new one is
     * booked, in one transaction (old 'moved', new 'booked', SEQUENCE + 1). Until the cancel cut-off
     * only (409 TOO_LATE_TO_CANCEL), and for the same type and state.
     */
    async reschedule(auth: AuthContext, id: string, holdId: string): Promise<Booking> {
      patientOnly(auth);
      const consultationId = id.toLowerCase();
      const now = deps.clock.now();
      await deps.db.transaction(async (tx) => {
        const visit = await lockConsultation(tx, consultationId);
        if (!visit) throw notFound();
        if (visit.userId !== auth.userId) throw notYours(visit);
        if (visit.status !== "scheduled") throw refused();
        const old = await currentBooking(tx, consultationId);
        if (old?.status !== "booked") throw refused();
        if (now.getTime() > old.startsAt.getTime() - deps.policy.cancelCutoffMinutes * MINUTE) {
          throw new AppError("TOO_LATE_TO_CANCEL", 409, SCHEDULING_ERRORS.tooLateToCancel);
        }
        await lockClinicianOfHold(tx, holdId, auth.userId);
        const [held] = await tx
          .select()
          .from(bookings)
          .where(and(eq(bookings.id, holdId.toLowerCase()), eq(bookings.patientUserId, auth.userId)))
          .for("update");
        if (!held) throw holdNotFound();
        if (held.status !== "held" || held.holdExpiresAt! <= now) throw holdExpired();
        if (held.type !== visit.type || held.state !== visit.state) {
          throw new AppError("VALIDATION_FAILED", 422, "The held time is for another visit type or state");
        }
        await stillMayTreat(tx, held.providerId, held.clinicianUserId, held.state);
        const [moved] = await tx
          .update(bookings)
          .set({ status: "booked", consultationId, sequence: old.sequence + 1, updatedAt: now })
          .where(eq(bookings.id, held.id))
          .returning();
        await tx.update(bookings).set({ status: "moved", updatedAt: now }).where(eq(bookings.id, old.id));
        await tx
          .update(consultations)
          .set({
            scheduledStart: moved!.startsAt,
            providerId: moved!.providerId,
            checkedInAt: null,
            updatedAt: now,
          })
          .where(eq(consultations.id, consultationId));
        await deps.events.moved(tx, visitOf(moved!), { bookingId: old.id, startsAt: old.startsAt });
        await tellClinician(tx, old.clinicianUserId, consultationId);
        if (moved!.clinicianUserId !== old.clinicianUserId) {
          await tellClinician(tx, moved!.clinicianUserId, consultationId);
        }
      });
      changed();
      return bookingView(consultationId, "scheduled", null);
    },

    /**
     * The patient checks in: from CHECK_IN_OPENS_MINUTES before the start until the slot ends (409
     * CHECK_IN_NOT_OPEN otherwise); a second check-in keeps the first time.
     */
    async checkIn(auth: AuthContext, id: string): Promise<Booking> {
      patientOnly(auth);
      const consultationId = id.toLowerCase();
      const now = deps.clock.now();
      const checkedInAt = await deps.db.transaction(async (tx) => {
        const visit = await lockConsultation(tx, consultationId);
        if (!visit) throw notFound();
        if (visit.userId !== auth.userId) throw notYours(visit);
        const booking = await currentBooking(tx, consultationId);
        if (visit.status !== "scheduled" || !booking || booking.status !== "booked") {
          throw checkInNotOpen(deps.policy.checkInOpensMinutes);
        }
        const opens = booking.startsAt.getTime() - deps.policy.checkInOpensMinutes * MINUTE;
        if (now.getTime() < opens || now.getTime() >= booking.endsAt.getTime()) {
          throw checkInNotOpen(deps.policy.checkInOpensMinutes);
        }
        if (visit.checkedInAt) return visit.checkedInAt;
        await tx
          .update(consultations)
          .set({ checkedInAt: now, updatedAt: now })
          .where(eq(consultations.id, consultationId));
        await tellClinician(tx, booking.clinicianUserId, consultationId, "checked_in");
        return now;
      });
      return bookingView(consultationId, "scheduled", checkedInAt);
    },

    /**
     * The clinician marks a booked visit missed: theirs, still scheduled, and the patient has not
     * checked in NO_SHOW_GRACE_MINUTES after the start (409 NOT_MISSED_YET). The visit is used.
     */
    async markMissed(actor: { userId: string; providerId: string }, id: string): Promise<void> {
      const consultationId = id.toLowerCase();
      const now = deps.clock.now();
      await deps.db.transaction(async (tx) => {
        const visit = await lockConsultation(tx, consultationId);
        if (!visit) throw notFound();
        if (visit.providerId !== actor.providerId) {
          throw new AppError("CONSULTATION_OTHER_CLINICIAN", 403, CONSULTATION_ERRORS.otherClinician, {
            refusedAccess: { ownerUserId: visit.userId, resourceType: "consultation", resourceId: visit.id },
          });
        }
        if (visit.status !== "scheduled") throw refused();
        const booking = await currentBooking(tx, consultationId);
        const late =
          booking && now.getTime() >= booking.startsAt.getTime() + deps.policy.noShowGraceMinutes * MINUTE;
        if (!late || visit.checkedInAt !== null) {
          throw new AppError("NOT_MISSED_YET", 409, SCHEDULING_ERRORS.notMissedYet, {
            details: { minutes: deps.policy.noShowGraceMinutes },
          });
        }
        await changeVisitStatus(
          tx,
          {
            consultationId,
            from: "scheduled",
            to: "missed",
            actor: { kind: "clinician", ...actor },
            at: now,
          },
          deps.live,
        );
        // The patient's e-mail (ADR 060): queued with the change, sent once by a job.
        await enqueueBookedVisitMail(tx, consultationId, "visit-missed", now);
      });
    },

    /**
     * Whether a canceled visit's e-mail is a job queued with its cancel, so the settlement writes
     * none: a booked visit ('scheduled') its clinician canceled, or the system canceled because the
     * clinician never started it (the history's cause).
     */
    async cancelMailedByJob(consultationId: string): Promise<boolean> {
      const [last] = await deps.db
        .select({
          from: consultationStatusHistory.fromStatus,
          to: consultationStatusHistory.toStatus,
          actorKind: consultationStatusHistory.actorKind,
          cause: consultationStatusHistory.cause,
        })
        .from(consultationStatusHistory)
        .where(eq(consultationStatusHistory.consultationId, consultationId))
        .orderBy(desc(consultationStatusHistory.at), desc(consultationStatusHistory.id))
        .limit(1);
      if (last?.to !== "canceled" || last.from !== "scheduled") return false;
      return last.actorKind === "clinician" || last.cause === "clinician_never_started";
    },

    /**
     * A booked visit's time and the nearest free times to book again (its e-mails' job); after the
     * clinician canceled it or never started it (`exceptItsClinician`), none with that clinician.
     */
    async rebookFor(consultationId: string, exceptItsClinician = false): Promise<Rebook | undefined> {
      const booking = await currentBooking(deps.db, consultationId);
      return booking ? rebookOf(booking, exceptItsClinician) : undefined;
    },

    /**
     * Before a clinician starts a visit: the status it starts from. A booked visit starts from
     * CHECK_IN_OPENS_MINUTES before its time (409 CHECK_IN_NOT_OPEN before); its provider must still
     * be licensed in the patient's state, else the visit is canceled and refunded (409).
     */
    async beforeStart(
      actor: { userId: string; providerId: string },
      id: string,
    ): Promise<ConsultationStatus> {
      const consultationId = id.toLowerCase();
      const [visit] = await deps.db
        .select({
          status: consultations.status,
          providerId: consultations.providerId,
          state: consultations.state,
        })
        .from(consultations)
        .where(eq(consultations.id, consultationId));
      if (visit?.status !== "scheduled") return "accepted";
      if (visit.providerId !== actor.providerId) return "scheduled";
      const booking = await currentBooking(deps.db, consultationId);
      const now = deps.clock.now();
      if (!booking || now.getTime() < booking.startsAt.getTime() - deps.policy.checkInOpensMinutes * MINUTE) {
        throw checkInNotOpen(deps.policy.checkInOpensMinutes);
      }
      const today = licenceDay(now, deps.timeZone);
      if (!(await createScheduleRepository(deps.db).isLicensed(actor.providerId, visit.state ?? "", today))) {
        await deps.db.transaction(async (tx) => {
          await changeVisitStatus(
            tx,
            {
              consultationId,
              from: "scheduled",
              to: "canceled",
              actor: { kind: "system" },
              reason: "The clinician's licence in the patient's state lapsed before the visit",
              cause: "licence_lapsed",
              at: now,
              set: { settlementPending: true },
            },
            deps.live,
          );
          await deps.events.canceled(tx, visitOf(booking), "system");
        });
        changed();
        await deps.settlePending?.();
        throw notLicensed();
      }
      return "scheduled";
    },

    /** The clinician canceled a booked visit (the visit service's cancel, in its transaction). */
    async clinicianCanceled(tx: Executor, consultationId: string): Promise<void> {
      const row = await currentBooking(tx, consultationId);
      if (!row) return;
      await deps.events.canceled(tx, visitOf(row), "clinician");
      await enqueueBookedVisitMail(tx, consultationId, "visit-canceled", deps.clock.now());
      changed();
    },

    /**
     * The no-show check, NO_SHOW_GRACE_MINUTES after a booked start (a job): a visit still booked
     * at `startsAt` and still 'scheduled' (its clinician neither started it nor marked it missed) is
     * canceled by the system and refunded; the settlement writes to the patient. Answers whether it was.
     */
    async clinicianNeverStarted(bookingId: string, startsAt: Date, at: Date): Promise<boolean> {
      const canceled = await deps.db.transaction(async (tx) => {
        const [row] = await tx.select().from(bookings).where(eq(bookings.id, bookingId));
        if (row?.status !== "booked" || row.consultationId === null) return false;
        if (row.startsAt.getTime() !== startsAt.getTime()) return false;
        const visit = await lockConsultation(tx, row.consultationId);
        if (visit?.status !== "scheduled") return false;
        await changeVisitStatus(
          tx,
          {
            consultationId: row.consultationId,
            from: "scheduled",
            to: "canceled",
            actor: { kind: "system" },
            reason: NEVER_STARTED_REASON,
            cause: "clinician_never_started",
            at,
            set: { settlementPending: true },
          },
          deps.live,
        );
        await deps.events.canceled(tx, visitOf(row), "system");
        await enqueueBookedVisitMail(tx, row.consultationId, "visit-not-started", at);
        await tellClinician(tx, row.clinicianUserId, row.consultationId);
        return true;
      });
      if (canceled) {
        changed();
        await deps.settlePending?.();
      }
      return canceled;
    },

    /** Holds past their expiry become 'released' (also done whenever a clinician's slot is held). */
    async releaseExpiredHolds(): Promise<number> {
      const now = deps.clock.now();
      const rows = await deps.db
        .update(bookings)
        .set({ status: "released", updatedAt: now })
        .where(and(eq(bookings.status, "held"), lte(bookings.holdExpiresAt, now)))
        .returning({ id: bookings.id });
      if (rows.length > 0) changed();
      return rows.length;
    },
  };
}

export type BookingService = ReturnType<typeof createBookingService>;
