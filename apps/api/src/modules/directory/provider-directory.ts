import { licenceDay } from "@ambercare/db/schema";
import type {
  CatalogueRow,
  ProviderFilters,
  ProviderLink,
  ProviderRepository,
  ProviderRow,
} from "#api/modules/directory/provider-repository.ts";
import { dayAfter, midnightIn } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";

/** A specialization or condition as a card names it. */
export type CatalogueItem = Pick<ProviderLink, "slug" | "nameEn" | "translations">;

/** A provider with everything a directory card shows. */
export type DirectoryEntry = {
  row: ProviderRow;
  /** In catalogue order. */
  specializations: CatalogueItem[];
  conditions: CatalogueItem[];
  /** Alphabetical. */
  states: string[];
};

/** How often a search may ask the database whether the directory changed (data goes stale after 5 s). */
export const DIRECTORY_CHECK_INTERVAL_MS = 5_000;
/** A full reload at least this often, for edits that leave the fingerprint alone (a new bio). */
export const DIRECTORY_RELOAD_INTERVAL_MS = 5 * 60_000;

type Bits = Uint32Array;

type Snapshot = {
  fingerprint: string;
  loadedAt: number;
  /**
   * When the first licence in this copy expires (the midnight that ends its expiry date in the
   * clinic's time zone, CLINIC_TIME_ZONE):
   * from then on the copy offers a provider to a state it no longer may, so it is loaded again.
   */
  staleAt: number;
  entries: DirectoryEntry[];
  bySlug: Map<string, DirectoryEntry>;
  /** Entry position by provider id. */
  positionOf: Map<string, number>;
  /** Entry positions in name order (the entries themselves are in the default, rating order). */
  nameOrder: Int32Array;
  words: number;
  specialization: Map<string, Bits>;
  condition: Map<string, Bits>;
  state: Map<string, Bits>;
  /** The providers offering each kind of visit; a kind no provider offers is not in the map. */
  visitType: Map<string, Bits>;
  availableToday: Bits;
  notAvailableToday: Bits;
  empty: Bits;
  /** Lower-cased names with their entry position, sorted by code unit for prefix ranges. */
  firstNames: NameKey[];
  lastNames: NameKey[];
  fullNames: NameKey[];
};
type NameKey = { key: string; at: number };

function newBits(words: number): Bits {
  return new Uint32Array(words);
}
function setBit(bits: Bits, at: number): void {
  bits[at >>> 5] = (bits[at >>> 5] ?? 0) | (1 << (at & 31));
}
function hasBit(bits: Bits, at: number): boolean {
  return ((bits[at >>> 5] ?? 0) & (1 << (at & 31))) !== 0;
}
function popcount32(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
function countBits(bits: Bits): number {
  let total = 0;
  for (const word of bits) total += popcount32(word);
  return total;
}

/** Positions of the keys that start with `prefix` (keys sorted by code unit). */
function markPrefix(keys: NameKey[], prefix: string, into: Bits): void {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((keys[middle]?.key ?? "") < prefix) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < keys.length; i++) {
    const entry = keys[i]!;
    if (!entry.key.startsWith(prefix)) break;
    setBit(into, entry.at);
  }
}

function byCodeUnit(a: NameKey, b: NameKey): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

