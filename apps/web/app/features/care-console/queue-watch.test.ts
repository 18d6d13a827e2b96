import type { QueuedVisit } from "@ambercare/contracts/console";
import { describe, expect, it } from "vitest";
import { arrivals, titleWithCount, waitedMinutes } from "#app/features/care-console/queue-watch.ts";

const visit = (id: string): QueuedVisit => ({
  id,
  type: "chat",
  state: "TX",
  created_at: "2026-11-24T10:00:00.000Z",
  wait_seconds: 0,
  symptoms: [],
  other_symptoms: false,
  patient_age: null,
  chosen: false,
});

describe("the queue's arrivals", () => {
  it("are none on the first read, whatever waits", () => {
    expect(arrivals(null, [visit("a"), visit("b")])).toEqual([]);
  });

  it("are the requests that were not there before; one that left or stayed is not", () => {
    const found = arrivals(new Set(["a", "b"]), [visit("b"), visit("c"), visit("d")]);
    expect(found.map((v) => v.id)).toEqual(["c", "d"]);
    expect(arrivals(new Set(["a", "b"]), [visit("a")])).toEqual([]);
  });
});

describe("the wait of a request", () => {
  it("counts whole minutes from the API's figure plus the time since the read", () => {
    expect(waitedMinutes(59, 0)).toBe(0);
    expect(waitedMinutes(59, 1000)).toBe(1);
    expect(waitedMinutes(125, 60_000)).toBe(3);
    // A clock that went back does not make the wait shorter than the API said.
    expect(waitedMinutes(120, -5000)).toBe(2);
  });
});

describe("the tab's title", () => {
  it("leads with the number of waiting requests, and is plain when none wait", () => {
    expect(titleWithCount("Care console | Ambercare", 2)).toBe("(2) Care console | Ambercare");
    expect(titleWithCount("Care console | Ambercare", 0)).toBe("Care console | Ambercare");
  });
});
