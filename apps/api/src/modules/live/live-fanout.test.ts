import type { AddressInfo } from "node:net";
import { LIVE_API_PATH } from "@ambercare/contracts/live";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LiveTestClient, openLiveClient } from "#api/modules/live/live-test-client.ts";
import { createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

/**
 * Two API processes on one PostgreSQL database, as in production: an event published through one
 * reaches a page connected to the other (LISTEN/NOTIFY). PGlite has one process by nature, so this
 * runs only with TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("live events across API instances", () => {
  let db: TestDb;
  let first: TestApp;
  let second: TestApp;

  const liveUrl = (testApp: TestApp) =>
    `ws://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}/api/v1${LIVE_API_PATH}`;

  beforeAll(async () => {
    db = await createTestDb();
    first = await createTestApp({ db, seed: false });
    second = await createTestApp({ db, seed: false });
    await first.app.listen({ port: 0, host: "127.0.0.1" });
    await second.app.listen({ port: 0, host: "127.0.0.1" });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.cleanup();
  });

  /** The listening connections on this test file's database (one per instance when all is well). */
  const rowsListening = async (testApp: TestApp) =>
    (
      await testApp.db.db.execute<{ pid: number }>(
        sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      )
    ).rows;

  const openOn = async (testApp: TestApp, token: string, after: number | null): Promise<LiveTestClient> => {
    const client = await openLiveClient(liveUrl(testApp), { authorization: `Bearer ${token}` });
    client.send({ type: "resume", after });
    expect(await client.next()).toMatchObject({ type: "resumed" });
    return client;
  };

  it("delivers on instance 1 what instance 2 published, to the recipient only", async () => {
    const alice = await registerPatient(first.app);
    const bob = await registerPatient(second.app);
    const aliceOnFirst = await openOn(first, alice.access_token, null);
    const bobOnFirst = await openOn(first, bob.access_token, null);
    const [id] = await second.app.live.publish([alice.user_id], "visit.status", { visit_id: "v1" });
    expect(await aliceOnFirst.next()).toEqual({ id, topic: "visit.status", payload: { visit_id: "v1" } });
    expect(await bobOnFirst.quietFor(300)).toEqual([]);

    // A transaction on instance 2 that rolls back notifies no one.
    await expect(
      second.db.db.transaction(async (tx) => {
        await second.app.live.publish([alice.user_id], "visit.status", { visit_id: "never" }, tx);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await aliceOnFirst.quietFor(300)).toEqual([]);
    await Promise.all([aliceOnFirst.close(), bobOnFirst.close()]);
  });

  it("replays on instance 1 what instance 2 published while the page was away, then continues live", async () => {
    const alice = await registerPatient(first.app);
    const missed = [
      ...(await second.app.live.publish([alice.user_id], "visit.message", { n: 1 })),
      ...(await first.app.live.publish([alice.user_id], "visit.message", { n: 2 })),
    ];
    const client = await openOn(first, alice.access_token, 0);
    expect([await client.next(), await client.next()]).toEqual([
      { id: missed[0], topic: "visit.message", payload: { n: 1 } },
      { id: missed[1], topic: "visit.message", payload: { n: 2 } },
    ]);
    const concurrent = (
      await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          (n % 2 ? first : second).app.live.publish([alice.user_id], "visit.message", { n: n + 3 }),
        ),
      )
    ).flat();
    const received = [];
    for (let i = 0; i < concurrent.length; i++) received.push(((await client.next()) as { id: number }).id);
    expect(received).toEqual([...concurrent].sort((a, b) => a - b));
    expect(await client.quietFor(300)).toEqual([]);
    await client.close();
  });

  it("listens again within seconds when the server ends the listening connections, and misses nothing", async () => {
    const alice = await registerPatient(first.app);
    const client = await openOn(first, alice.access_token, null);
    // Both instances' listening connections, as a database restart ends them.
    const { rows: ended } = await first.db.db.execute<{ pid: number }>(
      sql`select pid, pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
    );
    expect(ended.length).toBe(2);
    // Published at once, before either instance listens again: the page gets it on the resync.
    const [missed] = await second.app.live.publish([alice.user_id], "visit.message", { n: 1 });
    expect(await client.next()).toEqual({ id: missed, topic: "visit.message", payload: { n: 1 } });
    // And live again afterwards, across the instances.
    await expect.poll(async () => (await rowsListening(first)).length, { timeout: 5_000 }).toBe(2);
    const [live] = await second.app.live.publish([alice.user_id], "visit.message", { n: 2 });
    expect(await client.next(3_000)).toEqual({ id: live, topic: "visit.message", payload: { n: 2 } });
    await client.close();
  });
});
