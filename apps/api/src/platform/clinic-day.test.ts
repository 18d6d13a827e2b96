import { licenceDay } from "@ambercare/db/schema";
import { describe, expect, it } from "vitest";
import { clinicDayOf, dayIn } from "#api/platform/clinic-day.ts";

describe("the clinic's day", () => {
  it("runs from midnight to midnight in the zone, 23 hours on the day the clocks go forward", () => {
    expect(clinicDayOf(new Date("2031-06-11T03:59:59Z"), "America/New_York")).toEqual({
      day: "2031-06-10",
      start: new Date("2031-06-10T04:00:00Z"),
      end: new Date("2031-06-11T04:00:00Z"),
    });
    const spring = clinicDayOf(new Date("2031-03-09T12:00:00Z"), "America/New_York");
    expect(spring).toEqual({
      day: "2031-03-09",
      start: new Date("2031-03-09T05:00:00Z"),
      end: new Date("2031-03-10T04:00:00Z"),
    });
    expect(clinicDayOf(new Date("2031-06-11T03:59:59Z"), "UTC").day).toBe("2031-06-11");
  });

  it("gives a licence the same day as the board and the access log", () => {
    for (const instant of ["2031-06-11T03:59:59Z", "2031-06-11T04:00:00Z", "2031-12-31T23:30:00Z"]) {
      for (const zone of ["America/New_York", "Europe/Sofia", "UTC"]) {
        expect(licenceDay(new Date(instant), zone)).toBe(dayIn(new Date(instant), zone));
      }
      expect(licenceDay(new Date(instant), undefined)).toBe(instant.slice(0, 10));
    }
  });
});
