import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { perVisitType } from "@ambercare/contracts/visit-types";
import type { Executor } from "@ambercare/db/client";
import {
  bookings,
  clinicianHourExceptions,
  clinicianSchedules,
  clinicians,
  clinicianWeeklyHours,
  licenceInForce,
  providerLicenses,
  providers,
} from "@ambercare/db/schema";
import { and, asc, eq, gt, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { BusyRange, HoursException, ScheduleRules, WeeklyHours } from "#api/modules/scheduling/slots.ts";

/** The clinic's defaults a schedule falls back on (configuration). */
export type ScheduleDefaults = {
  slotMinutes: Record<ConsultationType, number>;
  minNoticeMinutes: number;
  horizonDays: number;
};

export type StoredSchedule = {
  clinicianUserId: string;
  timeZone: string;
  minNoticeMinutes: number;
  horizonDays: number;
  ownSlotMinutes: Partial<Record<ConsultationType, number>>;
};

const ts = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** The slot length of each kind of visit in force: the clinician's own, else the clinic's. */
export function slotMinutesOf(
  own: Partial<Record<ConsultationType, number>>,
  defaults: ScheduleDefaults,
): Record<ConsultationType, number> {
  return perVisitType((visit) => own[visit.id] ?? defaults.slotMinutes[visit.id]);
}

/** The rules slots are computed from: the stored settings over the clinic's defaults. */
export function rulesOf(
  schedule: StoredSchedule,
  weekly: readonly WeeklyHours[],
  exceptions: readonly HoursException[],
  defaults: ScheduleDefaults,
): ScheduleRules {
  return {
    timeZone: schedule.timeZone,
    minNoticeMinutes: schedule.minNoticeMinutes,
    horizonDays: schedule.horizonDays,
    slotMinutes: slotMinutesOf(schedule.ownSlotMinutes, defaults),
    weekly,
    exceptions,
  };
}

/** Clinicians' hours and the time taken from them. */
export function createScheduleRepository(db: Executor) {
  return {
    async schedule(clinicianUserId: string): Promise<StoredSchedule | undefined> {
      const [row] = await db
        .select({
          clinicianUserId: clinicianSchedules.clinicianUserId,
          timeZone: clinicianSchedules.timeZone,
          minNoticeMinutes: clinicianSchedules.minNoticeMinutes,
          horizonDays: clinicianSchedules.horizonDays,
          ownSlotMinutes: clinicianSchedules.slotMinutes,
        })
        .from(clinicianSchedules)
        .where(eq(clinicianSchedules.clinicianUserId, clinicianUserId));
      return row;
    },

    /** Every schedule of an enabled clinician, with the provider they work as. */
    async activeSchedules(): Promise<(StoredSchedule & { providerId: string })[]> {
      return db
        .select({
          clinicianUserId: clinicianSchedules.clinicianUserId,
          providerId: clinicians.providerId,
          timeZone: clinicianSchedules.timeZone,
          minNoticeMinutes: clinicianSchedules.minNoticeMinutes,
          horizonDays: clinicianSchedules.horizonDays,
          ownSlotMinutes: clinicianSchedules.slotMinutes,
        })
        .from(clinicianSchedules)
        .innerJoin(clinicians, eq(clinicians.userId, clinicianSchedules.clinicianUserId))
        .where(isNull(clinicians.disabledAt));
    },

    async weekly(
      clinicianUserIds: readonly string[],
    ): Promise<(WeeklyHours & { clinicianUserId: string })[]> {
      if (clinicianUserIds.length === 0) return [];
      return db
        .select({
          clinicianUserId: clinicianWeeklyHours.clinicianUserId,
          weekday: clinicianWeeklyHours.weekday,
          startMinute: clinicianWeeklyHours.startMinute,
          endMinute: clinicianWeeklyHours.endMinute,
          visitTypes: clinicianWeeklyHours.visitTypes,
        })
        .from(clinicianWeeklyHours)
        .where(inArray(clinicianWeeklyHours.clinicianUserId, [...clinicianUserIds]))
        .orderBy(
          asc(clinicianWeeklyHours.weekday),
          asc(clinicianWeeklyHours.startMinute),
          asc(clinicianWeeklyHours.id),
        );
    },

    /** Exceptions on `fromDate` (YYYY-MM-DD, a day before the earliest zone's today is safe) or later. */
    async exceptions(
      clinicianUserIds: readonly string[],
      fromDate: string,
    ): Promise<(HoursException & { id: string; clinicianUserId: string })[]> {
      if (clinicianUserIds.length === 0) return [];
      return db
        .select({
          id: clinicianHourExceptions.id,
          clinicianUserId: clinicianHourExceptions.clinicianUserId,
          onDate: clinicianHourExceptions.onDate,
          kind: clinicianHourExceptions.kind,
          startMinute: clinicianHourExceptions.startMinute,
          endMinute: clinicianHourExceptions.endMinute,
          visitTypes: clinicianHourExceptions.visitTypes,
        })
        .from(clinicianHourExceptions)
        .where(
          and(
            inArray(clinicianHourExceptions.clinicianUserId, [...clinicianUserIds]),
            gte(clinicianHourExceptions.onDate, fromDate),
          ),
        )
        .orderBy(
          asc(clinicianHourExceptions.onDate),
          asc(clinicianHourExceptions.startMinute),
          asc(clinicianHourExceptions.createdAt),
        );
    },

    /** Time taken from `from` to `until`: booked, or held and not yet expired at `now`. */
    async busy(
      clinicianUserIds: readonly string[],
      from: Date,
      until: Date,
      now: Date,
    ): Promise<(BusyRange & { clinicianUserId: string })[]> {
      if (clinicianUserIds.length === 0) return [];
      return db
        .select({
          clinicianUserId: bookings.clinicianUserId,
          startsAt: bookings.startsAt,
          endsAt: bookings.endsAt,
        })
        .from(bookings)
        .where(
          and(
            inArray(bookings.clinicianUserId, [...clinicianUserIds]),
            lt(bookings.startsAt, until),
            gt(bookings.endsAt, from),
            or(
              eq(bookings.status, "booked"),
              and(eq(bookings.status, "held"), sql`${bookings.holdExpiresAt} > ${ts(now)}`),
            ),
          ),
        );
    },

    /**
     * The provider a patient asks for (listed), with its clinician account and a licence in force
     * on `today` (licenceDay) in `state`.
     */
    async providerForBooking(slug: string, state: string | undefined, today: string) {
      const [row] = await db
        .select({
          id: providers.id,
          slug: providers.slug,
          visitTypes: providers.visitTypes,
          licensedInState:
            state === undefined
              ? sql<boolean>`true`
              : sql<boolean>`exists (select 1 from ${providerLicenses} where ${providerLicenses.providerId} = ${providers.id} and ${providerLicenses.state} = ${state} and ${licenceInForce(today)})`,
          clinicianUserId: clinicians.userId,
          clinicianDisabledAt: clinicians.disabledAt,
        })
        .from(providers)
        .leftJoin(clinicians, eq(clinicians.providerId, providers.id))
        .where(and(eq(providers.slug, slug), isNull(providers.unlistedAt)));
      return row;
    },

    /** The enabled clinician account of a provider, if any. */
    async enabledClinicianOf(providerId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ userId: clinicians.userId })
        .from(clinicians)
        .where(and(eq(clinicians.providerId, providerId), isNull(clinicians.disabledAt)));
      return row?.userId;
    },

    /** A licence in `state` in force on `today` (licenceDay). */
    async isLicensed(providerId: string, state: string, today: string): Promise<boolean> {
      const [row] = await db
        .select({ state: providerLicenses.state })
        .from(providerLicenses)
        .where(
          and(
            eq(providerLicenses.providerId, providerId),
            eq(providerLicenses.state, state),
            licenceInForce(today),
          ),
        );
      return row !== undefined;
    },
  };
}

export type ScheduleRepository = ReturnType<typeof createScheduleRepository>;
