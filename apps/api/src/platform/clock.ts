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

/** A clock that can be moved forward by hand. */
export type AdvanceableClock = Clock & { advance(ms: number): void };

export function isAdvanceable(clock: Clock): clock is AdvanceableClock {
  return typeof (clock as Partial<AdvanceableClock>).advance === "function";
}

/**
 * Real time plus an offset that only grows: outside production the API runs on this, so a tester can
 * jump past a trial or a billing period (`POST /dev/clock/advance`) without waiting for it.
 */
export function createOffsetClock(base: Clock = systemClock): AdvanceableClock {
  let offset = 0;
  return {
    now: () => new Date(base.now().getTime() + offset),
    advance(ms) {
      if (ms > 0) offset += ms;
    },
  };
}
