import { CONSULTATION_ERRORS } from "@ambercare/contracts/consultation";
import type { ConsultationStatus, VisitActorKind } from "@ambercare/contracts/consultation-limits";
import type { ErrorCode } from "@ambercare/contracts/error-codes";
import { VISIT_STATUS_TOPIC, type VisitStatusEvent } from "@ambercare/contracts/waiting-room";
import type { Executor } from "@ambercare/db/client";
import {
  clinicians,
  consultationStatusHistory,
  consultations,
  type VisitStatusCause,
} from "@ambercare/db/schema";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { LiveService } from "#api/modules/live/live-service.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * The only status changes a visit can make, and who may make each (ADR 034). A clinician accepts a
 * request, starts and completes the visit; before it starts the patient or a clinician (with a
 * reason) may cancel it; a request no clinician accepted in time expires (the system). Completed,
 * canceled and expired are final.
 */
export const VISIT_TRANSITIONS: ReadonlyArray<{
  from: ConsultationStatus;
  to: ConsultationStatus;
  by: VisitActorKind;
}> = Object.freeze([
  { from: "requested", to: "accepted", by: "clinician" },
  { from: "accepted", to: "in_progress", by: "clinician" },
  { from: "in_progress", to: "completed", by: "clinician" },
  { from: "requested", to: "canceled", by: "patient" },
  { from: "accepted", to: "canceled", by: "patient" },
  { from: "requested", to: "canceled", by: "clinician" },
  { from: "accepted", to: "canceled", by: "clinician" },
  { from: "requested", to: "expired", by: "system" },
  // Booked visits (ADR 059): started at their time like an accepted visit; canceled before (by the
  // patient until the cut-off, the clinician, or the system when the licence lapsed); missed when the
  // patient never came.
  { from: "scheduled", to: "in_progress", by: "clinician" },
  { from: "scheduled", to: "canceled", by: "patient" },
  { from: "scheduled", to: "canceled", by: "clinician" },
  { from: "scheduled", to: "canceled", by: "system" },
  { from: "scheduled", to: "missed", by: "clinician" },
]);

export function canTransition(from: ConsultationStatus, to: ConsultationStatus, by: VisitActorKind): boolean {
  return VISIT_TRANSITIONS.some((step) => step.from === from && step.to === to && step.by === by);
}

/** Who asks for the change; a clinician acts for the one directory provider their account is. */
export type VisitActor =
  | { kind: "patient"; userId: string }
  | { kind: "clinician"; userId: string; providerId: string }
  | { kind: "system" };

/** The column that records when a visit reached each status (none for the first one). */
const REACHED_AT = {
  accepted: "acceptedAt",
  in_progress: "startedAt",
  completed: "completedAt",
  canceled: "canceledAt",
  expired: "expiredAt",
  missed: "missedAt",
} as const satisfies Partial<Record<ConsultationStatus, keyof typeof consultations.$inferInsert>>;

export type Refusal = { code: ErrorCode; message: string };

const REFUSED: Refusal = {
  code: "CONSULTATION_TRANSITION_REFUSED",
  message: CONSULTATION_ERRORS.transitionRefused,
};

export type StatusChange = {
  consultationId: string;
  /**
   * The status the caller expects the visit to be in: the update is then one conditional UPDATE on
   * it (an atomic claim). Without it, the row is locked and its status read first.
   */
  from?: ConsultationStatus;
  to: Exclude<ConsultationStatus, "requested" | "scheduled">;
  actor: VisitActor;
  reason?: string | null;
  /** Why the system made the change, when code chooses by it (the e-mail of a booked visit). */
  cause?: VisitStatusCause | null;
  at: Date;
  /** Other columns the same update sets (the provider of an accepted visit, the summary…). */
  set?: Partial<typeof consultations.$inferInsert>;
  /** Further conditions of the update (the clinician may take this request, it is theirs…). */
  where?: SQL | undefined;
  /** The answer when the table refuses the change (409). */
  refused?: Refusal;
  /** The answer when the visit left `from` before this update ran (someone else changed it). */
  lost?: Refusal;
  /** The answer when the visit is in `from` but `where` does not hold. */
  notAllowed?: { status: number; refusal: Refusal };
};

/** Where status changes are announced: the live events (`app.live`). */
export type VisitEvents = Pick<LiveService, "publish">;

/**
 * Every status change of a visit goes through here: it checks the transition table, updates the
 * row only if it is still in the status checked, and writes the history row, all in the caller's
 * transaction (`tx`), and announces the new status (`events`, the live events) in that transaction
 * too: to the patient's open pages and, once a clinician has accepted the visit, to the open pages of
 * that provider's clinician (their workspace must see the patient cancel). Returns the status the
 * visit came from.
 */
export async function changeVisitStatus(
  tx: Executor,
  change: StatusChange,
  events?: VisitEvents,
): Promise<ConsultationStatus> {
  const refused = change.refused ?? REFUSED;
  const refuse = (refusal: Refusal, status = 409) => new AppError(refusal.code, status, refusal.message);
  const current = async () => {
    const [row] = await tx
      .select({ status: consultations.status })
      .from(consultations)
      .where(eq(consultations.id, change.consultationId))
      .for("update");
    if (!row) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    return row.status;
  };

  const from = change.from ?? (await current());
  if (!canTransition(from, change.to, change.actor.kind)) throw refuse(refused);
  const updated = await tx
    .update(consultations)
    .set({ ...change.set, status: change.to, [REACHED_AT[change.to]]: change.at, updatedAt: change.at })
    .where(and(eq(consultations.id, change.consultationId), eq(consultations.status, from), change.where))
    .returning({
      id: consultations.id,
      userId: consultations.userId,
      providerId: consultations.providerId,
      acceptedAt: consultations.acceptedAt,
    });
  const [changed] = updated;
  if (!changed) {
    const now = await current();
    if (now !== from) throw refuse(change.lost ?? refused);
    const notAllowed = change.notAllowed ?? { status: 409, refusal: refused };
    throw refuse(notAllowed.refusal, notAllowed.status);
  }
  await tx.insert(consultationStatusHistory).values({
    consultationId: change.consultationId,
    fromStatus: from,
    toStatus: change.to,
    actorUserId: change.actor.kind === "system" ? null : change.actor.userId,
    actorKind: change.actor.kind,
    reason: change.reason ?? null,
    cause: change.cause ?? null,
    at: change.at,
  });
  // In the same transaction: the open pages hear of the change if, and only if, it commits.
  if (events) {
    const event: VisitStatusEvent = { consultation_id: change.consultationId, status: change.to };
    const clinicianIds =
      changed.acceptedAt !== null && changed.providerId !== null
        ? await acceptingClinicians(tx, changed.providerId)
        : [];
    await events.publish([changed.userId, ...clinicianIds], VISIT_STATUS_TOPIC, event, tx);
  }
  return from;
}

/** The user ids of the active clinician accounts of the provider who accepted a visit. */
async function acceptingClinicians(tx: Executor, providerId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: clinicians.userId })
    .from(clinicians)
    .where(and(eq(clinicians.providerId, providerId), isNull(clinicians.disabledAt)));
  return rows.map((row) => row.userId);
}

/** The first history row of a visit: requested (or booked, "scheduled") by the patient (from none). */
export async function recordRequested(
  tx: Executor,
  consultationId: string,
  userId: string,
  at: Date,
  status: "requested" | "scheduled" = "requested",
) {
  await tx.insert(consultationStatusHistory).values({
    consultationId,
    fromStatus: null,
    toStatus: status,
    actorUserId: userId,
    actorKind: "patient",
    at,
  });
}
