import { QUEUE_TOPIC } from "@ambercare/contracts/console";
import { BOARD_TOPIC, type Board } from "@ambercare/contracts/operations-board";
import { AGENDA_TOPIC } from "@ambercare/contracts/scheduling";
import { VISIT_STATUS_TOPIC } from "@ambercare/contracts/waiting-room";
import type { Database, Executor } from "@ambercare/db/client";
import { users } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { createBoardRepository } from "#api/modules/operations/board-repository.ts";
import { clinicDayOf } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";

/** The live topics after which an open board reads itself again: requests, visits, bookings. */
const BOARD_FOLLOWS: readonly string[] = [QUEUE_TOPIC, VISIT_STATUS_TOPIC, AGENDA_TOPIC];

/** The board event's `after` when a clinician went on or off duty (no live topic of its own). */
export const BOARD_DUTY_CHANGE = "duty";

export type BoardSettings = {
  waitingAlertMinutes: number;
  lateAlertMinutes: number;
  /**
   * A clinician's reads today are unusual above `factor` times the median of their daily reads over
   * the `days` before, and above `floor` (a quiet clinician's busy day is not news):
   * BOARD_READS_FACTOR, BOARD_READS_FLOOR and BOARD_READS_HISTORY_DAYS (3, 20 and 30 by default).
   */
  reads: { factor: number; floor: number; days: number };
};

const iso = (at: Date | null) => at?.toISOString() ?? null;

/**
 * Today's board of the operations console (ADR 067): what waits, what is under way, today's booked
 * visits and who checked in (today: the clinic's day, CLINIC_TIME_ZONE), who is on duty, alerts (a patient waiting too long, a clinician late
 * for a booked visit) and clinicians whose reading of records looks unusual. Read on the API's clock.
 */
export function createBoardService(deps: {
  db: Database;
  clock: Clock;
  settings: BoardSettings;
  /** CLINIC_TIME_ZONE: "today" runs from midnight to midnight there. */
  timeZone: string;
  /** Publishes a live event to accounts (the live service's, without its push notifications). */
  publish: (
    recipients: string[],
    topic: string,
    payload: Record<string, unknown>,
    tx?: Executor,
  ) => Promise<unknown>;
}) {
  const { clock, settings } = deps;
  const repository = createBoardRepository(deps.db);

  /** Publishes the board's event to every operator account, naming what changed. */
  async function tellOperators(after: string, tx?: Executor): Promise<void> {
    const operators = await (tx ?? deps.db)
      .select({ id: users.id })
      .from(users)
      .where(eq(users.role, "operator"));
    if (operators.length === 0) return;
    await deps.publish(
      operators.map((operator) => operator.id),
      BOARD_TOPIC,
      { after },
      tx,
    );
  }

  return {
    async board(): Promise<Board> {
      const now = clock.now();
      const day = { ...clinicDayOf(now, deps.timeZone), timeZone: deps.timeZone };
      const [waiting, inProgress, booked, onDuty, withoutVisit, aboveUsual] = await Promise.all([
        repository.waiting(),
        repository.inProgress(),
        repository.bookedOn(day),
        repository.onDuty(),
        repository.readsWithoutVisit(day),
        repository.readsAboveUsual(day, settings.reads),
      ]);
      const minutesSince = (at: Date) => Math.floor((now.getTime() - at.getTime()) / 60_000);
      const waitingAlerts = waiting
        .filter((visit) => minutesSince(visit.createdAt) >= settings.waitingAlertMinutes)
        .map((visit) => ({
          kind: "patient_waiting" as const,
          consultation_id: visit.id,
          minutes: minutesSince(visit.createdAt),
        }));
      const lateAlerts = booked
        .filter(
          (visit) =>
            visit.status === "scheduled" && minutesSince(visit.scheduledStart) >= settings.lateAlertMinutes,
        )
        .map((visit) => ({
          kind: "clinician_late" as const,
          consultation_id: visit.id,
          provider_name: visit.providerName,
          minutes: minutesSince(visit.scheduledStart),
          checked_in: visit.checkedInAt !== null,
        }));
      return {
        now: now.toISOString(),
        day: day.day,
        settings: {
          waiting_alert_minutes: settings.waitingAlertMinutes,
          late_alert_minutes: settings.lateAlertMinutes,
        },
        waiting: waiting.map((visit) => ({
          id: visit.id,
          type: visit.type,
          state: visit.state,
          status: visit.status,
          provider_name: visit.providerName,
          created_at: visit.createdAt.toISOString(),
          waiting_seconds: Math.floor((now.getTime() - visit.createdAt.getTime()) / 1000),
        })),
        in_progress: inProgress.map((visit) => ({
          id: visit.id,
          type: visit.type,
          state: visit.state,
          status: visit.status,
          provider_name: visit.providerName,
          accepted_at: iso(visit.acceptedAt),
          started_at: iso(visit.startedAt),
          scheduled_start: iso(visit.scheduledStart),
        })),
        booked_today: booked.map((visit) => ({
          id: visit.id,
          type: visit.type,
          state: visit.state,
          status: visit.status,
          provider_name: visit.providerName,
          scheduled_start: visit.scheduledStart.toISOString(),
          checked_in_at: iso(visit.checkedInAt),
        })),
        on_duty: onDuty.map((clinician) => ({
          user_id: clinician.userId,
          email: clinician.email,
          provider_name: clinician.providerName,
          on_duty_since: clinician.onDutySince.toISOString(),
        })),
        alerts: [...waitingAlerts.sort((a, b) => b.minutes - a.minutes), ...lateAlerts],
        flags: [
          ...withoutVisit.map((row) => ({
            kind: "no_visit" as const,
            actor_user_id: row.actor_user_id,
            actor_email: row.email,
            reads_today: row.reads,
            patients: row.patients,
            daily_median: null,
          })),
          ...aboveUsual.map((row) => ({
            kind: "many_reads" as const,
            actor_user_id: row.actor_user_id,
            actor_email: row.email,
            reads_today: row.reads,
            patients: null,
            daily_median: row.median,
          })),
        ],
      };
    },

    /**
     * After a live event about requests, visits or bookings, tells every operator's open board to
     * read itself again (in the same transaction when given one). Other topics change nothing.
     */
    async follow(topic: string, tx?: Executor): Promise<void> {
      if (!BOARD_FOLLOWS.includes(topic)) return;
      await tellOperators(topic, tx);
    },

    /**
     * A clinician went on or off duty (themselves, or disabled by an operator): every operator's
     * open board reads itself again, so its "on duty" list is fresh.
     */
    async dutyChanged(tx?: Executor): Promise<void> {
      await tellOperators(BOARD_DUTY_CHANGE, tx);
    },
  };
}

export type BoardService = ReturnType<typeof createBoardService>;
