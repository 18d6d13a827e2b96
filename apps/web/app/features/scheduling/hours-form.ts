import { CONSULTATION_TYPES, type ConsultationType } from "@ambercare/contracts/provider-limits";
import {
  minutesOf,
  type PutScheduleRequest,
  SCHEDULE_LIMITS,
  type Schedule,
} from "@ambercare/contracts/scheduling";
import type { FormMessage } from "#app/lib/forms.ts";

/**
 * The "My hours" form of the care console as plain fields, so it works without JavaScript: each
 * weekday has a fixed number of range rows (blank rows are ignored), each row a start, an end and a
 * checkbox per visit type. Field names: `d<weekday>-<row>-start|end|<kind>` (ISO weekday 1 =
 * Monday), `time_zone`, `min_notice_minutes`, `horizon_days`, `slot_<kind>` (`slot_chat`,
 * `slot_video`: one per kind of visit-types.ts).
 * No server code here: the page imports it.
 */

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** Range rows shown per day; a day with more saved ranges shows them all and one blank row. */
export const RANGE_ROWS = 3;
const WALL_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export type HoursValues = Record<string, string>;
export type HoursErrors = Record<string, FormMessage>;

/** The field of a kind's own slot length: `slot_chat`. */
export function slotField(type: ConsultationType): `slot_${ConsultationType}` {
  return `slot_${type}`;
}

/** The settings' fields, in the form's order. */
export const SETTINGS_FIELDS = [
  "time_zone",
  "min_notice_minutes",
  "horizon_days",
  ...CONSULTATION_TYPES.map(slotField),
] as const;

export function rangeField(weekday: number, row: number, part: "start" | "end" | ConsultationType): string {
  return `d${weekday}-${row}-${part}`;
}

/** How many rows a day shows: its saved or typed rows, at least RANGE_ROWS, with a blank one spare. */
export function rowsOfDay(values: HoursValues, weekday: number): number {
  let used = 0;
  for (let row = 0; row < SCHEDULE_LIMITS.weeklyRanges; row++) {
    if (values[rangeField(weekday, row, "start")] || values[rangeField(weekday, row, "end")]) used = row + 1;
  }
  return Math.max(RANGE_ROWS, used + 1);
}

/** The saved schedule as the form's values (its "checked" boxes are "on"). */
export function scheduleValues(schedule: Schedule): HoursValues {
  const values: HoursValues = {
    time_zone: schedule.time_zone,
    min_notice_minutes: String(schedule.min_notice_minutes),
    horizon_days: String(schedule.horizon_days),
  };
  for (const type of CONSULTATION_TYPES) {
    const own = schedule.own_slot_minutes[type];
    values[slotField(type)] = own === undefined ? "" : String(own);
  }
  const rows = new Map<number, number>();
  const sorted = [...schedule.weekly_hours].sort(
    (a, b) => a.weekday - b.weekday || minutesOf(a.start) - minutesOf(b.start),
  );
  for (const range of sorted) {
    const row = rows.get(range.weekday) ?? 0;
    rows.set(range.weekday, row + 1);
    values[rangeField(range.weekday, row, "start")] = range.start;
    values[rangeField(range.weekday, row, "end")] = range.end;
    for (const type of range.visit_types) values[rangeField(range.weekday, row, type)] = "on";
  }
  return values;
}

const text = (formData: FormData, name: string): string => {
  const value = formData.get(name);
  return typeof value === "string" ? value.trim() : "";
};

function wholeNumber(
  raw: string,
  limits: { min: number; max: number },
): { ok: true; value: number | undefined } | { ok: false } {
  if (raw === "") return { ok: true, value: undefined };
  if (!/^\d+$/.test(raw)) return { ok: false };
  const value = Number(raw);
  return value >= limits.min && value <= limits.max ? { ok: true, value } : { ok: false };
}

export type ParsedHours =
  | { ok: true; values: HoursValues; body: PutScheduleRequest }
  | { ok: false; values: HoursValues; errors: HoursErrors };

/**
 * Reads the submitted form: the whole schedule to PUT, or the errors by field name (translation
 * keys) with everything typed kept. Blank rows are ignored; a row with only one time, an end not
 * after its start, or no visit type ticked is an error of that row.
 */
