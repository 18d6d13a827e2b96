import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, type Database, type DbHandle } from "@ambercare/db/client";
import { jobs } from "@ambercare/db/schema";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createManualClock, systemClock } from "#api/platform/clock.ts";
import { createJobRunner, enqueue, type JobRunnerOptions } from "#api/platform/jobs.ts";
import { createTestApp } from "#api/test-support.ts";

/**
 * The jobs runner on the test database: PGlite by default, PostgreSQL in the PostgreSQL pass
 * (POSTGRES_SUITES), where "another process" is another pool of connections to the same database.
 */

const T0 = new Date("2026-03-02T09:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE_MS = 60_000;

let t: TestDb;
/** Another process's connections: a second pool on PostgreSQL; PGlite has one connection. */
let other: DbHandle;

beforeAll(async () => {
  t = await createTestDb();
  other = t.url ? await createDb({ databaseUrl: t.url, maxConnections: 4 }) : t;
});

afterAll(async () => {
  if (other && other !== t) await other.close();
  await t?.cleanup();
});

beforeEach(async () => {
  await t.db.delete(jobs);
});

function recordingLog() {
  const lines: Array<Record<string, unknown>> = [];
  return {
    lines,
    warn: (object: Record<string, unknown>, msg: string) =>
      void lines.push({ level: "warn", msg, ...object }),
    error: (object: Record<string, unknown>, msg: string) =>
      void lines.push({ level: "error", msg, ...object }),
  };
}

function runner(db: Database = t.db, options: Partial<JobRunnerOptions> = {}) {
  return createJobRunner({
    db,
    clock: createManualClock(T0),
    log: recordingLog(),
    leaseMs: LEASE_MS,
    ...options,
  });
}

const rowsOf = (kind: string) =>
  t.db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(asc(jobs.dedupeKey));

describe("enqueue", () => {
  it("adds a job once per key, and inside a transaction only if it commits", async () => {
    const job = { kind: "test.once", key: "test.once:1", runAt: at(60_000), payload: { visit: "v-1" } };
    expect(await enqueue(t.db, job)).toBe(true);
    expect(await enqueue(t.db, { ...job, runAt: at(120_000), payload: { visit: "v-2" } })).toBe(false);
    await expect(
      t.db.transaction(async (tx) => {
        await enqueue(tx, { ...job, key: "test.once:2" });
        throw new Error("the booking failed");
      }),
    ).rejects.toThrow("the booking failed");

    const rows = await rowsOf("test.once");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ dedupeKey: "test.once:1", runAt: at(60_000), payload: { visit: "v-1" } });
    expect(rows[0]).toMatchObject({ attempts: 0, lockedUntil: null, doneAt: null, lastError: null });
  });
});

describe("running", () => {
  it("runs a due job once, with its payload, and not before its time", async () => {
    const seen: unknown[] = [];
    const jobsRunner = runner();
    jobsRunner.register(
      "test.due",
      async (job) => void seen.push({ payload: job.payload, attempt: job.attempt }),
    );
    await enqueue(t.db, { kind: "test.due", key: "test.due:1", runAt: at(60_000), payload: { n: 1 } });

    expect(await jobsRunner.runDue(at(59_999))).toEqual({ ran: 0, failed: 0 });
    expect(seen).toEqual([]);
    expect(await jobsRunner.runDue(at(60_000))).toEqual({ ran: 1, failed: 0 });
    expect(await jobsRunner.runDue(at(120_000))).toEqual({ ran: 0, failed: 0 });
    expect(await runner(other.db, {}).runDue(at(10 * LEASE_MS))).toEqual({ ran: 0, failed: 0 });

    expect(seen).toEqual([{ payload: { n: 1 }, attempt: 1 }]);
    expect(await rowsOf("test.due")).toMatchObject([{ attempts: 1, doneAt: at(60_000), lockedUntil: null }]);
  });

  it("leaves the kinds it has no handler for to a process that has one", async () => {
    await enqueue(t.db, { kind: "test.unknown", key: "test.unknown:1", runAt: T0 });
    const jobsRunner = runner();
    jobsRunner.register("test.known", async () => undefined);
    expect(await jobsRunner.runDue(at(1000))).toEqual({ ran: 0, failed: 0 });
    expect(await rowsOf("test.unknown")).toMatchObject([{ attempts: 0, lockedUntil: null, doneAt: null }]);
  });

  it("two runners on separate connections racing over 200 due jobs run each exactly once", async () => {
    const runs = new Map<string, number>();
    const byRunner = [0, 0];
    const racers = [t.db, other.db].map((db, index) => {
      const racer = runner(db, { batchSize: 5 });
      racer.register("test.race", async (job) => {
        // Yield, so the two runners' claims interleave.
        await new Promise((resolve) => setImmediate(resolve));
        runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
        byRunner[index] = (byRunner[index] ?? 0) + 1;
      });
      return racer;
    });
    for (let i = 0; i < 200; i++) {
      await enqueue(t.db, { kind: "test.race", key: `test.race:${i}`, runAt: at(i * 10) });
    }

    const drain = async (racer: (typeof racers)[number]) => {
      let total = 0;
      for (;;) {
        const { ran, failed } = await racer.runDue(at(5_000));
        total += ran + failed;
        if (ran + failed === 0) return total;
      }
    };
    const totals = await Promise.all(racers.map(drain));

    expect(totals[0]! + totals[1]!).toBe(200);
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(byRunner[0]! + byRunner[1]!).toBe(200);
    const rows = await rowsOf("test.race");
    expect(rows.filter((row) => row.doneAt !== null && row.attempts === 1)).toHaveLength(200);
  });
});

