import type { Consultation } from "@ambercare/contracts/consultation";
import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";

/**
 * Which of the patient's visits each page of My profile lists. Consultations holds what may still
 * happen (a request waiting, an accepted or running visit); Past appointments holds every visit
 * that is over, however it ended — completed, canceled, or expired with nobody to take it — so a
 * visit never disappears from the patient's history (ADR 046).
 */
const CURRENT: readonly ConsultationStatus[] = ["requested", "accepted", "in_progress"];
const OVER: readonly ConsultationStatus[] = ["completed", "canceled", "expired"];

export function currentVisits(all: readonly Consultation[]): Consultation[] {
  return all.filter((visit) => CURRENT.includes(visit.status));
}

export function pastVisits(all: readonly Consultation[]): Consultation[] {
  return all.filter((visit) => OVER.includes(visit.status));
}
