import type { Schedule } from "@ambercare/contracts/scheduling";
import { putScheduleRequest } from "@ambercare/contracts/scheduling";
import { perVisitType } from "@ambercare/contracts/visit-types";
import { describe, expect, it } from "vitest";
import {
  parseExceptionForm,
  parseHoursForm,
  RANGE_ROWS,
  rangeField,
  rowsOfDay,
  scheduleValues,
} from "./hours-form.ts";

function form(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return body;
}

/** A whole submitted form: every day's rows present, blank unless given. */
function hoursForm(fields: Record<string, string>): FormData {
  const all: Record<string, string> = { time_zone: "Europe/Sofia", min_notice_minutes: "", horizon_days: "" };
  for (let weekday = 1; weekday <= 7; weekday++) {
    for (let row = 0; row < RANGE_ROWS; row++) {
      all[rangeField(weekday, row, "start")] = "";
      all[rangeField(weekday, row, "end")] = "";
    }
  }
  return form({ ...all, ...fields });
}

describe("parseHoursForm", () => {
  it("reads several ranges a day with their visit types, ignores blank rows, and builds a valid PUT body", () => {
    const parsed = parseHoursForm(
      hoursForm({
        min_notice_minutes: "120",
        horizon_days: "30",
        slot_video: "20",
        "d1-0-start": "09:00",
        "d1-0-end": "12:00",
        "d1-0-chat": "on",
        "d1-0-video": "on",
        "d1-2-start": "14:00",
        "d1-2-end": "18:00",
        "d1-2-video": "on",
        "d5-0-start": "20:00",
        "d5-0-end": "24:00",
        "d5-0-chat": "on",
      }),
      new Set(["Europe/Sofia"]),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.body).toEqual({
      time_zone: "Europe/Sofia",
      min_notice_minutes: 120,
      horizon_days: 30,
      slot_minutes: { video: 20 },
      weekly_hours: [
        { weekday: 1, start: "09:00", end: "12:00", visit_types: ["chat", "video"] },
        { weekday: 1, start: "14:00", end: "18:00", visit_types: ["video"] },
        { weekday: 5, start: "20:00", end: "24:00", visit_types: ["chat"] },
      ],
    });
    expect(putScheduleRequest.safeParse(parsed.body).success).toBe(true);
  });

  it("leaves blank settings out, so the API keeps its own", () => {
    const parsed = parseHoursForm(hoursForm({}));
    expect(parsed).toMatchObject({
      ok: true,
      body: { time_zone: "Europe/Sofia", slot_minutes: {}, weekly_hours: [] },
    });
    if (parsed.ok) expect(parsed.body).not.toHaveProperty("min_notice_minutes");
  });

  it("names each wrong field and keeps everything typed", () => {
    const parsed = parseHoursForm(
      hoursForm({
        time_zone: "Mars/Olympus",
        min_notice_minutes: "-5",
        horizon_days: "365",
        slot_chat: "abc",
        "d2-0-start": "12:00",
        "d2-0-end": "09:00",
        "d2-0-chat": "on",
        "d3-1-start": "9am",
        "d3-1-end": "10:00",
        "d4-0-start": "08:00",
        "d4-0-end": "10:00",
        "d6-0-start": "08:00",
        "d6-0-end": "",
      }),
      new Set(["Europe/Sofia"]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(
      Object.fromEntries(
        Object.entries(parsed.errors).map(([field, error]) => [field, "key" in error ? error.key : ""]),
      ),
    ).toEqual({
      time_zone: "console.hours.errors.timeZone",
      min_notice_minutes: "console.hours.errors.number",
      horizon_days: "console.hours.errors.number",
      slot_chat: "console.hours.errors.number",
      "d2-0-end": "console.hours.errors.endBeforeStart",
      "d3-1-start": "console.hours.errors.time",
      "d4-0-chat": "console.hours.errors.visitTypes",
      "d6-0-end": "console.hours.errors.time",
    });
    expect(parsed.values).toMatchObject({
      time_zone: "Mars/Olympus",
      min_notice_minutes: "-5",
      "d2-0-start": "12:00",
      "d2-0-end": "09:00",
      "d2-0-chat": "on",
      "d3-1-start": "9am",
    });
  });
});

describe("scheduleValues", () => {
  const schedule: Schedule = {
    time_zone: "America/New_York",
    min_notice_minutes: 60,
    horizon_days: 14,
    slot_minutes: { ...perVisitType(() => 30), chat: 15 },
    own_slot_minutes: { chat: 15 },
    weekly_hours: [
      { weekday: 2, start: "13:00", end: "17:00", visit_types: ["video"] },
      { weekday: 2, start: "08:00", end: "12:00", visit_types: ["chat", "video"] },
    ],
    exceptions: [],
    saved: true,
  };

  it("fills the form from the saved schedule, ranges of a day in time order, and reads back the same week", () => {
    const values = scheduleValues(schedule);
    expect(values).toMatchObject({
      time_zone: "America/New_York",
      slot_chat: "15",
      slot_video: "",
      "d2-0-start": "08:00",
      "d2-1-start": "13:00",
      "d2-1-video": "on",
    });
    expect(values["d2-1-chat"]).toBeUndefined();
    const parsed = parseHoursForm(hoursForm(values));
    expect(parsed.ok && parsed.body.weekly_hours).toEqual([...schedule.weekly_hours].reverse());
  });

  it("shows a spare blank row after a day's last used one", () => {
    const values = scheduleValues(schedule);
    expect(rowsOfDay(values, 2)).toBe(RANGE_ROWS);
    values["d2-2-start"] = "18:00";
    expect(rowsOfDay(values, 2)).toBe(RANGE_ROWS + 1);
  });
});

describe("parseExceptionForm", () => {
  it("takes a whole day off without times", () => {
    expect(parseExceptionForm(form({ date: "2026-12-24", kind: "off", start: "", end: "" }))).toMatchObject({
      ok: true,
      body: { date: "2026-12-24", kind: "off" },
    });
  });

  it("needs a range for extra hours and a real date", () => {
    const parsed = parseExceptionForm(form({ date: "24.12.2026", kind: "extra", start: "", end: "" }));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(Object.keys(parsed.errors).sort()).toEqual(["date", "start"]);
  });

  it("takes extra hours with a range", () => {
    expect(
      parseExceptionForm(form({ date: "2026-12-27", kind: "extra", start: "10:00", end: "12:00" })),
    ).toMatchObject({
      ok: true,
      body: { date: "2026-12-27", kind: "extra", start: "10:00", end: "12:00" },
    });
  });
});
