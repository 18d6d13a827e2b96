import type { Consultation } from "@ambercare/contracts/consultation";
import { describe, expect, it } from "vitest";
import { endedCallVisit } from "./ended-call.ts";

let next = 0;
function visit(change: Partial<Consultation>): Consultation {
  next += 1;
  return {
    id: `00000000-0000-4000-8000-${String(next).padStart(12, "0")}`,
    type: "video",
    status: "completed",
    provider: null,
    state: "CA",
    patient: "self",
    patient_name: null,
    paid_with: "membership",
    visit_summary: null,
    rated: false,
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:00:00.000Z",
    started_at: "2026-11-01T10:05:00.000Z",
    completed_at: null,
    canceled_at: null,
    ...change,
  };
}

describe("endedCallVisit", () => {
  const older = visit({ started_at: "2026-11-01T10:05:00.000Z" });
  const latest = visit({ status: "in_progress", started_at: "2026-11-20T09:00:00.000Z" });
  const chat = visit({ type: "chat", started_at: "2026-11-23T09:00:00.000Z" });
  const waiting = visit({ status: "accepted", started_at: null, created_at: "2026-11-24T09:00:00.000Z" });
  const canceled = visit({ status: "canceled", started_at: null });
  // Newest first, as the API lists them.
  const visits = [waiting, canceled, chat, latest, older];

  it("picks the video visit whose call started last, not chats nor visits without a call", () => {
    expect(endedCallVisit(visits, null)?.id).toBe(latest.id);
    expect(endedCallVisit([older, latest], null)?.id).toBe(latest.id);
  });

  it("takes ?visit= when it names one of the patient's video visits that had a call", () => {
    expect(endedCallVisit(visits, older.id)?.id).toBe(older.id);
    expect(endedCallVisit(visits, older.id.toUpperCase())?.id).toBe(older.id);
  });

  it("ignores ?visit= naming someone else's visit, a chat, a visit without a call, or garbage", () => {
    for (const requested of ["00000000-0000-4000-8000-999999999999", chat.id, waiting.id, "../../etc", ""]) {
      expect(endedCallVisit(visits, requested)?.id).toBe(latest.id);
    }
  });

  it("is null without any video visit that had a call", () => {
    expect(endedCallVisit([], null)).toBeNull();
    expect(endedCallVisit([chat, waiting, canceled], waiting.id)).toBeNull();
  });
});
