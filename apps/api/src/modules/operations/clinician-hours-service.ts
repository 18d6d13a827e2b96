import type { OperatorAction } from "@ambercare/contracts/operations";
import type {
  AddExceptionRequest,
  HourException,
  PutScheduleRequest,
  Schedule,
} from "@ambercare/contracts/scheduling";
import type { Database, Executor } from "@ambercare/db/client";
import { createOperationsRepository } from "#api/modules/operations/operations-repository.ts";
import { AppError } from "#api/platform/errors.ts";

/** Who acts, from where: every action of the console is written with it. */
export type OperatorActor = { userId: string; ip: string | null };

/** The team member an operator names is not a clinician (404). */
export function clinicianNotFound(): AppError {
  return new AppError("CLINICIAN_NOT_FOUND", 404, "No clinician has this id");
}

import type { ScheduleChangeHook, ScheduleService } from "#api/modules/scheduling/scheduling-service.ts";
import type { Clock } from "#api/platform/clock.ts";

/** A week's ranges as one line of the operations log ("1 09:00-12:00 chat+video; …"). */
function weekOf(input: PutScheduleRequest): string {
  return input.weekly_hours
    .map(
      (range) => `${range.weekday} ${range.start}-${range.end} ${[...new Set(range.visit_types)].join("+")}`,
    )
    .join("; ");
}

/**
 * A clinician's hours as an operator sets or corrects them (ADR 059, 065): the clinician's own
 * schedule service does the work, in the clinician's time zone, and each change is written to the
 * operations log (who, what, when, from where) in the same transaction as the change.
 */
export function createClinicianHoursService(deps: {
  db: Database;
  clock: Clock;
  schedules: Pick<ScheduleService, "scheduleOf" | "replace" | "addException" | "deleteException">;
}) {
  async function clinicianOf(userId: string) {
    const clinician = await createOperationsRepository(deps.db).clinician(userId);
    if (!clinician) throw clinicianNotFound();
    return clinician;
  }

  /** The hook that writes one change to the operations log, with the zone its times are in. */
  const audit =
    (
      actor: OperatorActor,
      action: OperatorAction,
      clinician: { userId: string; email: string },
      detail: (change: { exception?: HourException }) => Record<string, string | number | null>,
    ): ScheduleChangeHook =>
    (executor: Executor, change) =>
      createOperationsRepository(executor).recordAction({
        actorUserId: actor.userId,
        action,
        targetType: "clinician",
        targetId: clinician.userId,
        detail: { email: clinician.email, time_zone: change.timeZone, ...detail(change) },
        ip: actor.ip,
        at: deps.clock.now(),
      });

  const exceptionDetail = ({ exception }: { exception?: HourException }) => ({
    exception_id: exception?.id ?? null,
    date: exception?.date ?? null,
    kind: exception?.kind ?? null,
    start: exception?.start ?? null,
    end: exception?.end ?? null,
  });

  return {
    async schedule(userId: string): Promise<Schedule> {
      await clinicianOf(userId);
      return deps.schedules.scheduleOf(userId);
    },

    async replace(actor: OperatorActor, userId: string, input: PutScheduleRequest): Promise<Schedule> {
      const clinician = await clinicianOf(userId);
      return deps.schedules.replace(
        userId,
        input,
        audit(actor, "clinician.hours", clinician, () => ({
          min_notice_minutes: input.min_notice_minutes ?? null,
          horizon_days: input.horizon_days ?? null,
          slot_minutes: JSON.stringify(input.slot_minutes ?? {}),
          weekly_hours: weekOf(input),
        })),
      );
    },

    async addException(
      actor: OperatorActor,
      userId: string,
      input: AddExceptionRequest,
    ): Promise<HourException> {
      const clinician = await clinicianOf(userId);
      return deps.schedules.addException(
        userId,
        input,
        audit(actor, "clinician.exception_add", clinician, exceptionDetail),
      );
    },

    async deleteException(actor: OperatorActor, userId: string, id: string): Promise<void> {
      const clinician = await clinicianOf(userId);
      await deps.schedules.deleteException(
        userId,
        id,
        audit(actor, "clinician.exception_remove", clinician, exceptionDetail),
      );
    },
  };
}
