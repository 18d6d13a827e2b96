import { QUEUE_TOPIC } from "@ambercare/contracts/console";
import type { AgendaItem } from "@ambercare/contracts/scheduling";
import { AGENDA_TOPIC } from "@ambercare/contracts/scheduling";
import { describe, expect, it } from "vitest";
import { CONSOLE_TOPICS } from "#app/features/care-console/queue.tsx";
import { agendaByDay, agendaChanges } from "#app/features/scheduling/agenda.tsx";

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

describe("the console's agenda, live", () => {
  it("is re-read on the agenda's live events as well as the queue's", () => {
    expect(CONSOLE_TOPICS).toEqual([QUEUE_TOPIC, AGENDA_TOPIC]);
    expect(AGENDA_TOPIC).toBe("agenda.changed");
  });

  it("tells what changed between two reads: booked, moved, canceled, checked in, in time order", () => {
    const monday = visit("1", "2027-06-07T16:00:00.000Z");
    const tuesday = visit("2", "2027-06-08T16:00:00.000Z");
    const wednesday = visit("3", "2027-06-09T16:00:00.000Z");
    expect(agendaChanges(null, [monday, tuesday])).toEqual([]);
    expect(agendaChanges([monday, tuesday], [monday, tuesday])).toEqual([]);
    const checkedIn = { ...monday, checked_in_at: "2027-06-07T15:50:00.000Z" };
    const movedTuesday = { ...tuesday, start: "2027-06-08T18:00:00.000Z" };
    const changes = agendaChanges(
      [monday, tuesday, wednesday],
      [movedTuesday, checkedIn, visit("4", "2027-06-10T16:00:00.000Z")],
    );
    expect(changes.map((change) => [change.kind, change.item.patient_name])).toEqual([
      ["checkedIn", "Patient 1"],
      ["moved", "Patient 2"],
      ["canceled", "Patient 3"],
      ["booked", "Patient 4"],
    ]);
    // A check-in read again is not told twice.
    expect(agendaChanges([checkedIn], [checkedIn])).toEqual([]);
  });
});
