import { describe, expect, it } from "vitest";
import { localDate, slotsByDay } from "#app/features/scheduling/slot-days.ts";

const slot = (start: string) => ({
  start,
  end: new Date(Date.parse(start) + 20 * 60_000).toISOString(),
  type: "video" as const,
});

describe("free times by day", () => {
  it("groups by the viewer's own date, not the clinician's", () => {
    // 11:00 pm and 11:20 pm on Monday in Los Angeles are Tuesday morning in Sofia.
    const late = [slot("2027-06-08T06:00:00.000Z"), slot("2027-06-08T06:20:00.000Z")];
    const monday = slot("2027-06-07T16:00:00.000Z");
    expect(slotsByDay([...late, monday], "America/Los_Angeles").map((day) => day.day)).toEqual([
      "2027-06-07",
    ]);
    const sofia = slotsByDay([...late, monday], "Europe/Sofia");
    expect(sofia.map((day) => [day.day, day.slots.map((s) => s.start)])).toEqual([
      ["2027-06-07", ["2027-06-07T16:00:00.000Z"]],
      ["2027-06-08", ["2027-06-08T06:00:00.000Z", "2027-06-08T06:20:00.000Z"]],
    ]);
  });

  it("keeps times in order and each once", () => {
    const days = slotsByDay(
      [slot("2027-06-07T17:00:00.000Z"), slot("2027-06-07T16:00:00.000Z"), slot("2027-06-07T16:00:00.000Z")],
      "UTC",
    );
    expect(days).toHaveLength(1);
    expect(days[0]!.slots.map((s) => s.start)).toEqual([
      "2027-06-07T16:00:00.000Z",
      "2027-06-07T17:00:00.000Z",
    ]);
  });

  it("names the local date across a daylight-saving change", () => {
    // 2027-03-14 02:30 does not exist in Los Angeles; 10:00 UTC is 03:00 PDT that day.
    expect(localDate("2027-03-14T10:00:00.000Z", "America/Los_Angeles")).toBe("2027-03-14");
    expect(localDate("2027-03-14T07:59:00.000Z", "America/Los_Angeles")).toBe("2027-03-13");
  });
});
