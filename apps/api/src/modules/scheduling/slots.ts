import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { Temporal } from "temporal-polyfill";

/**
 * Free slots, computed and never stored (ADR 059): for each of the clinician's local dates from
 * today to the horizon, the weekly ranges of that weekday plus the date's 'extra' ranges minus its
 * 'off' ones; slots start at each range's start and step by the type's length; a slot fits its range,
 * starts after the minimum notice and overlaps no held (unexpired) or booked time. Wall times become
 * instants with Temporal: a wall time that does not exist (spring forward) is skipped, a repeated one
 * (fall back) is its earlier instant only, so a daylight-saving change never moves or duplicates one.
 */

export type WeeklyHours = {
  /** ISO weekday, 1 = Monday … 7 = Sunday. */
  weekday: number;
  startMinute: number;
  endMinute: number;
  visitTypes: readonly ConsultationType[];
};

export type HoursException = {
  /** The clinician's local date, YYYY-MM-DD. */
  onDate: string;
  kind: "off" | "extra";
  /** Null (both) for a whole day off. */
  startMinute: number | null;
  endMinute: number | null;
  visitTypes: readonly ConsultationType[];
};

export type ScheduleRules = {
  timeZone: string;
  minNoticeMinutes: number;
  horizonDays: number;
  /** The slot length of each type in force (the clinician's, else the clinic's). */
  slotMinutes: Record<ConsultationType, number>;
  weekly: readonly WeeklyHours[];
  exceptions: readonly HoursException[];
};

/** Time already taken: booked, or held and not expired. */
export type BusyRange = { startsAt: Date; endsAt: Date };

export type ComputedSlot = { start: Date; end: Date; type: ConsultationType };

/** The clinician's local date of an instant, YYYY-MM-DD. */
export function localDateOf(instant: Date, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instant.getTime())
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .toString();
}

/** The instant a local date's day starts (its first existing wall time, midnight in most zones). */
export function startOfLocalDate(date: string, timeZone: string): Date {
  const zoned = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone });
  return new Date(zoned.epochMilliseconds);
}

/** A local date plus `days`. */
export function addDays(date: string, days: number): string {
  return Temporal.PlainDate.from(date).add({ days }).toString();
}

/** The instant of a wall time of a local date; undefined when that wall time does not exist there. */
export function instantOf(date: string, minute: number, timeZone: string): Date | undefined {
  const wall = Temporal.PlainDate.from(date).toPlainDateTime({
    hour: Math.floor(minute / 60),
    minute: minute % 60,
  });
  const zoned = wall.toZonedDateTime(timeZone, { disambiguation: "earlier" });
  // In a gap, "earlier" moves the wall time (02:30 → 01:30): such a time is skipped, not moved.
  if (!zoned.toPlainDateTime().equals(wall)) return undefined;
  return new Date(zoned.epochMilliseconds);
}

type Range = [start: number, end: number];

/** `ranges` minus `cut`, each a half-open range of minutes. */
function subtract(ranges: Range[], cut: Range): Range[] {
  const out: Range[] = [];
  for (const [start, end] of ranges) {
    if (cut[1] <= start || cut[0] >= end) {
      out.push([start, end]);
      continue;
    }
    if (cut[0] > start) out.push([start, cut[0]]);
    if (cut[1] < end) out.push([cut[1], end]);
  }
  return out;
}

/** The ranges of minutes of one local date in which `type` is taken, before bookings. */
export function rangesOn(rules: ScheduleRules, date: string, type: ConsultationType): Range[] {
  const weekday = Temporal.PlainDate.from(date).dayOfWeek;
  let ranges: Range[] = rules.weekly
    .filter((hours) => hours.weekday === weekday && hours.visitTypes.includes(type))
    .map((hours) => [hours.startMinute, hours.endMinute]);
  const exceptions = rules.exceptions.filter((exception) => exception.onDate === date);
  for (const extra of exceptions) {
    if (extra.kind === "extra" && extra.visitTypes.includes(type) && extra.startMinute !== null) {
      ranges.push([extra.startMinute, extra.endMinute ?? 1440]);
    }
  }
  for (const off of exceptions) {
    if (off.kind !== "off") continue;
    ranges = off.startMinute === null ? [] : subtract(ranges, [off.startMinute, off.endMinute ?? 1440]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** Whether [start, end) meets any busy range. */
function overlapsAny(start: number, end: number, busy: readonly { s: number; e: number }[]): boolean {
  for (const range of busy) if (range.s < end && start < range.e) return true;
  return false;
}

/**
 * The free slots of one type from `from` (at least now + notice) to `until` (at most the horizon's
 * end), in time order; `limit` stops early (the first free slot is `limit: 1`).
 */
export function freeSlots(
  rules: ScheduleRules,
  options: {
    type: ConsultationType;
    now: Date;
    busy: readonly BusyRange[];
    from?: Date;
    until?: Date;
    limit?: number;
  },
): ComputedSlot[] {
  const { type, now } = options;
  const length = rules.slotMinutes[type];
  const earliest = Math.max(now.getTime() + rules.minNoticeMinutes * 60_000, options.from?.getTime() ?? 0);
  const today = localDateOf(now, rules.timeZone);
  const lastDate = addDays(today, rules.horizonDays - 1);
  const until = options.until?.getTime() ?? Number.POSITIVE_INFINITY;
  const busy = options.busy.map((range) => ({ s: range.startsAt.getTime(), e: range.endsAt.getTime() }));
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const slots: ComputedSlot[] = [];
  const seen = new Set<number>();
  // Start at the local date of `earliest` (no earlier than today): the dates before hold no slot.
  let date = localDateOf(new Date(earliest), rules.timeZone);
  if (date < today) date = today;
  for (; date <= lastDate; date = addDays(date, 1)) {
    if (startOfLocalDate(date, rules.timeZone).getTime() >= until) break;
    for (const [rangeStart, rangeEnd] of rangesOn(rules, date, type)) {
      for (let minute = rangeStart; minute + length <= rangeEnd; minute += length) {
        const start = instantOf(date, minute, rules.timeZone);
        if (!start) continue;
        const startMs = start.getTime();
        const endMs = startMs + length * 60_000;
        if (startMs < earliest || startMs >= until) continue;
        if (seen.has(startMs) || overlapsAny(startMs, endMs, busy)) continue;
        seen.add(startMs);
        slots.push({ start, end: new Date(endMs), type });
        if (slots.length >= limit) return slots;
      }
    }
  }
  return slots.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/**
 * Whether `start` begins a slot of the clinician's hours (whatever is booked), inside the notice and
 * the horizon: a hold must be for one. Answers that slot's end.
 */
export function slotAt(
  rules: ScheduleRules,
  type: ConsultationType,
  start: Date,
  now: Date,
): ComputedSlot | undefined {
  const date = localDateOf(start, rules.timeZone);
  const [slot] = freeSlots(rules, {
    type,
    now,
    busy: [],
    from: startOfLocalDate(date, rules.timeZone),
    until: startOfLocalDate(addDays(date, 1), rules.timeZone),
  }).filter((candidate) => candidate.start.getTime() === start.getTime());
  return slot;
}
