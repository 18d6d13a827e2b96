import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Options } from "@node-rs/argon2";

/**
 * Where argon2id runs (ADR 069): a few worker threads of this process, each at a lower scheduling
 * priority (a thread's nice value, Linux), so that a storm of logins uses the cores the requests
 * leave idle instead of sharing them equally: the other pages stay fast while logins queue, and a
 * login still gets every idle core. At most one hash per thread at a time; the rest wait in order.
 */

/** How much lower the hashing threads run: niceness 5 weighs about a third of a normal thread. */
const HASH_NICENESS = 5;

type Job =
  | { op: "hash"; password: string; options: Options }
  | { op: "verify"; hashed: string; password: string };

type Pending = { job: Job; resolve: (value: string | boolean) => void; reject: (error: Error) => void };

// Plain JavaScript run with `eval`, so that it needs no loader (the API runs TypeScript through tsx).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { setPriority } = require("node:os");
const argon2 = require(workerData.argon2);
try { setPriority(0, workerData.niceness); } catch {}
parentPort.on("message", (job) => {
  try {
    const value = job.op === "hash"
      ? argon2.hashSync(job.password, job.options)
      : argon2.verifySync(job.hashed, job.password);
    parentPort.postMessage({ value });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

function createHashPool(size: number) {
  const argon2 = createRequire(import.meta.url).resolve("@node-rs/argon2");
  const queue: Pending[] = [];
  /** Threads waiting for work: each takes the next job when given one. */
  const idle: Array<(job: Pending) => void> = [];
  let threads = 0;

  const startThread = () => {
    threads += 1;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2, niceness: HASH_NICENESS } });
    // The threads never keep the process alive: a server or a test ends when its work is done.
    worker.unref();
    let current: Pending | undefined;
    const take = (pending: Pending) => {
      current = pending;
      worker.postMessage(pending.job);
    };
    const next = () => {
      const pending = queue.shift();
      if (pending) take(pending);
      else idle.push(take);
    };
    worker.on("message", (answer: { value?: string | boolean; error?: string }) => {
      const done = current;
      current = undefined;
      if (answer.error !== undefined) done?.reject(new Error(answer.error));
      else if (answer.value !== undefined) done?.resolve(answer.value);
      next();
    });
    let stopped = false;
    const lost = (error: Error) => {
      if (stopped) return;
      stopped = true;
      current?.reject(error);
      current = undefined;
      const at = idle.indexOf(take);
      if (at >= 0) idle.splice(at, 1);
      threads -= 1;
      // Another thread takes its place for the jobs still waiting.
      if (queue.length > 0) startThread();
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`the password hashing thread stopped (${code})`)));
    next();
  };

  return {
    run(job: Job): Promise<string | boolean> {
      return new Promise((resolve, reject) => {
        const pending = { job, resolve, reject };
        const thread = idle.pop();
        if (thread) return thread(pending);
        queue.push(pending);
        if (threads < size) startThread();
      });
    },
  };
}

let pool: ReturnType<typeof createHashPool> | undefined;
const hashPool = () => {
  pool ??= createHashPool(Math.max(1, availableParallelism()));
  return pool;
};

/** argon2 hash of `password` with `options`, on a hashing thread. */
export async function hashOffThread(password: string, options: Options): Promise<string> {
  return (await hashPool().run({ op: "hash", password, options })) as string;
}

/** Whether `password` matches the argon2 `hashed`, on a hashing thread (throws for a malformed hash). */
export async function verifyOffThread(hashed: string, password: string): Promise<boolean> {
  return (await hashPool().run({ op: "verify", hashed, password })) as boolean;
}
