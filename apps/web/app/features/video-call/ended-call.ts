import type { Consultation } from "@ambercare/contracts/consultation";
import { visitTypeRow } from "@ambercare/contracts/visit-types";

/** A visit held on a video call whose call took place: the clinician started it (under way or completed). */
const hadCall = (visit: Consultation) =>
  visitTypeRow(visit.type).videoCall &&
  visit.started_at !== null &&
  (visit.status === "in_progress" || visit.status === "completed");

const VISIT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The visit /call-ended speaks of, among the patient's own visits: the one `?visit=` names when it
 * is theirs and had a call (any other id is ignored, never looked up), else the video visit whose
 * call started last. Null when they have no video visit behind them.
 */
export function endedCallVisit(
  visits: readonly Consultation[],
  requested: string | null,
): Consultation | null {
  const called = visits.filter(hadCall);
  if (requested && VISIT_ID.test(requested)) {
    const named = called.find((visit) => visit.id === requested.toLowerCase());
    if (named) return named;
  }
  let latest: Consultation | null = null;
  for (const visit of called) {
    if (!latest || (visit.started_at ?? "") > (latest.started_at ?? "")) latest = visit;
  }
  return latest;
}
