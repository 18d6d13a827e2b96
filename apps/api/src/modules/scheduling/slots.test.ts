import { perVisitType } from "@ambercare/contracts/visit-types";
import { describe, expect, it } from "vitest";
import {
  freeSlots,
  instantOf,
  localDateOf,
  rangesOn,
  type ScheduleRules,
  slotAt,
} from "#api/modules/scheduling/slots.ts";

const LA = "America/Los_Angeles";
const iso = (slots: { start: Date }[]) => slots.map((slot) => slot.start.toISOString());

function rules(overrides: Partial<ScheduleRules>): ScheduleRules {
  return {
    timeZone: LA,
    minNoticeMinutes: 0,
    horizonDays: 14,
    // Chat 15 minutes, every other kind 20.
    slotMinutes: { ...perVisitType(() => 20), chat: 15 },
    weekly: [],
    exceptions: [],
    ...overrides,
  };
}

/** Wall times of instants in a zone, "YYYY-MM-DD HH:MM". */
const wall = (dates: Date[], timeZone: string) =>
  dates.map((date) =>
    new Intl.DateTimeFormat("sv-SE", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(date),
  );

describe("slots across the 2027 US daylight-saving changes (America/Los_Angeles)", () => {
  it("skips the wall times that do not exist on 2027-03-14 and moves no other slot", () => {
    // Sunday 01:00–04:00 and every day 09:00–10:00, video (20 minutes).
    const week = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      weekday,
      startMinute: 9 * 60,
      endMinute: 10 * 60,
      visitTypes: ["video" as const],
    }));
    const schedule = rules({
      weekly: [...week, { weekday: 7, startMinute: 60, endMinute: 4 * 60, visitTypes: ["video"] }],
    });
    const slots = freeSlots(schedule, {
      type: "video",
      now: new Date("2027-03-13T08:00:00Z"),
      busy: [],
      until: new Date("2027-03-16T08:00:00Z"),
    });
    expect(iso(slots)).toEqual([
      // Saturday 13th, PST (UTC−8): 09:00, 09:20, 09:40.
      "2027-03-13T17:00:00.000Z",
      "2027-03-13T17:20:00.000Z",
      "2027-03-13T17:40:00.000Z",
      // Sunday 14th: 01:00–01:40 PST, 02:00–02:59 does not exist, 03:00–03:40 PDT (UTC−7).
      "2027-03-14T09:00:00.000Z",
      "2027-03-14T09:20:00.000Z",
      "2027-03-14T09:40:00.000Z",
      "2027-03-14T10:00:00.000Z",
      "2027-03-14T10:20:00.000Z",
      "2027-03-14T10:40:00.000Z",
      // 09:00 PDT is 16:00Z: the same wall time as the day before, an hour earlier in UTC.
      "2027-03-14T16:00:00.000Z",
      "2027-03-14T16:20:00.000Z",
      "2027-03-14T16:40:00.000Z",
      "2027-03-15T16:00:00.000Z",
      "2027-03-15T16:20:00.000Z",
      "2027-03-15T16:40:00.000Z",
    ]);
    // Every slot keeps its wall time; none overlaps the next.
    expect(
      wall(
        slots.map((slot) => slot.start),
        LA,
      ).map((text) => text.slice(11)),
    ).toEqual([
      "09:00",
      "09:20",
      "09:40",
      "01:00",
      "01:20",
      "01:40",
      "03:00",
      "03:20",
      "03:40",
      "09:00",
      "09:20",
      "09:40",
      "09:00",
      "09:20",
      "09:40",
    ]);
    for (let i = 1; i < slots.length; i++) expect(slots[i]!.start >= slots[i - 1]!.end).toBe(true);
  });

  it("offers a repeated wall time once, at its earlier instant, on 2027-11-07", () => {
    const schedule = rules({
      weekly: [{ weekday: 7, startMinute: 0, endMinute: 3 * 60, visitTypes: ["video"] }],
    });
    const slots = freeSlots(schedule, {
      type: "video",
      now: new Date("2027-11-06T12:00:00Z"),
      busy: [],
      until: new Date("2027-11-08T12:00:00Z"),
    });
    expect(iso(slots)).toEqual([
      // 00:00–00:40 PDT (UTC−7).
      "2027-11-07T07:00:00.000Z",
      "2027-11-07T07:20:00.000Z",
      "2027-11-07T07:40:00.000Z",
      // 01:00–01:40 happen twice: the first time (PDT) only.
      "2027-11-07T08:00:00.000Z",
      "2027-11-07T08:20:00.000Z",
      "2027-11-07T08:40:00.000Z",
      // 02:00–02:40 PST (UTC−8).
      "2027-11-07T10:00:00.000Z",
      "2027-11-07T10:20:00.000Z",
      "2027-11-07T10:40:00.000Z",
    ]);
    const walls = wall(
      slots.map((slot) => slot.start),
      LA,
    );
    expect(new Set(walls).size).toBe(walls.length);
    for (let i = 1; i < slots.length; i++) expect(slots[i]!.start >= slots[i - 1]!.end).toBe(true);
  });

  it("keeps the weekly wall time across the change for a patient in Europe/Sofia", () => {
    // Mondays 09:00–09:20 in Los Angeles: 19:00 in Sofia before 2027-03-14, 18:00 in the two weeks
    // until Europe changes on 2027-03-28, 19:00 again after. (Now is Saturday 2027-03-06 in Los
    // Angeles: the 30 days of the horizon end on 2027-04-04.)
    const schedule = rules({
      horizonDays: 30,
      weekly: [{ weekday: 1, startMinute: 9 * 60, endMinute: 9 * 60 + 20, visitTypes: ["video"] }],
    });
    const slots = freeSlots(schedule, { type: "video", now: new Date("2027-03-07T00:00:00Z"), busy: [] });
    expect(
      wall(
        slots.map((slot) => slot.start),
        "Europe/Sofia",
      ),
    ).toEqual(["2027-03-08 19:00", "2027-03-15 18:00", "2027-03-22 18:00", "2027-03-29 19:00"]);
    expect(
      wall(
        slots.map((slot) => slot.start),
        LA,
      ).every((text) => text.endsWith("09:00")),
    ).toBe(true);
  });
});

