import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "./testing.ts";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb({ seeded: true });
});
afterAll(async () => db?.cleanup());

describe("bookings", () => {
  it("has the exclusion constraint", async () => {
    const { rows } = await db.db.execute(
      sql`select conname from pg_constraint where conname = 'bookings_no_overlap'`,
    );
    expect(rows).toHaveLength(1);
  });
});
