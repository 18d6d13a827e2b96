import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { compactSnapshot, keepWalSegment, tarEntries, WAL_SEGMENT } from "./pglite-snapshot.ts";
import { createTestDb } from "./testing.ts";

/** The names and sizes of a tar's WAL segments. */
function walSegments(tar: Uint8Array): { name: string; size: number }[] {
  return [...tarEntries(tar)]
    .filter(({ name }) => WAL_SEGMENT.test(name))
    .map(({ name, data }) => ({ name: name.split("/").at(-1) ?? name, size: data.length }));
}

describe("a compact PGlite snapshot", () => {
  it("holds one short WAL segment, loads with its rows, and takes writes past its cut and into new segments", async () => {
    // A migrated test database, itself loaded from such a snapshot (test-templates.ts).
    const db = await createTestDb();
    if (db.driver.kind !== "pglite") throw new Error("createTestDb opens PGlite without TEST_DATABASE_URL");
    const source = db.driver.client;
    await source.exec("create table notes(id int primary key, body text)");
    await source.exec("insert into notes select g, repeat('n', 500) from generate_series(1, 2000) g");
    await source.query("select pg_switch_wal()");
    await source.exec("insert into notes select g, repeat('n', 500) from generate_series(2001, 3000) g");
    const tar = await compactSnapshot(source);
    await db.cleanup();

    // The checkpoint's segment only, cut to a few pages.
    const [segment, ...others] = walSegments(tar);
    expect(others).toEqual([]);
    expect(segment?.size).toBeGreaterThan(0);
    expect(segment?.size).toBeLessThanOrEqual(4 * 8192);
    expect(() => keepWalSegment(tar, "0000000100000000000000FF", 8192)).toThrow(
      "The PGlite dump has no WAL segment 0000000100000000000000FF",
    );

    const copy = await PGlite.create({ loadDataDir: new Blob([tar]) });
    expect((await copy.query("select count(*)::int as n from notes")).rows).toEqual([{ n: 3000 }]);
    // Written past the cut, then into a segment of its own: both survive a dump and a load.
    await copy.exec("insert into notes select g, repeat('m', 500) from generate_series(3001, 6000) g");
    await copy.query("select pg_switch_wal()");
    await copy.exec("update notes set body = 'changed' where id <= 100");
    const again = await copy.dumpDataDir("none");
    await copy.close();
    const reloaded = await PGlite.create({ loadDataDir: again });
    const counts = await reloaded.query(
      "select count(*)::int as n, (count(*) filter (where body = 'changed'))::int as changed from notes",
    );
    expect(counts.rows).toEqual([{ n: 6000, changed: 100 }]);
    await reloaded.close();
  });
});