describe("a runner that dies or stalls mid-run", () => {
  it("loses the job when its lease runs out: another runner runs it, and the first cannot finish it", async () => {
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    let started: () => void = () => undefined;
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const stalledLog = recordingLog();
    const stalled = runner(t.db, { log: stalledLog });
    stalled.register("test.lease", async (job) => {
      started();
      await gate;
      await job.complete((tx) =>
        enqueue(tx, { kind: "test.effect", key: "effect-of-the-stalled", runAt: T0 }),
      );
    });
    const rescuer = runner(other.db);
    const rescued: number[] = [];
    rescuer.register("test.lease", async (job) => {
      rescued.push(job.attempt);
      await job.complete((tx) =>
        enqueue(tx, { kind: "test.effect", key: "effect-of-the-rescuer", runAt: T0 }),
      );
    });
    await enqueue(t.db, { kind: "test.lease", key: "test.lease:1", runAt: T0 });

    const stalledRun = stalled.runDue(T0);
    await firstStarted;
    // Leased: nobody else takes it before the lease runs out.
    expect(await rescuer.runDue(at(LEASE_MS - 1))).toEqual({ ran: 0, failed: 0 });
    expect(await rescuer.runDue(at(LEASE_MS))).toEqual({ ran: 1, failed: 0 });
    openGate();
    expect(await stalledRun).toEqual({ ran: 0, failed: 1 });

    expect(rescued).toEqual([2]);
    expect((await rowsOf("test.effect")).map((row) => row.dedupeKey)).toEqual(["effect-of-the-rescuer"]);
    expect(await rowsOf("test.lease")).toMatchObject([
      { attempts: 2, doneAt: at(LEASE_MS), lastError: null },
    ]);
    expect(stalledLog.lines).toMatchObject([{ level: "warn", kind: "test.lease" }]);
  });

  it("a job claimed by a process that then died is run again once its lease runs out", async () => {
    await enqueue(t.db, { kind: "test.died", key: "test.died:1", runAt: T0 });
    const dying = runner(t.db);
    // The process claims the job, starts it, and is gone: the handler never returns.
    let started: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => {
      started = resolve;
    });
    dying.register("test.died", () => {
      started();
      return new Promise<void>(() => undefined);
    });
    void dying.runDue(T0);
    await claimed;

    const survivor = runner(other.db);
    const ran: number[] = [];
    survivor.register("test.died", async (job) => void ran.push(job.attempt));
    expect(await survivor.runDue(at(LEASE_MS / 2))).toEqual({ ran: 0, failed: 0 });
    expect(await survivor.runDue(at(LEASE_MS + 1))).toEqual({ ran: 1, failed: 0 });
    expect(await survivor.runDue(at(3 * LEASE_MS))).toEqual({ ran: 0, failed: 0 });
    expect(ran).toEqual([2]);
  });
});

