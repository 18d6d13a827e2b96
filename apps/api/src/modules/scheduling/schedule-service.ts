import { CONSULTATION_ERRORS } from "@ambercare/contracts/consultation";
import { readStoredIntake } from "@ambercare/contracts/intake-schemas";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import {
  type AddExceptionRequest,
  type AgendaItem,
  type HourException,
  minutesOf,
  type PutScheduleRequest,
  SCHEDULE_LIMITS,
  SCHEDULING_ERRORS,
  type Schedule,
  type SlotsQuery,
  type SlotsResponse,
  wallTimeOf,
} from "@ambercare/contracts/scheduling";
import { FALLBACK_TIME_ZONE } from "@ambercare/contracts/time-zone";
import type { Database, Executor } from "@ambercare/db/client";
import {
  bookings,
  clinicianHourExceptions,
  clinicianSchedules,
  clinicians,
  clinicianWeeklyHours,
  consultations,
  licenceDay,
  licenceInForce,
  providerLicenses,
  providers,
  users,
} from "@ambercare/db/schema";
import { and, arrayContains, asc, eq, gte, isNull, lt, ne } from "drizzle-orm";
import {
  createScheduleRepository,
  rulesOf,
  type ScheduleDefaults,
  slotMinutesOf,
} from "#api/modules/scheduling/schedule-repository.ts";
import {
  addDays,
  freeSlots,
  localDateOf,
  type ScheduleRules,
  startOfLocalDate,
} from "#api/modules/scheduling/slots.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/** The zone a schedule starts in before the clinician saves their own. */
export const DEFAULT_SCHEDULE_TIME_ZONE = "America/New_York";

const DAY_MS = 86_400_000;

const toException = (row: {
  id: string;
  onDate: string;
  kind: "off" | "extra";
  startMinute: number | null;
  endMinute: number | null;
  visitTypes: readonly ConsultationType[];
}): HourException => ({
  id: row.id,
  date: row.onDate,
  kind: row.kind,
  start: row.startMinute === null ? null : wallTimeOf(row.startMinute),
  end: row.endMinute === null ? null : wallTimeOf(row.endMinute),
  visit_types: [...row.visitTypes],
});

/**
 * Who else changes a clinician's hours than the clinician (an operator, ADR 065): run in the same
 * transaction as the change, so that the change and its audit entry stand or fall together.
 */
export type ScheduleChangeHook = (
  executor: Executor,
  change: { timeZone: string; exception?: HourException },
) => Promise<void>;

/** Refused: a patient may not ask for this provider's time (ADR 059). */
export const notTakingVisits = () =>
  new AppError("NOT_TAKING_VISITS", 409, SCHEDULING_ERRORS.notTakingVisits);

/**
 * Clinicians' hours (their own settings, weekly ranges and exceptions), the free slots patients
 * see, and the clinician's agenda of booked visits.
 */
