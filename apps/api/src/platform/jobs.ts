import type { Database, Executor, Transaction } from "@ambercare/db/client";
import { jobs } from "@ambercare/db/schema";
import { and, asc, eq, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { Clock } from "#api/platform/clock.ts";
import { serializeError } from "#api/platform/logging.ts";

/**
 * Durable jobs (ADR 060): rows of the `jobs` table, run once by whichever API process claims them
 * first. Every few seconds each process claims due rows (`FOR UPDATE SKIP LOCKED`), leasing each for
 * `leaseMs` and counting the claim in `attempts`; runs the handler its module registered for the
 * kind; and marks the row done only if the claim is still its own (same `attempts` and lease), so a
 * runner that lost its lease (it stalled past it and another took the job over) cannot finish the
 * job a second time. A process that dies mid-run leaves a lease that runs out: another runner claims
 * the job again. A handler whose database writes must count once calls `job.complete(tx => …)`:
 * its writes and the done mark commit together, or neither does.
 */

export type NewJob = {
  kind: string;
  /** Unique across all jobs: enqueueing a key that exists does nothing (`booking.reminder:<id>:60`). */
  key: string;
  runAt: Date;
  /** Ids and small non-health fields only: the handler reads the rest when it runs. */
  payload?: Record<string, unknown>;
};

/**
 * Adds a job unless one with its key exists; answers whether it was added. Takes a transaction, so
 * a job is enqueued with the change that calls for it (a booking and its reminders) or not at all.
 */
export async function enqueue(executor: Executor, job: NewJob): Promise<boolean> {
  const added = await executor
    .insert(jobs)
    .values({ kind: job.kind, dedupeKey: job.key, runAt: job.runAt, payload: job.payload ?? {} })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  return added.length > 0;
}

/** Several jobs in one insert (one round trip); a key already queued is skipped, as `enqueue` does. */
export async function enqueueAll(executor: Executor, all: readonly NewJob[]): Promise<void> {
  if (all.length === 0) return;
  await executor
    .insert(jobs)
    .values(
      all.map((job) => ({
        kind: job.kind,
        dedupeKey: job.key,
        runAt: job.runAt,
        payload: job.payload ?? {},
      })),
    )
    .onConflictDoNothing({ target: jobs.dedupeKey });
}

/** What a handler is given. */
export type Job = {
  id: string;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  runAt: Date;
  /** 1 on the first run, then 2, 3… */
  attempt: number;
  /** The runner's time for this run (the injected clock's). */
  now: Date;
  /**
   * Runs `work` in a transaction that first marks this job done: the handler's writes and the done
   * mark commit together. Throws (and rolls `work` back) when the claim is no longer this runner's.
   * A handler that does not call it is marked done when it returns.
   */
  complete<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
};

export type JobHandler = (job: Job) => Promise<void>;

export type HandlerOptions = {
  /** Runs before giving up (a recurring job waits for its next time instead). Default 5. */
  maxAttempts?: number;
  /** Wait before the second run; doubled for each further one, at most an hour. Default 30 s. */
  backoffMs?: number;
};

export type JobRunner = {
  /** The handler of one kind of one-off job. */
  register(kind: string, handler: JobHandler, options?: HandlerOptions): void;
  /**
   * A recurring job (a sweep): one row, first due `intervalMs` after the first run of any runner,
   * then `intervalMs` after each run. Every process registers it; one runs it each time.
   */
  every(kind: string, intervalMs: number, handler: JobHandler, options?: HandlerOptions): void;
  /** Claims and runs what is due at `now`, until nothing is; answers what happened. */
  runDue(now?: Date): Promise<{ ran: number; failed: number }>;
  /** Polls every `pollMs` until `stop()`. */
  start(): void;
  /** Stops polling and waits for the job under way; the jobs claimed but not started are let go. */
  stop(): Promise<void>;
};

type Log = {
  warn(object: Record<string, unknown>, message: string): void;
  error(object: Record<string, unknown>, message: string): void;
};

export type JobRunnerOptions = {
  db: Database;
  clock: Clock;
  log: Log;
  /** Between polls. Default 5 s. */
  pollMs?: number;
  /** How long a claim holds a job: longer than any handler takes. Default 5 minutes. */
  leaseMs?: number;
  /** Jobs claimed at once. Default 10. */
  batchSize?: number;
  /** Finished one-off jobs are deleted this long after (their keys may then be enqueued again). */
  keepDoneMs?: number;
};

const MAX_BACKOFF_MS = 60 * 60_000;
const RECURRING_PREFIX = "every:";
/** The runner's own sweep: finished one-off jobs older than `keepDoneMs`. */
export const JOBS_CLEANUP_KIND = "jobs.cleanup";

type Registered = {
  handler: JobHandler;
  maxAttempts: number;
  backoffMs: number;
  /** Set for a recurring job. */
  intervalMs?: number;
};

type ClaimedRow = typeof jobs.$inferSelect & { lockedUntil: Date };

/** A claim that is no longer the runner's: its lease ran out and another runner took the job. */
export class JobLeaseLostError extends Error {}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, clock, log } = options;
  const pollMs = options.pollMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const batchSize = options.batchSize ?? 10;
  const keepDoneMs = options.keepDoneMs ?? 14 * 24 * 60 * 60_000;
  const handlers = new Map<string, Registered>();
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopping = false;

  function add(kind: string, registered: Registered): void {
    if (handlers.has(kind)) throw new Error(`A job handler for ${kind} is registered already`);
    handlers.set(kind, registered);
    scheduled = false;
  }

  /** The recurring jobs' rows, made once per runner (every process makes them; the key keeps one). */
  async function scheduleRecurring(now: Date): Promise<void> {
    if (scheduled) return;
    for (const [kind, registered] of handlers) {
      if (registered.intervalMs === undefined) continue;
      await enqueue(db, {
        kind,
        key: `${RECURRING_PREFIX}${kind}`,
        runAt: new Date(now.getTime() + registered.intervalMs),
      });
    }
    scheduled = true;
  }

  async function claim(now: Date): Promise<ClaimedRow[]> {
    const kinds = [...handlers.keys()];
    if (kinds.length === 0) return [];
    const leaseUntil = new Date(now.getTime() + leaseMs);
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          isNull(jobs.doneAt),
          lte(jobs.runAt, now),
          or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now)),
          // Only the kinds this process knows: during a rolling deploy an older process leaves a new
          // kind to the newer ones instead of failing it.
          inArray(jobs.kind, kinds),
        ),
      )
      .orderBy(asc(jobs.runAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    const rows = await db
      .update(jobs)
      .set({ lockedUntil: leaseUntil, attempts: sql`${jobs.attempts} + 1` })
      .where(inArray(jobs.id, due))
      .returning();
    return rows
      .map((row) => ({ ...row, lockedUntil: leaseUntil }))
      .sort((x, y) => x.runAt.getTime() - y.runAt.getTime());
  }

  /** The claim's fence: this row, this claim (attempts), this lease, not finished. */
  const fence = (row: ClaimedRow): SQL | undefined =>
    and(
      eq(jobs.id, row.id),
      eq(jobs.attempts, row.attempts),
      eq(jobs.lockedUntil, row.lockedUntil),
      isNull(jobs.doneAt),
    );

  /** Marks a run finished: done, or (a recurring job) due again one interval on. */
  async function finish(executor: Executor, row: ClaimedRow, registered: Registered, now: Date) {
    const finished = await executor
      .update(jobs)
      .set(
        registered.intervalMs === undefined
          ? { doneAt: now, lockedUntil: null, lastError: null }
          : {
              runAt: new Date(now.getTime() + registered.intervalMs),
              lockedUntil: null,
              attempts: 0,
              lastError: null,
            },
      )
      .where(fence(row))
      .returning({ id: jobs.id });
    return finished.length > 0;
  }

  async function fail(row: ClaimedRow, registered: Registered, now: Date, error: unknown): Promise<void> {
    const lastError = describeJobError(error);
    const logged = { job: row.id, kind: row.kind, attempt: row.attempts, err: serializeError(error) };
    let change: Partial<typeof jobs.$inferInsert>;
    if (row.attempts < registered.maxAttempts) {
      const wait = Math.min(registered.backoffMs * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
      change = { runAt: new Date(now.getTime() + wait), lockedUntil: null, lastError };
      log.warn({ ...logged, retryInMs: wait }, "job failed; it will be retried");
    } else if (registered.intervalMs !== undefined) {
      change = {
        runAt: new Date(now.getTime() + registered.intervalMs),
        lockedUntil: null,
        attempts: 0,
        lastError,
      };
      log.error(logged, "recurring job failed on every attempt; it runs again at its next time");
    } else {
      change = { doneAt: now, lockedUntil: null, lastError };
      log.error(logged, "job failed on its last attempt; given up");
    }
    await db.update(jobs).set(change).where(fence(row));
  }

  async function run(row: ClaimedRow, now: Date): Promise<boolean> {
    const registered = handlers.get(row.kind);
    if (!registered) return false;
    let completed = false;
    const job: Job = {
      id: row.id,
      kind: row.kind,
      key: row.dedupeKey,
      payload: row.payload,
      runAt: row.runAt,
      attempt: row.attempts,
      now,
      async complete(work) {
        if (completed) throw new Error("job.complete may be called once");
        const answer = await db.transaction(async (tx) => {
          // The done mark first: it locks the row, so nobody can claim it while `work` runs.
          if (!(await finish(tx, row, registered, now))) throw new JobLeaseLostError("job lease lost");
          return work(tx);
        });
        completed = true;
        return answer;
      },
    };
    try {
      await registered.handler(job);
    } catch (error) {
      if (error instanceof JobLeaseLostError) {
        log.warn(
          { job: row.id, kind: row.kind },
          "job lease ran out before it finished; another runner has it",
        );
        return false;
      }
      await fail(row, registered, now, error);
      return false;
    }
    if (!completed && !(await finish(db, row, registered, now))) {
      log.warn(
        { job: row.id, kind: row.kind },
        "job lease ran out before it finished; another runner has it",
      );
    }
    return true;
  }

  /** Lets go of claimed jobs not started (shutdown), so another runner need not wait for the lease. */
  async function release(rows: ClaimedRow[]): Promise<void> {
    for (const row of rows) {
      await db
        .update(jobs)
        .set({ lockedUntil: null, attempts: sql`${jobs.attempts} - 1` })
        .where(fence(row));
    }
  }

  async function runDue(now: Date = clock.now()) {
    await scheduleRecurring(now);
    let ran = 0;
    let failed = 0;
    while (!stopping) {
      const rows = await claim(now);
      for (let index = 0; index < rows.length; index++) {
        if (stopping) {
          await release(rows.slice(index));
          break;
        }
        const row = rows[index] as ClaimedRow;
        if (await run(row, now)) ran += 1;
        else failed += 1;
        // A turn of the event loop between jobs: on PGlite a query runs in this process and can
        // resolve without one, so a backlog (a request's notification checks for 50 clinicians) would
        // otherwise hold the sockets and requests back for seconds.
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Until a claim finds nothing: a job may queue another due at once (a cancel's e-mail).
      if (rows.length === 0) break;
    }
    return { ran, failed };
  }

  function tick(): void {
    timer = undefined;
    running = runDue()
      .catch((error: unknown) => log.warn({ err: serializeError(error) }, "job run failed"))
      .finally(() => {
        running = undefined;
        if (!stopping) {
          timer = setTimeout(tick, pollMs);
          timer.unref();
        }
      });
  }

  const runner: JobRunner = {
    register(kind, handler, handlerOptions = {}) {
      add(kind, {
        handler,
        maxAttempts: handlerOptions.maxAttempts ?? 5,
        backoffMs: handlerOptions.backoffMs ?? 30_000,
      });
    },
    every(kind, intervalMs, handler, handlerOptions = {}) {
      add(kind, {
        handler,
        intervalMs,
        maxAttempts: handlerOptions.maxAttempts ?? 3,
        backoffMs: handlerOptions.backoffMs ?? Math.min(30_000, intervalMs),
      });
    },
    runDue,
    start() {
      if (timer || running) return;
      stopping = false;
      timer = setTimeout(tick, pollMs);
      timer.unref();
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
  runner.every(JOBS_CLEANUP_KIND, 60 * 60_000, async ({ now }) => {
    await db.delete(jobs).where(lt(jobs.doneAt, new Date(now.getTime() - keepDoneMs)));
  });
  return runner;
}

/**
 * What `last_error` keeps of a failure: the error's type, code and message, scrubbed as the logs
 * are (no query parameters, no quoted input), at most 500 characters.
 */
export function describeJobError(error: unknown): string {
  const described = serializeError(error);
  const text = `${described.type}${described.code ? ` ${described.code}` : ""}: ${described.message}`;
  return text.slice(0, 500);
}
