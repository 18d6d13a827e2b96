import type { Database } from "@ambercare/db/client";
import { notificationDeliveries } from "@ambercare/db/schema";
import { inArray, lt } from "drizzle-orm";
import type { JobRunner } from "#api/platform/jobs.ts";

const SWEEP_INTERVAL_MS = 60 * 60_000;
/** Rows deleted by one statement: a large backlog is deleted in short transactions, not one long one. */
export const DELIVERY_SWEEP_BATCH = 1000;
export const DELIVERY_SWEEP_JOB = "notifications.delivery-sweep";

/**
 * Deletes the records of notification decisions (ADR 064) older than `before`, a batch at a time;
 * answers how many went. Idempotent.
 */
export async function deleteDeliveriesBefore(
  db: Database,
  before: Date,
  batchSize = DELIVERY_SWEEP_BATCH,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = db
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .where(lt(notificationDeliveries.at, before))
      .limit(batchSize);
    const gone = await db
      .delete(notificationDeliveries)
      .where(inArray(notificationDeliveries.id, batch))
      .returning({ id: notificationDeliveries.id });
    deleted += gone.length;
    if (gone.length < batchSize) return deleted;
  }
}

/**
 * Keeps `notification_deliveries` to the last `retentionDays` of decisions: a recurring job
 * (ADR 060) deleting older rows in bounded batches.
 */
export function registerDeliverySweep(jobs: JobRunner, db: Database, retentionDays: number): void {
  jobs.every(DELIVERY_SWEEP_JOB, SWEEP_INTERVAL_MS, async ({ now }) => {
    await deleteDeliveriesBefore(db, new Date(now.getTime() - retentionDays * 24 * 60 * 60_000));
  });
}
