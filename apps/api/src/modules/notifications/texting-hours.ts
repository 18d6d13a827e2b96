import { Temporal } from "temporal-polyfill";

/**
 * When a text may reach a patient (ADR 064): from 08:00 to 21:00 on their own clock, as the
 * consent's wording says. Wall times in the patient's IANA zone, daylight saving included.
 */
export const TEXTING_FROM_HOUR = 8;
export const TEXTING_UNTIL_HOUR = 21;

const zoned = (at: Date, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(at.getTime()).toZonedDateTimeISO(timeZone);

export function textingAllowed(at: Date, timeZone: string): boolean {
  const { hour } = zoned(at, timeZone);
  return hour >= TEXTING_FROM_HOUR && hour < TEXTING_UNTIL_HOUR;
}

/** The next 08:00 in the zone after `at` (today's when it is not yet 08:00 there, else tomorrow's). */
export function nextTextingStart(at: Date, timeZone: string): Date {
  const local = zoned(at, timeZone);
  const day = local.hour < TEXTING_FROM_HOUR ? local.toPlainDate() : local.toPlainDate().add({ days: 1 });
  const start = day.toZonedDateTime({
    timeZone,
    plainTime: Temporal.PlainTime.from({ hour: TEXTING_FROM_HOUR }),
  });
  return new Date(start.epochMilliseconds);
}
