import type { Consultation } from "@ambercare/contracts/consultation";
import type { ConsultationStatus } from "@ambercare/contracts/consultation-limits";

/**
 * Which of the patient's visits each page of My profile lists. Consultations holds what may still
 * happen (a request waiting, a booked time, an accepted or running visit); Past appointments holds every visit
 * that is over, however it ended — completed, canceled, expired with nobody to take it, or missed — so a
 * visit never disappears from the patient's history (ADR 046).
 */
const CURRENT: readonly ConsultationStatus[] = ["requested", "scheduled", "accepted", "in_progress"];
const OVER: readonly ConsultationStatus[] = ["completed", "canceled", "expired", "missed"];

export function currentVisits(all: readonly Consultation[]): Consultation[] {
  return all.filter((visit) => CURRENT.includes(visit.status));
}

export function pastVisits(all: readonly Consultation[]): Consultation[] {
  return all.filter((visit) => OVER.includes(visit.status));
}
