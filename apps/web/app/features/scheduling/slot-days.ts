import type { Slot } from "@ambercare/contracts/scheduling";
import { calendarDayIn } from "@ambercare/contracts/time-zone";

/** One day of free times, the day being the viewer's (in their zone), in time order. */
export type SlotDay = { day: string; slots: Slot[] };

/** "2026-12-01": the date of an instant in a zone. */
export function localDate(instant: string, timeZone: string): string {
  return calendarDayIn(new Date(instant), timeZone);
}

/**
 * Free times grouped by the viewer's own date (not the clinician's: a slot at 11 pm in Los Angeles
 * is the next morning in Sofia), days and times in order, each time once.
 */
export function slotsByDay(slots: readonly Slot[], timeZone: string): SlotDay[] {
  const seen = new Set<string>();
  const days = new Map<string, Slot[]>();
  for (const slot of [...slots].sort((a, b) => Date.parse(a.start) - Date.parse(b.start))) {
    if (seen.has(slot.start)) continue;
    seen.add(slot.start);
    const day = localDate(slot.start, timeZone);
    const list = days.get(day) ?? [];
    list.push(slot);
    days.set(day, list);
  }
  return [...days].map(([day, list]) => ({ day, slots: list }));
}