export function createScheduleService(deps: {
  db: Database;
  clock: Clock;
  defaults: ScheduleDefaults;
  /** Hours changed: the directory's "next available" is stale. */
  onChange?: () => void;
  /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
  timeZone?: string;
}) {
  const changed = () => deps.onChange?.();

  /** The rules of a clinician's slots; undefined without a saved schedule (no bookings then). */
  async function rulesFor(clinicianUserId: string, now: Date): Promise<ScheduleRules | undefined> {
    const repository = createScheduleRepository(deps.db);
    const schedule = await repository.schedule(clinicianUserId);
    if (!schedule) return undefined;
    const [weekly, exceptions] = await Promise.all([
      repository.weekly([clinicianUserId]),
      repository.exceptions([clinicianUserId], addDays(localDateOf(now, "UTC"), -1)),
    ]);
    return rulesOf(schedule, weekly, exceptions, deps.defaults);
  }

  /** The zone a clinician's hours are read in: their saved one, or the default before they save. */
  async function timeZoneOf(executor: Executor, clinicianUserId: string): Promise<string> {
    const stored = await createScheduleRepository(executor).schedule(clinicianUserId);
    return stored?.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
  }

  async function scheduleOf(clinicianUserId: string): Promise<Schedule> {
    const repository = createScheduleRepository(deps.db);
    const stored = await repository.schedule(clinicianUserId);
    const timeZone = stored?.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
    const today = localDateOf(deps.clock.now(), timeZone);
    const [weekly, exceptions] = await Promise.all([
      repository.weekly([clinicianUserId]),
      repository.exceptions([clinicianUserId], today),
    ]);
    const own = stored?.ownSlotMinutes ?? {};
    return {
      time_zone: timeZone,
      min_notice_minutes: stored?.minNoticeMinutes ?? deps.defaults.minNoticeMinutes,
      horizon_days: stored?.horizonDays ?? deps.defaults.horizonDays,
      slot_minutes: slotMinutesOf(own, deps.defaults),
      own_slot_minutes: own,
      weekly_hours: weekly.map((range) => ({
        weekday: range.weekday,
        start: wallTimeOf(range.startMinute),
        end: wallTimeOf(range.endMinute),
        visit_types: [...range.visitTypes],
      })),
      exceptions: exceptions.map(toException),
      saved: stored !== undefined,
    };
  }

  return {
    rulesFor,
    scheduleOf,

    /**
     * Replaces the clinician's settings and whole week. Ranges of one weekday may not overlap (422
     * SCHEDULE_INVALID): a slot would otherwise be offered by two ranges with different steps.
     */
    async replace(
      clinicianUserId: string,
      input: PutScheduleRequest,
      within?: ScheduleChangeHook,
    ): Promise<Schedule> {
      const ranges = input.weekly_hours.map((range) => ({
        weekday: range.weekday,
        startMinute: minutesOf(range.start),
        endMinute: minutesOf(range.end),
        visitTypes: [...new Set(range.visit_types)],
      }));
      const sorted = [...ranges].sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute);
      for (let i = 1; i < sorted.length; i++) {
        const previous = sorted[i - 1]!;
        const range = sorted[i]!;
        if (range.weekday === previous.weekday && range.startMinute < previous.endMinute) {
          throw new AppError("SCHEDULE_INVALID", 422, SCHEDULING_ERRORS.scheduleInvalid);
        }
      }
      const now = deps.clock.now();
      await deps.db.transaction(async (tx) => {
        const values = {
          timeZone: input.time_zone,
          minNoticeMinutes: input.min_notice_minutes ?? deps.defaults.minNoticeMinutes,
          horizonDays: input.horizon_days ?? deps.defaults.horizonDays,
          slotMinutes: input.slot_minutes ?? {},
          updatedAt: now,
        };
        await tx
          .insert(clinicianSchedules)
          .values({ clinicianUserId, ...values })
          .onConflictDoUpdate({ target: clinicianSchedules.clinicianUserId, set: values });
        await tx
          .delete(clinicianWeeklyHours)
          .where(eq(clinicianWeeklyHours.clinicianUserId, clinicianUserId));
        if (sorted.length > 0) {
          await tx
            .insert(clinicianWeeklyHours)
            .values(sorted.map((range) => ({ clinicianUserId, ...range })));
        }
        await within?.(tx, { timeZone: input.time_zone });
      });
      changed();
      return scheduleOf(clinicianUserId);
    },

    async addException(
      clinicianUserId: string,
      input: AddExceptionRequest,
      within?: ScheduleChangeHook,
    ): Promise<HourException> {
      const row = await deps.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(clinicianHourExceptions)
          .values({
            clinicianUserId,
            onDate: input.date,
            kind: input.kind,
            startMinute: input.start === undefined ? null : minutesOf(input.start),
            endMinute: input.end === undefined ? null : minutesOf(input.end),
            visitTypes: [...new Set(input.visit_types ?? (["chat", "video"] as const))],
            createdAt: deps.clock.now(),
          })
          .returning();
        if (within) {
          await within(tx, {
            timeZone: await timeZoneOf(tx, clinicianUserId),
            exception: toException(inserted!),
          });
        }
        return inserted!;
      });
      changed();
      return toException(row);
    },

    async deleteException(clinicianUserId: string, id: string, within?: ScheduleChangeHook): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const deleted = await tx
          .delete(clinicianHourExceptions)
          .where(
            and(
              eq(clinicianHourExceptions.id, id.toLowerCase()),
              eq(clinicianHourExceptions.clinicianUserId, clinicianUserId),
            ),
          )
          .returning();
        if (deleted.length === 0) throw new AppError("NOT_FOUND", 404, "Exception not found");
        if (within) {
          await within(tx, {
            timeZone: await timeZoneOf(tx, clinicianUserId),
            exception: toException(deleted[0]!),
          });
        }
      });
      changed();
    },

    /**
     * The earliest free slots of one type with any clinician who fits: an enabled clinician account
     * whose provider offers the type and is licensed in `state` (the times a canceled or missed
     * visit's e-mail offers), but `exceptClinicianUserId` (the clinician who canceled). At most
     * `limit`, earliest first.
     */
    async nearestFree(input: {
      type: ConsultationType;
      state: string;
      limit: number;
      exceptClinicianUserId?: string;
    }): Promise<{ start: Date; providerSlug: string; providerName: string }[]> {
      const now = deps.clock.now();
      const fitting = await deps.db
        .select({
          clinicianUserId: clinicians.userId,
          slug: providers.slug,
          firstName: providers.firstName,
          lastName: providers.lastName,
          credentials: providers.credentials,
        })
        .from(clinicians)
        .innerJoin(providers, eq(providers.id, clinicians.providerId))
        .innerJoin(
          providerLicenses,
          and(
            eq(providerLicenses.providerId, providers.id),
            eq(providerLicenses.state, input.state),
            licenceInForce(licenceDay(now, deps.timeZone)),
          ),
        )
        .where(
          and(
            isNull(clinicians.disabledAt),
            isNull(providers.unlistedAt),
            arrayContains(providers.visitTypes, [input.type]),
            input.exceptClinicianUserId ? ne(clinicians.userId, input.exceptClinicianUserId) : undefined,
          ),
        );
      const repository = createScheduleRepository(deps.db);
      const offers: { start: Date; providerSlug: string; providerName: string }[] = [];
      for (const row of fitting) {
        const rules = await rulesFor(row.clinicianUserId, now);
        if (!rules) continue;
        const until = new Date(now.getTime() + (rules.horizonDays + 1) * DAY_MS);
        const busy = await repository.busy([row.clinicianUserId], now, until, now);
        const name = `${row.firstName} ${row.lastName}, ${row.credentials}`;
        for (const slot of freeSlots(rules, { type: input.type, now, busy, limit: input.limit })) {
          offers.push({ start: slot.start, providerSlug: row.slug, providerName: name });
        }
      }
      return offers.sort((a, b) => a.start.getTime() - b.start.getTime()).slice(0, input.limit);
    },

    /**
     * A provider's free slots of one type (public): the provider must have an enabled clinician
     * account (409 NOT_TAKING_VISITS), be licensed in `state` and offer the type (422). A clinician
     * who has not saved hours yet has none.
     */
    async slots(slug: string, query: SlotsQuery): Promise<SlotsResponse["data"]> {
      const repository = createScheduleRepository(deps.db);
      const provider = await repository.providerForBooking(
        slug,
        query.state,
        licenceDay(deps.clock.now(), deps.timeZone),
      );
      if (!provider) throw new AppError("PROVIDER_NOT_FOUND", 404, CONSULTATION_ERRORS.providerNotFound);
      if (!provider.clinicianUserId || provider.clinicianDisabledAt !== null) throw notTakingVisits();
      if (!provider.licensedInState) {
        throw new AppError("PROVIDER_NOT_LICENSED_IN_STATE", 422, CONSULTATION_ERRORS.providerNotLicensed);
      }
      if (!provider.visitTypes.includes(query.type)) {
        throw new AppError(
          "PROVIDER_DOES_NOT_OFFER_VISIT_TYPE",
          422,
          CONSULTATION_ERRORS.providerTypeNotOffered,
        );
      }
      const now = deps.clock.now();
      const rules = await rulesFor(provider.clinicianUserId, now);
      if (!rules) return { time_zone: FALLBACK_TIME_ZONE, slots: [] };
      const from = new Date(Math.max(now.getTime(), query.from ? Date.parse(query.from) : 0));
      const until = new Date(from.getTime() + (query.days ?? rules.horizonDays) * DAY_MS);
      const busy = await repository.busy([provider.clinicianUserId], from, until, now);
      let slots = freeSlots(rules, { type: query.type, now, busy, from, until });
      if (query.near) {
        const near = Date.parse(query.near);
        slots = [...slots]
          .sort((a, b) => Math.abs(a.start.getTime() - near) - Math.abs(b.start.getTime() - near))
          .slice(0, SCHEDULE_LIMITS.nearest)
          .sort((a, b) => a.start.getTime() - b.start.getTime());
      }
      return {
        time_zone: rules.timeZone,
        slots: slots.map((slot) => ({
          start: slot.start.toISOString(),
          end: slot.end.toISOString(),
          type: slot.type,
        })),
      };
    },

    /**
     * The clinician's booked visits starting in [from, to) (default: their local today), with the
     * patient's name (or their dependent's) and check-in.
     */
    async agenda(
      clinicianUserId: string,
      range: { from?: string | undefined; to?: string | undefined },
    ): Promise<{ items: AgendaItem[]; timeZone: string; from: Date; to: Date }> {
      const stored = await createScheduleRepository(deps.db).schedule(clinicianUserId);
      const timeZone = stored?.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
      const today = localDateOf(deps.clock.now(), timeZone);
      const from = range.from ? new Date(range.from) : startOfLocalDate(today, timeZone);
      const to = range.to ? new Date(range.to) : startOfLocalDate(addDays(today, 1), timeZone);
      if (to.getTime() <= from.getTime() || to.getTime() - from.getTime() > 31 * DAY_MS) {
        throw new AppError("VALIDATION_FAILED", 400, "to must be after from, at most 31 days later");
      }
      const rows = await deps.db
        .select({
          consultationId: consultations.id,
          status: consultations.status,
          type: consultations.type,
          state: consultations.state,
          intake: consultations.intake,
          intakeVersion: consultations.intakeVersion,
          checkedInAt: consultations.checkedInAt,
          firstName: users.firstName,
          lastName: users.lastName,
          start: bookings.startsAt,
          end: bookings.endsAt,
        })
        .from(bookings)
        .innerJoin(consultations, eq(consultations.id, bookings.consultationId))
        .innerJoin(users, eq(users.id, consultations.userId))
        .where(
          and(
            eq(bookings.clinicianUserId, clinicianUserId),
            eq(bookings.status, "booked"),
            gte(bookings.startsAt, from),
            lt(bookings.startsAt, to),
          ),
        )
        .orderBy(asc(bookings.startsAt));
      return {
        timeZone,
        from,
        to,
        items: rows.map((row) => {
          const intake = readStoredIntake(row.intake, row.intakeVersion);
          const dependent = intake?.patient === "dependent" ? intake.dependent : null;
          return {
            consultation_id: row.consultationId,
            status: row.status,
            type: row.type,
            state: row.state ?? "",
            patient_name: dependent
              ? `${dependent.first_name} ${dependent.last_name}`
              : [row.firstName, row.lastName].filter(Boolean).join(" "),
            start: row.start.toISOString(),
            end: row.end.toISOString(),
            checked_in_at: row.checkedInAt?.toISOString() ?? null,
          };
        }),
      };
    },
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