describe("slots", () => {
  const monday = {
    weekday: 1,
    startMinute: 9 * 60,
    endMinute: 12 * 60,
    visitTypes: ["chat", "video"] as const,
  };
  const now = new Date("2027-06-07T15:00:00Z"); // Monday 08:00 in Los Angeles

  it("takes exceptions, types, notice, horizon and taken time into account", () => {
    const schedule = rules({
      minNoticeMinutes: 90,
      horizonDays: 8,
      weekly: [monday, { weekday: 2, startMinute: 9 * 60, endMinute: 10 * 60, visitTypes: ["chat"] }],
      exceptions: [
        {
          onDate: "2027-06-07",
          kind: "off",
          startMinute: 10 * 60,
          endMinute: 11 * 60,
          visitTypes: ["chat", "video"],
        },
        {
          onDate: "2027-06-09",
          kind: "extra",
          startMinute: 14 * 60,
          endMinute: 15 * 60,
          visitTypes: ["video"],
        },
        {
          onDate: "2027-06-14",
          kind: "off",
          startMinute: null,
          endMinute: null,
          visitTypes: ["chat", "video"],
        },
      ],
    });
    expect(rangesOn(schedule, "2027-06-07", "video")).toEqual([
      [540, 600],
      [660, 720],
    ]);
    const busy = [{ startsAt: new Date("2027-06-07T18:00:00Z"), endsAt: new Date("2027-06-07T18:20:00Z") }];
    const slots = freeSlots(schedule, { type: "video", now, busy });
    expect(
      wall(
        slots.map((slot) => slot.start),
        LA,
      ),
    ).toEqual([
      // 09:00 is inside the notice (08:00 + 90 min); 10:00–11:00 off; 11:00 taken.
      "2027-06-07 09:40",
      "2027-06-07 11:20",
      "2027-06-07 11:40",
      // Tuesday is chat only; Wednesday's extra range; the next Monday is a day off (and the
      // horizon of 8 days ends on it).
      "2027-06-09 14:00",
      "2027-06-09 14:20",
      "2027-06-09 14:40",
    ]);
    expect(freeSlots(schedule, { type: "chat", now, busy }).length).toBeGreaterThan(slots.length);
    expect(freeSlots(schedule, { type: "video", now, busy, limit: 1 })).toHaveLength(1);
  });

  it("finds the slot a hold asks for, only at a slot's start", () => {
    const schedule = rules({ weekly: [monday] });
    expect(slotAt(schedule, "video", new Date("2027-06-07T16:20:00Z"), now)?.end).toEqual(
      new Date("2027-06-07T16:40:00Z"),
    );
    expect(slotAt(schedule, "video", new Date("2027-06-07T16:10:00Z"), now)).toBeUndefined();
    expect(slotAt(schedule, "video", new Date("2027-06-07T19:00:00Z"), now)).toBeUndefined();
    expect(slotAt(schedule, "video", new Date("2027-06-07T14:00:00Z"), now)).toBeUndefined();
  });

  it("turns wall times into instants, and none for a time that does not exist", () => {
    expect(instantOf("2027-03-14", 150, LA)).toBeUndefined();
    expect(instantOf("2027-11-07", 90, LA)).toEqual(new Date("2027-11-07T08:30:00Z"));
    expect(localDateOf(new Date("2027-03-14T07:59:00Z"), LA)).toBe("2027-03-13");
  });
});
