import type { Database, Executor } from "@ambercare/db/client";
import type { NotificationService } from "#api/modules/notifications/notification-service.ts";
import type { BookedVisit, BookingEvents } from "#api/modules/scheduling/booking-events.ts";
import { stillDue } from "#api/modules/scheduling/booking-reminders.ts";
import type { Clock } from "#api/platform/clock.ts";
import { enqueue, type JobRunner } from "#api/platform/jobs.ts";

/**
 * "Your visit starts in 1 hour / in 10 minutes" on the patient's devices (ADR 064): jobs queued with
 * the booking (like the e-mailed reminders, ADR 059) that read the booking again when due and notify
 * only while it is still booked at the same start.
 */

export const VISIT_SOON_JOB = "notify.visit-soon";
export const VISIT_SOON_MINUTES = [60, 10] as const;
const MINUTE = 60_000;

type Payload = { bookingId: string; startsAt: string; minutes: number };

export function visitSoonEvents(deps: { clock: Clock }): BookingEvents {
  async function queue(tx: Executor, visit: BookedVisit): Promise<void> {
    const now = deps.clock.now().getTime();
    for (const minutes of VISIT_SOON_MINUTES) {
      const runAt = new Date(visit.startsAt.getTime() - minutes * MINUTE);
      if (runAt.getTime() <= now) continue;
      const payload: Payload = {
        bookingId: visit.bookingId,
        startsAt: visit.startsAt.toISOString(),
        minutes,
      };
      await enqueue(tx, {
        kind: VISIT_SOON_JOB,
        key: `${VISIT_SOON_JOB}:${visit.bookingId}:${visit.sequence}:${minutes}`,
        runAt,
        payload,
      });
    }
  }
  return { booked: queue, moved: (tx, visit) => queue(tx, visit), async canceled() {} };
}

export function registerVisitSoonNotices(
  jobs: JobRunner,
  deps: { db: Database; notifications: Pick<NotificationService, "deliver"> },
): void {
  jobs.register(VISIT_SOON_JOB, async (job) => {
    const payload = job.payload as Payload;
    const row = await stillDue(deps.db, payload, job.now);
    if (!row) return;
    await deps.notifications.deliver({
      userId: row.patientUserId,
      consultationId: row.consultationId,
      event: "visit_soon",
      minutes: payload.minutes,
    });
  });
}