async function loadSnapshot(
  repository: ProviderRepository,
  now: number,
  timeZone: string | undefined,
): Promise<Snapshot> {
  // The fingerprint first: a change made while loading shows up as a difference at the next check.
  const fingerprint = await repository.fingerprint();
  const [rows, nameIds, links, catalogue] = await Promise.all([
    repository.allInRatingOrder(),
    repository.idsInNameOrder(),
    repository.allLinks(),
    repository.catalogue(),
  ]);
  const words = Math.ceil(rows.length / 32);
  const positionOf = new Map<string, number>();
  const entries: DirectoryEntry[] = rows.map((row, at) => {
    positionOf.set(row.id, at);
    return { row, specializations: [], conditions: [], states: [] };
  });

  const specialization = new Map<string, Bits>();
  const condition = new Map<string, Bits>();
  const state = new Map<string, Bits>();
  const bitsFor = (map: Map<string, Bits>, key: string) => {
    let bits = map.get(key);
    if (!bits) {
      bits = newBits(words);
      map.set(key, bits);
    }
    return bits;
  };
  // Links grouped by catalogue item, then handed out in catalogue order: each provider's list comes
  // out in that order without sorting. One shared object per catalogue item.
  const linkLists = (
    items: CatalogueRow[],
    pairs: { providerId: string; id: number }[],
    bitsBySlug: Map<string, Bits>,
    listOf: (entry: DirectoryEntry) => CatalogueItem[],
  ) => {
    const providersOf = new Map<number, number[]>();
    for (const pair of pairs) {
      const at = positionOf.get(pair.providerId);
      if (at === undefined) continue;
      const list = providersOf.get(pair.id) ?? [];
      list.push(at);
      providersOf.set(pair.id, list);
    }
    for (const item of items) {
      const shared: CatalogueItem = { slug: item.slug, nameEn: item.nameEn, translations: item.translations };
      const bits = bitsFor(bitsBySlug, item.slug);
      for (const at of providersOf.get(item.id) ?? []) {
        listOf(entries[at]!).push(shared);
        setBit(bits, at);
      }
    }
  };
  linkLists(catalogue.specializations, links.specializations, specialization, (e) => e.specializations);
  linkLists(catalogue.conditions, links.conditions, condition, (e) => e.conditions);
  // Only the licences in force now; the copy is stale once the first of them expires.
  const today = licenceDay(new Date(now), timeZone);
  let staleAt = Number.POSITIVE_INFINITY;
  for (const link of links.licenses) {
    const at = positionOf.get(link.providerId);
    if (at === undefined) continue;
    if (link.expiresOn) {
      if (link.expiresOn < today) continue;
      staleAt = Math.min(staleAt, midnightIn(dayAfter(link.expiresOn), timeZone ?? "UTC").getTime());
    }
    entries[at]!.states.push(link.state);
    setBit(bitsFor(state, link.state), at);
  }

  const visitType = new Map<string, Bits>();
  const availableToday = newBits(words);
  const notAvailableToday = newBits(words);
  const firstNames: NameKey[] = [];
  const lastNames: NameKey[] = [];
  const fullNames: NameKey[] = [];
  entries.forEach(({ row }, at) => {
    for (const type of row.visitTypes) setBit(bitsFor(visitType, type), at);
    setBit(row.availableToday ? availableToday : notAvailableToday, at);
    const first = row.firstName.toLowerCase();
    const last = row.lastName.toLowerCase();
    firstNames.push({ key: first, at });
    lastNames.push({ key: last, at });
    fullNames.push({ key: `${first} ${last}`, at });
  });
  firstNames.sort(byCodeUnit);
  lastNames.sort(byCodeUnit);
  fullNames.sort(byCodeUnit);

  const nameOrder = new Int32Array(nameIds.length);
  nameIds.forEach((id, index) => {
    nameOrder[index] = positionOf.get(id) ?? -1;
  });

  return {
    fingerprint,
    loadedAt: now,
    staleAt,
    entries,
    bySlug: new Map(entries.map((entry) => [entry.row.slug, entry])),
    positionOf,
    nameOrder,
    words,
    specialization,
    condition,
    state,
    visitType,
    availableToday,
    notAvailableToday,
    empty: newBits(words),
    firstNames,
    lastNames,
    fullNames,
  };
}

/** The matches of `filters` as a bit set, or null for "every provider". */
function matchesOf(snapshot: Snapshot, filters: ProviderFilters): Bits | null {
  const sets: Bits[] = [];
  // An unknown slug matches nobody (as in SQL); the shared empty set stands for it.
  const empty = snapshot.empty;
  if (filters.namePrefix !== undefined) {
    const named = newBits(snapshot.words);
    const prefix = filters.namePrefix;
    // The SQL's rule: a prefix of the first or the last name, or, with a space, of "first last".
    if (prefix.includes(" ")) markPrefix(snapshot.fullNames, prefix, named);
    else markPrefix(snapshot.firstNames, prefix, named);
    markPrefix(snapshot.lastNames, prefix, named);
    sets.push(named);
  }
  if (filters.specialization !== undefined)
    sets.push(snapshot.specialization.get(filters.specialization) ?? empty);
  if (filters.condition !== undefined) sets.push(snapshot.condition.get(filters.condition) ?? empty);
  if (filters.state !== undefined) sets.push(snapshot.state.get(filters.state) ?? empty);
  if (filters.type !== undefined) sets.push(snapshot.visitType.get(filters.type) ?? empty);
  if (filters.availableToday !== undefined) {
    // On duty (in the copy), or a free slot today (as of this search).
    const free = [...(filters.freeToday ?? [])]
      .map((id) => snapshot.positionOf.get(id))
      .filter((at) => at !== undefined);
    if (free.length === 0) {
      sets.push(filters.availableToday ? snapshot.availableToday : snapshot.notAvailableToday);
    } else {
      const available = Uint32Array.from(snapshot.availableToday);
      const notAvailable = Uint32Array.from(snapshot.notAvailableToday);
      for (const at of free) {
        setBit(available, at);
        notAvailable[at >>> 5]! &= ~(1 << (at & 31));
      }
      sets.push(filters.availableToday ? available : notAvailable);
    }
  }
  if (sets.length === 0) return null;
  const result = Uint32Array.from(sets[0]!);
  for (const set of sets.slice(1)) {
    for (let i = 0; i < result.length; i++) result[i]! &= set[i] ?? 0;
  }
  return result;
}

