import { calendarDayIn } from "@ambercare/contracts/time-zone";
import { Temporal } from "temporal-polyfill";

/**
 * The clinic's days (CLINIC_TIME_ZONE, UTC by default): a day runs from one midnight there to the
 * next, 23 or 25 hours on a day of a daylight-saving change. The operations board's "today", the
 * access log's day filters, the reports and a licence's last day all count these days.
 */

/** The calendar day (YYYY-MM-DD) of `now` in `timeZone`. */
export const dayIn = (now: Date, timeZone: string): string => calendarDayIn(now, timeZone);

/** The day after `day` (YYYY-MM-DD), or `days` after it. */
export function dayAfter(day: string, days = 1): string {
  return Temporal.PlainDate.from(day).add({ days }).toString();
}

/** The first instant of `day` (YYYY-MM-DD) in `timeZone`: its midnight, or its first wall time. */
export function midnightIn(day: string, timeZone: string): Date {
  return new Date(Temporal.PlainDate.from(day).toZonedDateTime({ timeZone }).epochMilliseconds);
}

/** The clinic's day of `now`: its date and its instants, from its midnight to the next one. */
export function clinicDayOf(now: Date, timeZone: string): { day: string; start: Date; end: Date } {
  const day = dayIn(now, timeZone);
  return { day, start: midnightIn(day, timeZone), end: midnightIn(dayAfter(day), timeZone) };
}

/**
 * A patient's time zone: their profile's, or the clinic's when they have none (UTC without either).
 * Their today (patientDayIn) and the dates of their invoices' periods are days there.
 */
export function patientZone(profileZone: string | null | undefined, clinicZone: string | undefined): string {
  return knownZone(profileZone) ?? knownZone(clinicZone) ?? "UTC";
}

/**
 * A patient's today (YYYY-MM-DD): the day of `now` in their time zone (patientZone). A date they give
 * (a birth date, when symptoms started) may not be after it, and their age counts to it.
 */
export function patientDayIn(
  now: Date,
  profileZone: string | null | undefined,
  clinicZone: string | undefined,
): string {
  return dayIn(now, patientZone(profileZone, clinicZone));
}

/** `zone` when it is an IANA zone this runtime knows (a stored zone is checked on the way in). */
function knownZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}
