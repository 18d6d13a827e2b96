import type { Executor } from "@ambercare/db/client";
import { clinicians, providers } from "@ambercare/db/schema";
import { eq, isNull } from "drizzle-orm";
import {
  createScheduleRepository,
  rulesOf,
  type ScheduleDefaults,
} from "#api/modules/scheduling/schedule-repository.ts";
import { addDays, freeSlots, localDateOf } from "#api/modules/scheduling/slots.ts";
import type { Clock } from "#api/platform/clock.ts";

/** What the directory says of a provider's time (ADR 059). */
export type ProviderAvailability = {
  /** An enabled clinician account works as the provider, with hours or on duty. */
  takingVisits: boolean;
  /** The first free slot of any type the provider offers; null without one in the horizon. */
  nextAvailable: Date | null;
  /** A free slot is left on the clinician's local today. */
  freeToday: boolean;
};

export type Availability = {
  byProvider: ReadonlyMap<string, ProviderAvailability>;
  /** The providers with a free slot today: with those on duty, the directory's "available today". */
  freeToday: ReadonlySet<string>;
};

/** How long one process reuses its answer: slots move with every booking, but a few seconds is fine. */
export const AVAILABILITY_TTL_MS = 15_000;

const EMPTY: Availability = { byProvider: new Map(), freeToday: new Set() };

/**
 * Each provider's next free slot and whether they take visits, for every directory answer. Only
 * providers with an enabled clinician account can have slots (a handful among hundreds), so one
 * compact read of their schedules, hours, exceptions and taken time answers for the whole directory;
 * it is kept AVAILABILITY_TTL_MS per process, and dropped at once when this process changes hours or
 * bookings (other processes catch up within the TTL).
 */
export async function computeAvailability(
  db: Executor,
  now: Date,
  defaults: ScheduleDefaults,
): Promise<Availability> {
  const repository = createScheduleRepository(db);
  const [schedules, accounts] = await Promise.all([
    repository.activeSchedules(),
    db
      .select({
        providerId: clinicians.providerId,
        onDutySince: clinicians.onDutySince,
        visitTypes: providers.visitTypes,
      })
      .from(clinicians)
      .innerJoin(providers, eq(providers.id, clinicians.providerId))
      .where(isNull(clinicians.disabledAt)),
  ]);
  if (accounts.length === 0) return EMPTY;
  const ids = schedules.map((schedule) => schedule.clinicianUserId);
  const longest = Math.max(1, ...schedules.map((schedule) => schedule.horizonDays)) + 1;
  const [weekly, exceptions, busy] = await Promise.all([
    repository.weekly(ids),
    repository.exceptions(ids, addDays(localDateOf(now, "UTC"), -1)),
    repository.busy(ids, now, new Date(now.getTime() + longest * 86_400_000), now),
  ]);
  const account = new Map(accounts.map((row) => [row.providerId, row]));
  const byProvider = new Map<string, ProviderAvailability>();
  const freeToday = new Set<string>();
  for (const row of accounts) {
    byProvider.set(row.providerId, {
      takingVisits: row.onDutySince !== null,
      nextAvailable: null,
      freeToday: false,
    });
  }
  for (const schedule of schedules) {
    const provider = account.get(schedule.providerId);
    if (!provider) continue;
    const mine = <T extends { clinicianUserId: string }>(rows: T[]) =>
      rows.filter((row) => row.clinicianUserId === schedule.clinicianUserId);
    const rules = rulesOf(schedule, mine(weekly), mine(exceptions), defaults);
    let next: Date | null = null;
    for (const type of provider.visitTypes) {
      const [first] = freeSlots(rules, { type, now, busy: mine(busy), limit: 1 });
      if (first && (next === null || first.start < next)) next = first.start;
    }
    const today = next !== null && localDateOf(next, rules.timeZone) === localDateOf(now, rules.timeZone);
    const hasHours =
      rules.weekly.length > 0 || rules.exceptions.some((exception) => exception.kind === "extra");
    byProvider.set(schedule.providerId, {
      takingVisits: provider.onDutySince !== null || hasHours,
      nextAvailable: next,
      freeToday: today,
    });
    if (today) freeToday.add(schedule.providerId);
  }
  return { byProvider, freeToday };
}

export function createAvailabilityIndex(deps: {
  db: Executor;
  clock: Clock;
  defaults: ScheduleDefaults;
  ttlMs?: number;
  onError?: (error: unknown) => void;
}) {
  const ttl = deps.ttlMs ?? AVAILABILITY_TTL_MS;
  let cached: { at: number; value: Availability } | null = null;
  let loading: Promise<Availability> | null = null;
  let generation = 0;

  function load(): Promise<Availability> {
    if (loading) return loading;
    const started = generation;
    const at = deps.clock.now();
    const promise = computeAvailability(deps.db, at, deps.defaults).then(
      (value) => {
        if (started === generation) cached = { at: at.getTime(), value };
        if (loading === promise) loading = null;
        return value;
      },
      (error: unknown) => {
        if (loading === promise) loading = null;
        throw error;
      },
    );
    loading = promise;
    return promise;
  }

  return {
    /** The answer of the last TTL, or a fresh one. */
    async current(): Promise<Availability> {
      const now = deps.clock.now().getTime();
      if (cached && now - cached.at < ttl && now >= cached.at) return cached.value;
      try {
        return await load();
      } catch (error) {
        deps.onError?.(error);
        return cached?.value ?? EMPTY;
      }
    },

    /** Hours or bookings changed in this process: the next answer is computed afresh. */
    invalidate(): void {
      generation++;
      cached = null;
      // A read under way may predate the change: the next caller starts its own.
      loading = null;
    },
  };
}

export type AvailabilityIndex = ReturnType<typeof createAvailabilityIndex>;