/**
 * The provider directory held in memory, for searches that cost microseconds instead of five SQL
 * statements (ADR 019). The database stays the source of truth: the copy is loaded from it, a
 * search checks at most every 5 s whether the directory changed (and reloads in the background),
 * and until a copy is loaded — or after this instance changed a provider — searches return null so
 * the caller asks the database.
 */
export function createProviderDirectory(
  repository: ProviderRepository,
  deps: {
    clock: Clock;
    onError?: (error: unknown) => void;
    /** CLINIC_TIME_ZONE: a licence counts through its expiry date there (UTC when unset). */
    timeZone?: string;
  },
) {
  let snapshot: Snapshot | null = null;
  let loading: Promise<void> | null = null;
  let lastCheck = 0;
  let generation = 0;
  let closed = false;

  function reload(): Promise<void> {
    if (closed) return Promise.resolve();
    loading ??= (async () => {
      try {
        for (;;) {
          const started = generation;
          const next = await loadSnapshot(repository, deps.clock.now().getTime(), deps.timeZone);
          if (closed) return;
          if (started === generation) {
            snapshot = next;
            lastCheck = next.loadedAt;
            return;
          }
          // Invalidated while loading: the change may not be in this copy, so load again.
        }
      } catch (error) {
        deps.onError?.(error);
      } finally {
        loading = null;
      }
    })();
    return loading;
  }

  function check(now: number): void {
    if (closed || now - lastCheck < DIRECTORY_CHECK_INTERVAL_MS || loading !== null) return;
    lastCheck = now;
    const current = snapshot;
    if (!current || now - current.loadedAt >= DIRECTORY_RELOAD_INTERVAL_MS) {
      void reload();
      return;
    }
    repository.fingerprint().then(
      (fingerprint) => {
        if (fingerprint !== current.fingerprint && snapshot === current) void reload();
      },
      (error: unknown) => deps.onError?.(error),
    );
  }

  /** The current copy, or null (and a load under way) when there is none to trust. */
  function current(): Snapshot | null {
    const now = deps.clock.now().getTime();
    if (snapshot && now >= snapshot.staleAt) {
      // A licence in the copy has expired since it was loaded: the database answers until the
      // copy without it is in.
      generation++;
      snapshot = null;
      void reload();
      return null;
    }
    check(now);
    return snapshot;
  }

  return {
    /**
     * Resolves when a copy is in memory (or its load failed): at once when one is and nothing is
     * loading, else when the load under way, or a new one, ends. Searches meanwhile go to the
     * database.
     */
    load(): Promise<void> {
      return snapshot !== null && loading === null ? Promise.resolve() : reload();
    },

    /** This instance changed a provider: stop answering from the copy until a new one is loaded. */
    invalidate(): void {
      generation++;
      snapshot = null;
      void reload();
    },

    /** Drops the copy and waits for a new one (after a change made directly in the database). */
    async refresh(): Promise<void> {
      generation++;
      snapshot = null;
      await loading;
      await reload();
    },

    /** Before the database closes: no more loads, and the one under way has finished. */
    async close(): Promise<void> {
      closed = true;
      await loading;
    },

    /** One page of matches and their number, or null when the database has to answer. */
    search(
      filters: ProviderFilters,
      sort: "rating" | "name",
      limit: number,
      offset: number,
    ): { entries: DirectoryEntry[]; total: number } | null {
      const copy = current();
      if (!copy) return null;
      const matches = matchesOf(copy, filters);
      const total = matches ? countBits(matches) : copy.entries.length;
      const page: DirectoryEntry[] = [];
      const size = copy.entries.length;
      let skipped = 0;
      for (let index = 0; index < size && page.length < limit; index++) {
        const at = sort === "rating" ? index : copy.nameOrder[index]!;
        if (matches && !hasBit(matches, at)) continue;
        if (skipped < offset) {
          skipped++;
          continue;
        }
        page.push(copy.entries[at]!);
      }
      return { entries: page, total };
    },

    /** One provider by slug; undefined when not found, null when the database has to answer. */
    bySlug(slug: string): DirectoryEntry | undefined | null {
      const copy = current();
      return copy ? copy.bySlug.get(slug) : null;
    },
  };
}

export type ProviderDirectory = ReturnType<typeof createProviderDirectory>;
