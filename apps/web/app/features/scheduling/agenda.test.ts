import type { AgendaItem } from "@ambercare/contracts/scheduling";
import { describe, expect, it } from "vitest";
import { agendaByDay } from "#app/features/scheduling/agenda.tsx";

const visit = (id: string, start: string, checkedIn = false): AgendaItem => ({
  consultation_id: `00000000-0000-4000-8000-00000000000${id}`,
  status: "scheduled",
  type: "video",
  state: "CA",
  patient_name: `Patient ${id}`,
  start,
  end: new Date(Date.parse(start) + 20 * 60_000).toISOString(),
  checked_in_at: checkedIn ? start : null,
});

describe("the console's week of booked visits", () => {
  it("groups the visits by the clinician's own day, days and times in order", () => {
    // Monday 9 am and 4:40 pm in Los Angeles, then Wednesday 9 am; 5:10 pm Monday there is Tuesday in UTC.
    const wednesday = visit("1", "2027-06-09T16:00:00.000Z");
    const mondayLate = visit("2", "2027-06-07T23:40:00.000Z", true);
    const mondayEarly = visit("3", "2027-06-07T16:00:00.000Z");
    const days = agendaByDay([wednesday, mondayLate, mondayEarly], "America/Los_Angeles");
    expect(days.map((day) => day.day)).toEqual(["2027-06-07", "2027-06-09"]);
    expect(days[0]!.items.map((item) => item.patient_name)).toEqual(["Patient 3", "Patient 2"]);
    expect(agendaByDay([mondayLate], "UTC").map((day) => day.day)).toEqual(["2027-06-07"]);
    expect(agendaByDay([visit("4", "2027-06-08T00:10:00.000Z")], "America/Los_Angeles")[0]!.day).toBe(
      "2027-06-07",
    );
  });

  it("is empty without visits", () => {
    expect(agendaByDay([], "Europe/Sofia")).toEqual([]);
  });
});
