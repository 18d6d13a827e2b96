import type { User } from "@ambercare/contracts/auth";
import { intlTag, type Locale } from "@ambercare/contracts/locales";
import { FALLBACK_TIME_ZONE, isTimeZone } from "@ambercare/contracts/time-zone";
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

export type TimeZoneOption = { value: string; label: string };

// The list is the same for every patient of a language until an offset changes: built once an hour.
let optionsCache: { key: string; options: TimeZoneOption[] } | undefined;

/**
 * The zones a patient can choose, by IANA name with the offset they have now ("Europe/Sofia
 * (GMT+02:00)", the offset in the page's language), UTC first. Built on the server and sent with the
 * page, so the browser hydrates the same list whatever zones its own engine knows. `current` is
 * kept in the list even when this engine lists it under another name (Asia/Kolkata, Asia/Calcutta).
 */
export function timeZoneOptions(locale: Locale, now: Date, current?: string | null): TimeZoneOption[] {
  const key = `${locale}|${Math.floor(now.getTime() / 3_600_000)}`;
  if (optionsCache?.key !== key) {
    const zones = [FALLBACK_TIME_ZONE, ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
    optionsCache = { key, options: zones.map((zone) => timeZoneOption(zone, locale, now)) };
  }
  const { options } = optionsCache;
  if (!isTimeZone(current) || options.some((option) => option.value === current)) return options;
  return [timeZoneOption(current, locale, now), ...options];
}

function timeZoneOption(zone: string, locale: Locale, now: Date): TimeZoneOption {
  const offset = new Intl.DateTimeFormat(intlTag(locale), { timeZone: zone, timeZoneName: "longOffset" })
    .formatToParts(now)
    .find((part) => part.type === "timeZoneName")?.value;
  return { value: zone, label: offset ? `${zone} (${offset})` : zone };
}
