import { editorProviderResponse } from "@ambercare/contracts/directory-editor";
import { providerListResponse } from "@ambercare/contracts/provider";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "#api/platform/clock.ts";
import { bearer, createTestApp, registerOperator, type TestApp } from "#api/test-support.ts";

/**
 * Two API processes on one PostgreSQL database, as in production, each with its copy of the
 * directory in memory: an operator's edit through one is in the other's search at once (the change
 * is announced over LISTEN/NOTIFY; nothing here moves the clock on to the copies' own 5 s check).
 * PGlite has one process by nature, so this runs only with TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("directory edits across API instances", () => {
  const clock = createManualClock(new Date("2026-05-10T15:00:00Z"));
  let db: TestDb;
  let first: TestApp;
  let second: TestApp;
  let operator: { access_token: string };

  beforeAll(async () => {
    db = await createTestDb();
    first = await createTestApp({ db, seed: false, clock });
    second = await createTestApp({ db, seed: false, clock });
    await first.app.listen({ port: 0, host: "127.0.0.1" });
    await second.app.listen({ port: 0, host: "127.0.0.1" });
    operator = await registerOperator(first, clock.now());
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.cleanup();
  });

  /** The slugs instance 2 answers a patient's search in `state` with. */
  const secondFinds = async (state: string) => {
    const res = await second.app.inject({ method: "GET", url: `/api/v1/api/provider?state=${state}` });
    expect(res.statusCode, res.body).toBe(200);
    return providerListResponse.parse(res.json()).data.map((card) => card.slug);
  };

  const edit = async (method: "POST" | "PUT", path: string, payload?: object) => {
    const res = await first.app.inject({
      method,
      url: `/api/v1/api/operations/directory/providers${path}`,
      headers: bearer(operator.access_token),
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return editorProviderResponse.parse(res.json()).data;
  };

  const body = (licences: { state: string; expires_on: string | null }[]) => ({
    slug: "mira-fanout",
    first_name: "Mira",
    last_name: "Fanout",
    credentials: "NP",
    bio: { en: "Nurse practitioner.", bg: "Медицинска сестра." },
    languages: ["en"],
    visit_types: ["video"],
    licences,
  });

  it("shows an edit, an unlisting and an expired licence made on instance 1 in instance 2's search", async () => {
    await second.app.providerDirectory.load();
    expect(await secondFinds("WY")).toEqual([]);

    const created = await edit("POST", "", body([{ state: "WY", expires_on: "2026-05-10" }]));
    await expect.poll(() => secondFinds("WY"), { timeout: 3_000 }).toEqual(["mira-fanout"]);
    // Instance 2's copy is loaded again with it (searches answered from memory, not the database).
    await second.app.providerDirectory.load();
    expect(await secondFinds("WY")).toEqual(["mira-fanout"]);

    // Licensed elsewhere now: instance 2 stops offering WY without a restart.
    await edit("PUT", `/${created.id}`, body([{ state: "MT", expires_on: null }]));
    await expect.poll(() => secondFinds("WY"), { timeout: 3_000 }).toEqual([]);
    expect(await secondFinds("MT")).toEqual(["mira-fanout"]);
    await second.app.providerDirectory.load();

    // A licence dated yesterday: already expired, so not offered.
    await edit("PUT", `/${created.id}`, body([{ state: "MT", expires_on: "2026-05-09" }]));
    await expect.poll(() => secondFinds("MT"), { timeout: 3_000 }).toEqual([]);

    // Unlisted on instance 1, gone from instance 2; listed again, back.
    await edit("PUT", `/${created.id}`, body([{ state: "MT", expires_on: "2026-05-10" }]));
    await expect.poll(() => secondFinds("MT"), { timeout: 3_000 }).toEqual(["mira-fanout"]);
    await second.app.providerDirectory.load();
    await edit("POST", `/${created.id}/unlist`);
    await expect.poll(() => secondFinds("MT"), { timeout: 3_000 }).toEqual([]);
    const profile = await second.app.inject({ method: "GET", url: "/api/v1/api/provider/mira-fanout" });
    expect(profile.statusCode).toBe(404);
    await edit("POST", `/${created.id}/relist`);
    await expect.poll(() => secondFinds("MT"), { timeout: 3_000 }).toEqual(["mira-fanout"]);

    // The licence's last day ends: both copies, loaded before midnight, leave MT out after it.
    await second.app.providerDirectory.load();
    clock.set(new Date("2026-05-11T00:00:01Z"));
    expect(await secondFinds("MT")).toEqual([]);
  });
});
