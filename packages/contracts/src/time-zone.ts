/**
 * Time zones: a patient's times are shown in their own zone, an IANA name ("America/Los_Angeles")
 * kept in the profile. Free of zod, so the pages' formatter can check a zone in the browser too.
 */

/** The zone a time is shown in while the patient's own is unknown: labelled, so never mistaken. */
export const FALLBACK_TIME_ZONE = "UTC";

/** The longest IANA name is 32 characters; the room left is for aliases a browser may report. */
export const TIME_ZONE_MAX_LENGTH = 64;

// Region/City names (and UTC, Etc/GMT+5): offsets such as "+05:00", which newer engines also accept,
// are no place to live in and do not follow daylight saving time.
const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The answers given so far: asking the engine builds a date formatter (tens of microseconds), and a
 * page asks for every time it shows. The engine's zones are a few hundred names, so the names it
 * knows are all kept; names it refuses are kept up to a bound, then forgotten together.
 */
const known = new Set<string>();
const refused = new Set<string>();
const REFUSED_KEPT = 1_000;

/** Whether `value` names a time zone this JavaScript engine knows (aliases such as Asia/Calcutta too). */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length > TIME_ZONE_MAX_LENGTH || !TIME_ZONE_NAME.test(value)) {
    return false;
  }
  if (known.has(value)) return true;
  if (refused.has(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    known.add(value);
    return true;
  } catch {
    if (refused.size >= REFUSED_KEPT) refused.clear();
    refused.add(value);
    return false;
  }
}

/**
 * The day formatters built so far, one per zone: building one costs tens of microseconds, and every
 * logged-in page asks for today. Only zones the engine accepted get here, a few hundred at most.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormatOf(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/**
 * The calendar day (YYYY-MM-DD) of `now` in `timeZone` (a zone the engine knows): the day a person
 * or the clinic is in at that instant, for "today" and for midnights.
 */
export function calendarDayIn(now: Date, timeZone: string): string {
  const parts = dayFormatOf(timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year").padStart(4, "0")}-${part("month")}-${part("day")}`;
}