describe("a restart between the due time and the run", () => {
  // Opening PGlite files takes seconds, twice here.
  it("runs the job once after the process comes back", { timeout: 120_000 }, async () => {
    // PGlite: files in a directory (a copy of this file's migrated database), closed and opened
    // again; PostgreSQL: a new pool.
    const dataDir = t.url ? undefined : mkdtempSync(join(tmpdir(), "ambercare-jobs-restart-"));
    const migrated = t.driver.kind === "pglite" ? await t.driver.client.dumpDataDir() : undefined;
    let opened = 0;
    const open = () =>
      createDb(
        t.url
          ? { databaseUrl: t.url, maxConnections: 2 }
          : { dataDir, ...(opened++ === 0 && migrated ? { restoreFrom: migrated } : {}) },
      );
    try {
      const before = await open();
      await enqueue(before.db, { kind: "test.restart", key: "test.restart:1", runAt: at(60_000) });
      const first = runner(before.db);
      const ran: Date[] = [];
      first.register("test.restart", async (job) => void ran.push(job.now));
      expect(await first.runDue(at(30_000))).toEqual({ ran: 0, failed: 0 });
      await first.stop();
      await before.close();

      // Down while the job fell due; back five minutes later.
      const after = await open();
      try {
        const second = runner(after.db);
        second.register("test.restart", async (job) => void ran.push(job.now));
        expect(await second.runDue(at(5 * 60_000))).toEqual({ ran: 1, failed: 0 });
        expect(await second.runDue(at(6 * 60_000))).toEqual({ ran: 0, failed: 0 });
        const third = runner(after.db);
        third.register("test.restart", async (job) => void ran.push(job.now));
        expect(await third.runDue(at(60 * 60_000))).toEqual({ ran: 0, failed: 0 });
      } finally {
        await after.close();
      }
      expect(ran).toEqual([at(5 * 60_000)]);
    } finally {
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("failures", () => {
  it("retries a failing handler with backoff, then gives up with last_error, logging no payload", async () => {
    const log = recordingLog();
    const failing = runner(t.db, { log });
    const attempts: number[] = [];
    failing.register(
      "test.fail",
      async (job) => {
        attempts.push(job.attempt);
        throw Object.assign(new Error("mail server said no"), { code: "EENVELOPE" });
      },
      { maxAttempts: 3, backoffMs: 1_000 },
    );
    await enqueue(t.db, {
      kind: "test.fail",
      key: "test.fail:1",
      runAt: T0,
      payload: { note: "private-diagnosis-text" },
    });

    expect(await failing.runDue(T0)).toEqual({ ran: 0, failed: 1 });
    expect(await rowsOf("test.fail")).toMatchObject([
      { attempts: 1, runAt: at(1_000), doneAt: null, lastError: "Error EENVELOPE: mail server said no" },
    ]);
    expect(await failing.runDue(at(999))).toEqual({ ran: 0, failed: 0 });
    expect(await failing.runDue(at(1_000))).toEqual({ ran: 0, failed: 1 });
    // Doubled: 2 s after the second attempt.
    expect(await failing.runDue(at(2_999))).toEqual({ ran: 0, failed: 0 });
    expect(await failing.runDue(at(3_000))).toEqual({ ran: 0, failed: 1 });
    expect(await failing.runDue(at(59 * 60_000))).toEqual({ ran: 0, failed: 0 });

    expect(attempts).toEqual([1, 2, 3]);
    expect(await rowsOf("test.fail")).toMatchObject([
      {
        attempts: 3,
        doneAt: at(3_000),
        lockedUntil: null,
        lastError: "Error EENVELOPE: mail server said no",
      },
    ]);
    expect(log.lines.map((line) => [line.level, line.attempt])).toEqual([
      ["warn", 1],
      ["warn", 2],
      ["error", 3],
    ]);
    expect(JSON.stringify(log.lines)).not.toContain("private-diagnosis-text");
  });

  it("a job that succeeds after a failure is done with no error left", async () => {
    const flaky = runner();
    let calls = 0;
    flaky.register(
      "test.flaky",
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("once");
      },
      { backoffMs: 1_000 },
    );
    await enqueue(t.db, { kind: "test.flaky", key: "test.flaky:1", runAt: T0 });
    await flaky.runDue(T0);
    expect(await flaky.runDue(at(1_000))).toEqual({ ran: 1, failed: 0 });
    expect(await rowsOf("test.flaky")).toMatchObject([{ attempts: 2, doneAt: at(1_000), lastError: null }]);
  });
});

describe("recurring jobs", () => {
  it("run one interval after the first start, then every interval, once across processes", async () => {
    const runs: Array<[number, Date]> = [];
    const runners = [t.db, other.db].map((db, index) => {
      const each = runner(db);
      each.every("test.sweep", 60_000, async (job) => void runs.push([index, job.now]));
      return each;
    });
    await Promise.all(runners.map((each) => each.runDue(T0)));
    expect(runs).toEqual([]);
    expect(await rowsOf("test.sweep")).toMatchObject([{ dedupeKey: "every:test.sweep", runAt: at(60_000) }]);

    await Promise.all(runners.map((each) => each.runDue(at(60_000))));
    await Promise.all(runners.map((each) => each.runDue(at(90_000))));
    await Promise.all(runners.map((each) => each.runDue(at(120_000))));
    expect(runs.map(([, now]) => now)).toEqual([at(60_000), at(120_000)]);
    expect(await rowsOf("test.sweep")).toMatchObject([{ runAt: at(180_000), attempts: 0, doneAt: null }]);
  });

  it("a recurring job failing on every attempt waits for its next time, and is never given up", async () => {
    const failing = runner(t.db);
    failing.every(
      "test.broken-sweep",
      60_000,
      async () => {
        throw new Error("disk full");
      },
      { maxAttempts: 2, backoffMs: 1_000 },
    );
    await failing.runDue(T0);
    expect(await failing.runDue(at(60_000))).toEqual({ ran: 0, failed: 1 });
    expect(await failing.runDue(at(61_000))).toEqual({ ran: 0, failed: 1 });
    expect(await rowsOf("test.broken-sweep")).toMatchObject([
      { runAt: at(121_000), attempts: 0, doneAt: null, lastError: "Error: disk full" },
    ]);
  });

  it("deletes finished one-off jobs some days after, keeping the rest", async () => {
    const cleaning = runner(t.db, { keepDoneMs: 24 * 60 * 60_000 });
    cleaning.register("test.old", async () => undefined);
    await enqueue(t.db, { kind: "test.old", key: "test.old:done", runAt: T0 });
    await enqueue(t.db, { kind: "test.old", key: "test.old:later", runAt: at(10 * 24 * 60 * 60_000) });
    await cleaning.runDue(T0);
    await cleaning.runDue(at(2 * 24 * 60 * 60_000));
    expect((await rowsOf("test.old")).map((row) => row.dedupeKey)).toEqual(["test.old:later"]);
  });
});

describe("polling", () => {
  it("start() runs due jobs every pollMs; stop() waits for the job under way and runs no more", async () => {
    const polling = createJobRunner({ db: t.db, clock: systemClock, log: recordingLog(), pollMs: 20 });
    let finish: () => void = () => undefined;
    const ran: string[] = [];
    let started: () => void = () => undefined;
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    polling.register("test.poll", async (job) => {
      started();
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      ran.push(job.key);
    });
    await enqueue(t.db, { kind: "test.poll", key: "test.poll:1", runAt: new Date(Date.now() - 1000) });
    polling.start();
    await firstStarted;
    await enqueue(t.db, { kind: "test.poll", key: "test.poll:2", runAt: new Date(Date.now() - 1000) });
    const stopped = polling.stop();
    finish();
    await stopped;
    expect(ran).toEqual(["test.poll:1"]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ran).toEqual(["test.poll:1"]);
    expect(
      await t.db.select().from(jobs).where(like(jobs.dedupeKey, "test.poll:%")).orderBy(asc(jobs.dedupeKey)),
    ).toMatchObject([
      { dedupeKey: "test.poll:1", attempts: 1 },
      { dedupeKey: "test.poll:2", attempts: 0, lockedUntil: null, doneAt: null },
    ]);
  });
});

describe("the API's sweeps", () => {
  it("are recurring jobs of the app: visit expiry and renewals every minute, the others every 15 or 60 minutes", async () => {
    const clock = createManualClock(T0);
    const app = await createTestApp({ clock, seed: false });
    try {
      const called: string[] = [];
      app.app.visits.runDue = async () => {
        called.push("visits");
        return { expired: 0, settled: 0 };
      };
      app.app.membership.runDue = async () => {
        called.push("membership");
        return 0;
      };
      await app.app.jobs.runDue(T0);
      const keys = async () =>
        (await app.db.db.select().from(jobs).orderBy(asc(jobs.dedupeKey))).map((row) => [
          row.dedupeKey,
          row.runAt,
        ]);
      expect(await keys()).toEqual([
        ["every:accounts.token-sweep", at(15 * 60_000)],
        ["every:communications.captcha-sweep", at(15 * 60_000)],
        ["every:consultations.visit-expiry", at(60_000)],
        ["every:jobs.cleanup", at(60 * 60_000)],
        ["every:live.event-sweep", at(15 * 60_000)],
        ["every:membership.renewals", at(60_000)],
        ["every:notifications.delivery-sweep", at(60 * 60_000)],
      ]);
      expect(await app.app.jobs.runDue(at(60_000))).toEqual({ ran: 2, failed: 0 });
      expect(called.sort()).toEqual(["membership", "visits"]);
      expect(await app.app.jobs.runDue(at(15 * 60_000))).toEqual({ ran: 5, failed: 0 });
    } finally {
      await app.close();
    }
  });
});
