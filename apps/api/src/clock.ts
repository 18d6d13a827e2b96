/** The one source of "now" for services and plugins, so tests can move time instead of waiting. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to (tests). */
export function createManualClock(start: Date = new Date("2025-01-15T09:00:00Z")): Clock & {
  advance(ms: number): void;
  set(date: Date): void;
} {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(date) {
      current = date.getTime();
    },
  };
}
