import { describe, expect, it } from "vitest";
import { todayIn } from "#app/lib/time-zone.server.ts";

/** 23:30 UTC on 27 November: already the 28th in Sofia (01:30), still the 27th in New York. */
const LATE_UTC = new Date("2026-11-27T23:30:00Z");

describe("today, for a form's 'not after today'", () => {
  it("is the patient's own date in their zone", () => {
    expect(todayIn("Europe/Sofia", LATE_UTC)).toBe("2026-11-28");
    expect(todayIn("America/New_York", LATE_UTC)).toBe("2026-11-27");
    expect(todayIn("UTC", LATE_UTC)).toBe("2026-11-27");
  });

  it("with no zone known (or one the server does not know), is the latest date that is today anywhere", () => {
    expect(todayIn(null, LATE_UTC)).toBe("2026-11-28");
    expect(todayIn("Mars/Olympus_Mons", LATE_UTC)).toBe("2026-11-28");
    // 09:59 UTC is 23:59 at UTC+14: still the same date as UTC's there.
    expect(todayIn(undefined, new Date("2026-11-27T09:59:00Z"))).toBe("2026-11-27");
  });
});
