import { VISIT_TYPE_IDS, type VisitType } from "@ambercare/contracts/visit-types";
import { describe, expect, it } from "vitest";
import {
  createProviderDirectory,
  DIRECTORY_CHECK_INTERVAL_MS,
} from "#api/modules/directory/provider-directory.ts";
import type { ProviderRepository, ProviderRow } from "#api/modules/directory/provider-repository.ts";
import { createManualClock } from "#api/platform/clock.ts";

// The copy's life cycle, with the database replaced by a table in memory whose answers the test
// releases one at a time (the answers themselves are compared with SQL in provider.test.ts).

function row(id: string, firstName: string, lastName: string, ratingAverage: number): ProviderRow {
  return {
    id,
    slug: `${firstName}-${lastName}`.toLowerCase(),
    firstName,
    lastName,
    credentials: "MD",
    photoPath: null,
    bioEn: "",
    translations: {},
    languages: ["en"],
    visitTypes: [...VISIT_TYPE_IDS],
    availableToday: false,
    clinicianOnDuty: false,
    ratingAverage,
    ratingCount: ratingAverage > 0 ? 1 : 0,
  };
}

function fakeDatabase() {
  const state = {
    rows: [row("a", "Ann", "Lee", 0), row("b", "Bo", "Kim", 0)],
    fingerprint: "v1",
    loads: 0,
    fingerprintChecks: 0,
    failNextLoad: false,
    /** While set, each load waits for the test to call `release()`. */
    gate: null as null | { promise: Promise<void>; release: () => void },
  };
  const hold = () => {
    let release = () => {};
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    state.gate = { promise, release };
  };
  const byRating = () => [...state.rows].sort((x, y) => y.ratingAverage - x.ratingAverage);
  const repository = {
    async fingerprint() {
      state.fingerprintChecks++;
      return state.fingerprint;
    },
    async allInRatingOrder() {
      state.loads++;
      const rows = byRating().map((r) => ({ ...r }));
      await state.gate?.promise;
      if (state.failNextLoad) {
        state.failNextLoad = false;
        throw new Error("connection lost");
      }
      return rows;
    },
    async idsInNameOrder() {
      return [...state.rows].sort((x, y) => x.lastName.localeCompare(y.lastName)).map((r) => r.id);
    },
    async allLinks() {
      return {
        specializations: [{ providerId: "a", id: 1 }],
        conditions: [],
        licenses: state.rows.map((r) => ({ providerId: r.id, state: "CA" })),
      };
    },
    async catalogue() {
      return {
        specializations: [
          {
            id: 1,
            slug: "dermatology",
            nameEn: "Dermatology",
            translations: { bg: { name: "Дерматология" } },
          },
        ],
        conditions: [],
      };
    },
  } as unknown as ProviderRepository;
  return { state, repository, hold };
}

const firstPage = (directory: ReturnType<typeof createProviderDirectory>) =>
  directory.search({}, "rating", 20, 0)?.entries.map((entry) => entry.row.id) ?? null;

describe("the in-memory provider directory", () => {
  it("leaves searches to the database until its copy is loaded, then answers them", async () => {
    const { repository, state, hold } = fakeDatabase();
    const directory = createProviderDirectory(repository, { clock: createManualClock() });
    hold();
    const loading = directory.load();
    expect(directory.search({}, "rating", 20, 0)).toBeNull();
    state.gate?.release();
    await loading;
    expect(directory.search({}, "rating", 20, 0)).toMatchObject({ total: 2 });
    expect(directory.search({ specialization: "dermatology" }, "name", 20, 0)?.entries).toHaveLength(1);
    expect(directory.search({ state: "NY" }, "name", 20, 0)).toEqual({ entries: [], total: 0 });
    expect(directory.bySlug("bo-kim")?.row.id).toBe("b");
    expect(directory.bySlug("nobody")).toBeUndefined();
  });

  it("filters by every kind of visit of the list, and matches nobody for a kind it does not know", async () => {
    const { repository, state } = fakeDatabase();
    // One provider per kind, offering that kind only, and one offering every kind.
    state.rows = [
      ...VISIT_TYPE_IDS.map((type, at) => ({
        ...row(`only-${type}`, "Only", `Kind${at}`, 0),
        visitTypes: [type],
      })),
      row("all", "Every", "Kind", 0),
    ];
    const directory = createProviderDirectory(repository, { clock: createManualClock() });
    await directory.load();
    const ids = (type: string) =>
      directory
        .search({ type: type as VisitType }, "name", 20, 0)
        ?.entries.map((entry) => entry.row.id)
        .sort();
    for (const type of VISIT_TYPE_IDS) expect(ids(type)).toEqual(["all", `only-${type}`]);
    expect(ids("fax")).toEqual([]);
  });

  it("throws away a copy that was loading when it was invalidated, and loads again", async () => {
    const { repository, state, hold } = fakeDatabase();
    const directory = createProviderDirectory(repository, { clock: createManualClock() });
    hold();
    const loading = directory.load();
    // A rating arrives while the copy is being read: the copy may predate it.
    state.rows[1] = row("b", "Bo", "Kim", 5);
    directory.invalidate();
    const gate = state.gate;
    state.gate = null;
    gate?.release();
    await loading;
    await directory.load();
    expect(state.loads).toBe(2);
    expect(firstPage(directory)).toEqual(["b", "a"]);
  });

  it("checks the database's fingerprint at most every 5 s and reloads only when it changed", async () => {
    const { repository, state } = fakeDatabase();
    const clock = createManualClock();
    const directory = createProviderDirectory(repository, { clock });
    await directory.load();
    expect(state.loads).toBe(1);

    clock.advance(DIRECTORY_CHECK_INTERVAL_MS - 1);
    firstPage(directory);
    expect(state.fingerprintChecks).toBe(1); // the one taken while loading

    clock.advance(1);
    firstPage(directory);
    await directory.load();
    expect(state.fingerprintChecks).toBe(2);
    expect(state.loads).toBe(1);

    // Another instance stored a rating.
    state.rows[1] = row("b", "Bo", "Kim", 4);
    state.fingerprint = "v2";
    expect(firstPage(directory)).toEqual(["a", "b"]); // not yet due for a check
    clock.advance(DIRECTORY_CHECK_INTERVAL_MS);
    expect(firstPage(directory)).toEqual(["a", "b"]); // answered from the copy while it checks
    await new Promise((resolve) => setImmediate(resolve));
    await directory.load();
    expect(state.loads).toBe(2);
    expect(firstPage(directory)).toEqual(["b", "a"]);
  });

  it("reports a failed load and tries again at the next check", async () => {
    const { repository, state } = fakeDatabase();
    const clock = createManualClock();
    const errors: unknown[] = [];
    const directory = createProviderDirectory(repository, { clock, onError: (error) => errors.push(error) });
    state.failNextLoad = true;
    await directory.load();
    expect(errors).toHaveLength(1);
    expect(firstPage(directory)).toBeNull();
    clock.advance(DIRECTORY_CHECK_INTERVAL_MS);
    expect(firstPage(directory)).toBeNull();
    await directory.load();
    expect(firstPage(directory)).toEqual(["a", "b"]);
  });
});
