import type { Consultation } from "@ambercare/contracts/consultation";
import { CONSULTATION_STATUSES, type ConsultationStatus } from "@ambercare/contracts/consultation-limits";
import { describe, expect, it } from "vitest";
import { currentVisits, pastVisits } from "#app/features/consultations/visit-history.ts";

function visit(status: ConsultationStatus, index: number): Consultation {
  return {
    id: `00000000-0000-4000-8000-00000000000${index}`,
    type: "chat",
    status,
    provider: null,
    state: "CA",
    patient: "self",
    patient_name: null,
    paid_with: "membership",
    visit_summary: null,
    rated: false,
    created_at: "2026-11-20T10:00:00.000Z",
    updated_at: "2026-11-20T10:00:00.000Z",
    started_at: null,
    completed_at: null,
    canceled_at: status === "canceled" ? "2026-11-20T10:05:00.000Z" : null,
  };
}

describe("the patient's visit history", () => {
  const all = CONSULTATION_STATUSES.map(visit);

  it("lists what may still happen under Consultations and everything that is over under Past appointments", () => {
    expect(currentVisits(all).map((v) => v.status)).toEqual([
      "requested",
      "accepted",
      "in_progress",
      "scheduled",
    ]);
    expect(pastVisits(all).map((v) => v.status)).toEqual(["completed", "canceled", "expired", "missed"]);
  });

  it("never loses a visit: every status is in exactly one of the two lists, in the API's order", () => {
    const listed = [...currentVisits(all), ...pastVisits(all)].map((v) => v.id).sort();
    expect(listed).toEqual(all.map((v) => v.id).sort());
    const canceledTwice = [visit("canceled", 8), visit("completed", 9), visit("canceled", 7)];
    expect(pastVisits(canceledTwice).map((v) => v.id)).toEqual(canceledTwice.map((v) => v.id));
  });
});
