import type { QueuedVisit } from "@ambercare/contracts/console";

/**
 * What the queue page works out from two reads of the queue: which requests are new (a sound and
 * an announcement), how long each has waited by now, and the tab's title.
 */

/** The requests of `queue` that were not in the previous read; none on the first read. */
export function arrivals(
  previousIds: ReadonlySet<string> | null,
  queue: readonly QueuedVisit[],
): QueuedVisit[] {
  if (previousIds === null) return [];
  return queue.filter((visit) => !previousIds.has(visit.id));
}

/** Whole minutes a request has waited: the API's count when read, plus the time since. */
export function waitedMinutes(waitSeconds: number, msSinceRead: number): number {
  return Math.floor((waitSeconds + Math.max(0, msSinceRead) / 1000) / 60);
}

/** "(2) Care console | Ambercare" while requests wait; the title alone when none do. */
export function titleWithCount(title: string, count: number): string {
  return count > 0 ? `(${count}) ${title}` : title;
}
