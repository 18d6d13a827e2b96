import { connect, createServer, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "./client.ts";
import { runMigrations } from "./migrate.ts";
import { createTestDb, type TestDb } from "./testing.ts";
import { isDatabaseUnavailable } from "./unavailable.ts";

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

/** The server process ids of the handle's pooled connections (those of its database but this one). */
async function backendsOf(handle: DbHandle): Promise<number[]> {
  const { rows } = await handle.db.execute<{ pid: number }>(
    sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return rows.map((row) => row.pid);
}

type Relay = {
  url: string;
  /** Ends the backend of the next connection that sends `begin` instead of passing the statement on. */
  endAtNextBegin(): void;
  close(): Promise<void>;
};

/**
 * A TCP relay in front of the server that ends a connection at the instant it begins a transaction:
 * the statement is held back, the connection's backend is ended (`pg_terminate_backend`, what a
 * shutdown does to each) and the statement dropped, so the client hears the server's goodbye (57P01)
 * in answer to its `begin`. Ending a connection just as the pool lends it out is otherwise luck.
 */
async function startRelay(serverUrl: string): Promise<Relay> {
  const target = new URL(serverUrl);
  let armed = false;
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    // The backend's process id, from the server's BackendKeyData message ('K') after the login.
    let pid: number | undefined;
    let greeting = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      client.write(chunk);
      if (pid !== undefined) return;
      greeting = Buffer.concat([greeting, chunk]);
      for (let at = 0; at + 5 <= greeting.length; at += 1 + greeting.readInt32BE(at + 1)) {
        if (greeting[at] === 0x4b && at + 9 <= greeting.length) pid = greeting.readInt32BE(at + 5);
      }
    });
    upstream.on("end", () => client.end());
    client.on("end", () => upstream.end());
    client.on("data", (chunk: Buffer) => {
      if (armed && pid !== undefined && chunk.toString("latin1").toLowerCase().includes("begin")) {
        armed = false;
        client.pause();
        void terminateBackend(pid).finally(() => client.resume());
        return;
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const url = new URL(serverUrl);
  url.hostname = "127.0.0.1";
  url.port = String((relay.address() as { port: number }).port);
  return {
    url: url.toString(),
    endAtNextBegin() {
      armed = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

let handle: DbHandle | undefined;
let relay: Relay | undefined;
let testDb: TestDb | undefined;
afterEach(async () => {
  // A pool that lost track of a client never finishes closing: the test has failed already then.
  await Promise.race([handle?.close(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
  handle = undefined;
  await testDb?.cleanup();
  testDb = undefined;
  await relay?.close();
  relay = undefined;
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

  it("gives a transaction's connection back to the pool when the server ends it at `begin`", async () => {
    relay = await startRelay(serverUrl!);
    handle = await createDb({ databaseUrl: relay.url, maxConnections: 1, onError: () => undefined });
    const { driver } = handle;
    if (driver.kind !== "postgres") throw new Error("expected PostgreSQL");
    // The pool's one connection, idle, is lent to the transaction, which fails as it begins.
    await handle.ping();
    relay.endAtNextBegin();
    const failure = await handle.db
      .transaction(async (tx) => tx.execute(sql`select 1`))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);

    // Its slot is free again: the next query gets a connection at once, instead of waiting the
    // pool's five seconds and failing like every query after it, the one slot held by a dead client.
    const started = Date.now();
    await expect(handle.ping()).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect({ total: driver.pool.totalCount, waiting: driver.pool.waitingCount }).toEqual({
      total: 1,
      waiting: 0,
    });
  });

  it("gives the migrator's connection back to the pool when the server ends it at `begin`", async () => {
    testDb = await createTestDb();
    relay = await startRelay(testDb.url!);
    // Two connections: the migration lock's and the migrator's.
    handle = await createDb({ databaseUrl: relay.url, maxConnections: 2, onError: () => undefined });
    relay.endAtNextBegin();
    const failure = await runMigrations(handle).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(failure), String(failure)).toBe(true);
    // The next start migrates (nothing left to apply) without waiting for a slot.
    const started = Date.now();
    await expect(runMigrations(handle)).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("writes again within seconds after the server ends every connection of busy transactions, again and again", async () => {
    // A database of its own (dropped afterwards), so that the connections ended are only this test's.
    testDb = await createTestDb();
    handle = await createDb({ databaseUrl: testDb.url, maxConnections: 4, onError: () => undefined });
    const { driver } = handle;
    if (driver.kind !== "postgres") throw new Error("expected PostgreSQL");
    const db = handle.db;
    await db.execute(
      sql`create table connection_errors_counters (n int primary key, hits int not null default 0)`,
    );
    let writing = true;
    let succeeded = 0;
    const failures: unknown[] = [];
    const writer = async (n: number) => {
      while (writing) {
        try {
          await db.transaction(async (tx) => {
            await tx.execute(
              sql`insert into connection_errors_counters (n) values (${n}) on conflict (n) do update set hits = connection_errors_counters.hits + 1`,
            );
            await tx.execute(sql`select pg_sleep(0.002)`);
          });
          succeeded += 1;
        } catch (error) {
          failures.push(error);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, n) => writer(n));
    try {
      for (let round = 0; round < 5; round += 1) {
        await expect.poll(() => succeeded, { timeout: 5_000 }).toBeGreaterThan(0);
        // Every pooled connection of this handle, in the middle of whatever it was doing.
        await Promise.all((await backendsOf(handle)).map((pid) => terminateBackend(pid)));
        succeeded = 0;
        // Back within seconds: the pool's slots were not left to the dead clients.
        await expect.poll(() => succeeded, { timeout: 3_000 }).toBeGreaterThan(0);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    expect(failures.length).toBeGreaterThan(0);
    expect(
      failures.every(isDatabaseUnavailable),
      String(failures.find((f) => !isDatabaseUnavailable(f))),
    ).toBe(true);
    expect(driver.pool.totalCount).toBeLessThanOrEqual(4);
  });
});
