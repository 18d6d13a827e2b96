import { describe, expect, it } from "vitest";
import { addInterval } from "#api/platform/billing-calendar.ts";

describe("billing periods", () => {
  it("adds calendar months and years in UTC, keeping to the month's last day", () => {
    expect(addInterval(new Date("2026-01-31T09:00:00Z"), "month").toISOString()).toBe(
      "2026-02-28T09:00:00.000Z",
    );
    expect(addInterval(new Date("2026-12-15T09:00:00Z"), "month").toISOString()).toBe(
      "2027-01-15T09:00:00.000Z",
    );
    expect(addInterval(new Date("2028-02-29T09:00:00Z"), "year").toISOString()).toBe(
      "2029-02-28T09:00:00.000Z",
    );
  });
});
