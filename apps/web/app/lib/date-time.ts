import { intlTag } from "@ambercare/contracts/locales";
import { FALLBACK_TIME_ZONE, isTimeZone } from "@ambercare/contracts/time-zone";
import { useEffect, useState } from "react";
import { type Locale, useTranslation } from "#app/lib/i18n.tsx";
import { useRootData } from "#app/lib/root-data.ts";

/**
 * Every date and time the site shows a person: in the page's language and in the viewer's time zone
 * (the patient's profile, else their browser's; see time-zone.server.ts), with the zone's short name
 * or offset beside every time ("5:00 AM PDT", "14:00 ч. Гринуич+2") so no time is ambiguous. The
 * server renders with the zone the root loader chose, the browser hydrates with the same one: the
 * text does not change between the two.
 */

const STYLES = {
  /** "Mar 8, 2026, 5:00 AM PDT": consultations, visits, chat, records, the console. */
  dateTime: {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  },
  /** "March 8, 2026 at 5:00 AM PDT": a message's sending time. */
  longDateTime: {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  },
  /** "Tue 3:30 PM PST": a time within the coming days (a provider's next free slot). */
  weekdayTime: { weekday: "short", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  /** "Tuesday, December 1": a day heading of the free times (the day is the zone's). */
  weekdayDate: { weekday: "long", month: "long", day: "numeric" },
  /** "3:30 PM PST": one free time under its day. */
  slotTime: { hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  /** "05:00 PDT": a time of today (the notes' last save). */
  time: { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" },
  /** "March 8, 2026": a day (billing periods, invoices, consents); the day is the zone's. */
  date: { dateStyle: "long" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateTimeStyle = keyof typeof STYLES;

// Building a formatter is the costly part; a page formats many times with the same few.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(locale: Locale, timeZone: string, style: DateTimeStyle): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${style}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intlTag(locale), { ...STYLES[style], timeZone });
    formatters.set(key, format);
  }
  return format;
}

/** A zone to format in: `timeZone` when the engine knows it, else UTC (which the text names). */
export function usableTimeZone(timeZone: string | null | undefined): string {
  return isTimeZone(timeZone) ? timeZone : FALLBACK_TIME_ZONE;
}

/** An instant (ISO text or Date) as text; "" when there is none or it is not a date. */
export function formatDateTime(
  instant: string | Date | null | undefined,
  options: { locale: Locale; timeZone: string | null | undefined; style?: DateTimeStyle },
): string {
  if (instant === null || instant === undefined || instant === "") return "";
  const date = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(date.getTime())) return "";
  return formatterFor(options.locale, usableTimeZone(options.timeZone), options.style ?? "dateTime").format(
    date,
  );
}

/** The viewer's time zone as the root loader chose it (UTC when it is not known). */
export function useTimeZone(): string {
  return usableTimeZone(useRootData()?.timeZone);
}

/** A formatter of instants in the page's language and the viewer's zone: `when(consultation.created_at)`. */
export function useDateTime(style: DateTimeStyle = "dateTime") {
  const { i18n } = useTranslation();
  const timeZone = useTimeZone();
  return (instant: string | Date | null | undefined) =>
    formatDateTime(instant, { locale: i18n.language, timeZone, style });
}

/**
 * The zone for a page anyone may open (the directory): the logged-in viewer's, as the root loader
 * chose it; for a visitor without an account, whose pages are the same for everyone (ADR 044), the
 * browser's once the page is hydrated, UTC (labelled) until then and without JavaScript.
 */
export function useVisitorTimeZone(): string {
  const rootZone = useRootData()?.timeZone;
  const [browserZone, setBrowserZone] = useState<string | null>(null);
  useEffect(() => {
    if (!rootZone) setBrowserZone(Intl.DateTimeFormat().resolvedOptions().timeZone);
  }, [rootZone]);
  return usableTimeZone(rootZone ?? browserZone);
}

/** useDateTime for a page anyone may open: in the visitor's zone (useVisitorTimeZone). */
export function useVisitorDateTime(style: DateTimeStyle = "dateTime") {
  const { i18n } = useTranslation();
  const timeZone = useVisitorTimeZone();
  return (instant: string | Date | null | undefined) =>
    formatDateTime(instant, { locale: i18n.language, timeZone, style });
}
