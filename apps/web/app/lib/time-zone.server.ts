import type { User } from "@ambercare/contracts/auth";
import { calendarDayIn, FALLBACK_TIME_ZONE, isTimeZone } from "@ambercare/contracts/time-zone";
import { readCookie, setCookieHeader } from "#app/lib/cookies.server.ts";
import { TIME_ZONE_COOKIE, TIME_ZONE_COOKIE_MAX_AGE_S } from "#app/lib/time-zone.ts";

/**
 * Which time zone a page's times are shown in. The server has no browser zone, so it is carried in
 * the `tz` cookie: set by the page's first script from the browser's zone when there is none yet
 * (timeZoneScript, time-zone.ts), and by the server to the profile's zone at login and when the patient changes
 * it on /my-profile. The profile remembers it; the cookie brings it to every server render, so the
 * first paint already has the right times and hydration finds the same text.
 */
/** The zone the request's cookie names, when it is one this server knows; null otherwise. */
export function readTimeZone(request: Request): string | null {
  const zone = readCookie(request.headers.get("Cookie"), TIME_ZONE_COOKIE);
  return isTimeZone(zone) ? zone : null;
}

/** The zone of a logged-in visitor's pages: the cookie's, else UTC (which every time names). */
export function pageTimeZone(request: Request): string {
  return readTimeZone(request) ?? FALLBACK_TIME_ZONE;
}

/** A `Set-Cookie` for the zone; readable by the page's script, which only checks that it exists. */
export function timeZoneCookie(zone: string, { secure }: { secure: boolean }): string {
  return setCookieHeader(TIME_ZONE_COOKIE, zone, {
    maxAge: TIME_ZONE_COOKIE_MAX_AGE_S,
    httpOnly: false,
    secure,
  });
}

/**
 * After a login, or on a page that read the account: the profile's zone wins and goes to the cookie;
 * a patient's profile without one is given the browser's (`save`, best effort: a failure leaves it
 * for the next login). Answers the cookies to set.
 */
export async function reconcileTimeZone(
  request: Request,
  account: Pick<User, "role" | "time_zone">,
  save: (zone: string) => Promise<unknown>,
  options: { secure: boolean },
): Promise<string[]> {
  const browserZone = readTimeZone(request);
  if (isTimeZone(account.time_zone)) {
    return account.time_zone === browserZone ? [] : [timeZoneCookie(account.time_zone, options)];
  }
  if (browserZone && account.role === "patient") {
    // The login goes on whatever happens here: the zone is a convenience, the session is not.
    await save(browserZone).catch(() => undefined);
  }
  return [];
}

// The zone list is built where the page renders, on the server and in the browser alike.
export { type TimeZoneOption, timeZoneOptions } from "#app/lib/time-zone-options.ts";

/**
 * The zone whose day begins first (UTC+14): its date is the latest that is "today" anywhere.
 */
const FIRST_DAY_ZONE = "Pacific/Kiritimati";

/**
 * Today as YYYY-MM-DD in `timeZone` (the patient's), the latest date a form may take as "not after
 * today". With no zone known, the date it is in the zone where the day begins first: the web never
 * refuses a date that is already today for the patient; the API, which knows their zone, decides
 * (a date past their today comes back as the field's error). UTC's date refused today's date to a
 * patient in Sofia for the first two or three hours of every day.
 */
export function todayIn(timeZone: string | null | undefined, now: Date = new Date()): string {
  return calendarDayIn(now, isTimeZone(timeZone) ? timeZone : FIRST_DAY_ZONE);
}