export function parseHoursForm(formData: FormData, knownZones?: ReadonlySet<string>): ParsedHours {
  const values: HoursValues = {};
  const errors: HoursErrors = {};
  for (const name of SETTINGS_FIELDS) values[name] = text(formData, name);
  if (values.time_zone === "" || (knownZones && !knownZones.has(values.time_zone ?? ""))) {
    errors.time_zone = { key: "console.hours.errors.timeZone" };
  }
  const notice = wholeNumber(values.min_notice_minutes ?? "", SCHEDULE_LIMITS.minNoticeMinutes);
  if (!notice.ok) {
    errors.min_notice_minutes = {
      key: "console.hours.errors.number",
      values: { ...SCHEDULE_LIMITS.minNoticeMinutes },
    };
  }
  const horizon = wholeNumber(values.horizon_days ?? "", SCHEDULE_LIMITS.horizonDays);
  if (!horizon.ok) {
    errors.horizon_days = { key: "console.hours.errors.number", values: { ...SCHEDULE_LIMITS.horizonDays } };
  }
  const slots: PutScheduleRequest["slot_minutes"] = {};
  for (const type of CONSULTATION_TYPES) {
    const slot = wholeNumber(values[slotField(type)] ?? "", SCHEDULE_LIMITS.slotMinutes);
    if (!slot.ok) {
      errors[slotField(type)] = {
        key: "console.hours.errors.number",
        values: { ...SCHEDULE_LIMITS.slotMinutes },
      };
    } else if (slot.value !== undefined) slots[type] = slot.value;
  }

  const weekly: PutScheduleRequest["weekly_hours"] = [];
  for (const weekday of WEEKDAYS) {
    for (let row = 0; row < SCHEDULE_LIMITS.weeklyRanges; row++) {
      const startName = rangeField(weekday, row, "start");
      if (!formData.has(startName)) break;
      const start = text(formData, startName);
      const end = text(formData, rangeField(weekday, row, "end"));
      const types = CONSULTATION_TYPES.filter(
        (type) => formData.get(rangeField(weekday, row, type)) === "on",
      );
      values[startName] = start;
      values[rangeField(weekday, row, "end")] = end;
      for (const type of types) values[rangeField(weekday, row, type)] = "on";
      if (start === "" && end === "") continue;
      if (!WALL_TIME.test(start) || start === "24:00") {
        errors[startName] = { key: "console.hours.errors.time" };
      } else if (!WALL_TIME.test(end)) {
        errors[rangeField(weekday, row, "end")] = { key: "console.hours.errors.time" };
      } else if (minutesOf(end) <= minutesOf(start)) {
        errors[rangeField(weekday, row, "end")] = { key: "console.hours.errors.endBeforeStart" };
      } else if (types.length === 0) {
        errors[rangeField(weekday, row, CONSULTATION_TYPES[0])] = { key: "console.hours.errors.visitTypes" };
      } else {
        weekly.push({ weekday, start, end, visit_types: types });
      }
    }
  }
  if (weekly.length > SCHEDULE_LIMITS.weeklyRanges) {
    errors.form = { key: "console.hours.errors.tooMany", values: { max: SCHEDULE_LIMITS.weeklyRanges } };
  }
  if (Object.keys(errors).length > 0 || !notice.ok || !horizon.ok) return { ok: false, values, errors };
  return {
    ok: true,
    values,
    body: {
      time_zone: values.time_zone ?? "",
      ...(notice.value === undefined ? {} : { min_notice_minutes: notice.value }),
      ...(horizon.value === undefined ? {} : { horizon_days: horizon.value }),
      slot_minutes: slots,
      weekly_hours: weekly,
    },
  };
}

export type ExceptionFields = { date: string; kind: string; start: string; end: string };

/** The "add an exception" form: a date, a day off or extra hours, and a range (both times or none). */
export function parseExceptionForm(formData: FormData):
  | {
      ok: true;
      values: ExceptionFields;
      body: { date: string; kind: "off" | "extra"; start?: string; end?: string };
    }
  | { ok: false; values: ExceptionFields; errors: HoursErrors } {
  const values = {
    date: text(formData, "date"),
    kind: text(formData, "kind"),
    start: text(formData, "start"),
    end: text(formData, "end"),
  };
  const errors: HoursErrors = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date) || Number.isNaN(Date.parse(`${values.date}T00:00:00Z`))) {
    errors.date = { key: "console.hours.errors.date" };
  }
  if (values.kind !== "off" && values.kind !== "extra") errors.kind = { key: "console.hours.errors.kind" };
  const hasRange = values.start !== "" || values.end !== "";
  if (values.kind === "extra" && !hasRange) errors.start = { key: "console.hours.errors.extraNeedsRange" };
  else if (hasRange) {
    if (!WALL_TIME.test(values.start) || values.start === "24:00")
      errors.start = { key: "console.hours.errors.time" };
    else if (!WALL_TIME.test(values.end)) errors.end = { key: "console.hours.errors.time" };
    else if (minutesOf(values.end) <= minutesOf(values.start)) {
      errors.end = { key: "console.hours.errors.endBeforeStart" };
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  return {
    ok: true,
    values,
    body: {
      date: values.date,
      kind: values.kind as "off" | "extra",
      ...(hasRange ? { start: values.start, end: values.end } : {}),
    },
  };
}
