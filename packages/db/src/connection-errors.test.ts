import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client.ts";

/**
 * PostgreSQL ends a connection with FATAL 57P01 ("terminating connection due to administrator
 * command") when it shuts down or when `pg_terminate_backend` is called. A connection that the pool
 * has lent out (a transaction) and that is between two queries then emits "error" on its client: with
 * no listener there, the process dies. These tests end a lent-out connection on purpose; Vitest
 * fails the run on the unhandled error it would be.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

async function terminateBackend(pid: number): Promise<void> {
  if (!serverUrl) throw new Error("TEST_DATABASE_URL is unset");
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query("select pg_terminate_backend($1)", [pid]);
  } finally {
    await admin.end();
  }
}

let handle: DbHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

describe.skipIf(!serverUrl)("a PostgreSQL connection ended by the server", () => {
  it("fails the transaction it was lent to, is reported, and the pool goes on serving", async () => {
    const reported: Error[] = [];
    handle = await createDb({
      databaseUrl: serverUrl,
      maxConnections: 2,
      onError: (error) => reported.push(error),
    });
    const { driver } = handle;
    if (driver.kind !== "postgres") throw new Error("expected PostgreSQL");

    const transaction = driver.pool.connect().then(async (client) => {
      try {
        await client.query("begin");
        const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
        // Between two queries of the transaction, with no query in flight, the server ends it.
        await terminateBackend(rows[0]!.pid);
        await expect.poll(() => reported.length, { timeout: 5_000 }).toBeGreaterThan(0);
        await client.query("select 1");
      } finally {
        client.release(true);
      }
    });
    await expect(transaction).rejects.toThrow();
    expect(String(reported[0]?.message)).toMatch(/terminat/i);

    // The dead client left the pool: the next query gets a fresh connection.
    await expect(handle.ping()).resolves.toBeUndefined();
  });

  it("keeps serving after every connection of a busy pool is ended at once", async () => {
    const reported: Error[] = [];
    handle = await createDb({ databaseUrl: serverUrl, maxConnections: 4, onError: (e) => reported.push(e) });
    const { driver } = handle;
    if (driver.kind !== "postgres") throw new Error("expected PostgreSQL");
    const pids: number[] = [];
    // Four transactions that each hold their connection between short queries.
    const running = Array.from({ length: 4 }, () =>
      driver.pool.connect().then(async (client) => {
        try {
          await client.query("begin");
          const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
          pids.push(rows[0]!.pid);
          for (let i = 0; i < 100; i += 1) {
            await client.query("select 1");
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          await client.query("commit");
        } finally {
          client.release(true);
        }
      }),
    );
    // Settled from the start: a transaction that fails before the termination below ends is expected.
    const settled = Promise.allSettled(running);
    await expect.poll(() => pids.length, { timeout: 5_000 }).toBe(4);
    // Only this test's connections: other test files share the server.
    await Promise.all(pids.map((pid) => terminateBackend(pid)));
    const outcomes = await settled;
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
    await expect(handle.ping()).resolves.toBeUndefined();
  });
});
