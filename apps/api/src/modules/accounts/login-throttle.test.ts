import { describe, expect, it, vi } from "vitest";
import { createLocalGate, createLoginThrottle } from "#api/modules/accounts/login-throttle.ts";
import type { AttemptCounterRepository, Count } from "#api/platform/attempt-counter-repository.ts";
import { createManualClock } from "#api/platform/clock.ts";

/** The counters' rules in memory, with every call counted by kind. */
function countingCounters() {
  const buckets = new Map<string, { hits: number; resetAt: Date }>();
  const calls = { hit: 0, count: 0, release: 0, clearAll: 0 };
  const counters: AttemptCounterRepository = {
    async hit(key, windowMs, now): Promise<Count> {
      calls.hit++;
      const bucket = buckets.get(key);
      const next =
        !bucket || bucket.resetAt <= now
          ? { hits: 1, resetAt: new Date(now.getTime() + windowMs) }
          : { hits: bucket.hits + 1, resetAt: bucket.resetAt };
      buckets.set(key, next);
      return { ...next };
    },
    async count(key, now) {
      calls.count++;
      const bucket = buckets.get(key);
      return bucket && bucket.resetAt > now ? bucket.hits : 0;
    },
    async release(key) {
      calls.release++;
      const bucket = buckets.get(key);
      if (bucket) bucket.hits = Math.max(bucket.hits - 1, 0);
    },
    async clearAll(keys) {
      calls.clearAll++;
      for (const key of keys) buckets.delete(key);
    },
  };
  return { counters, calls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("createLocalGate", () => {
  it("lets `capacity` holders in at once and the next in line in as each leaves, in order", async () => {
    const enter = createLocalGate(2, 60_000);
    const order: number[] = [];
    const leaves: Array<() => void> = [];
    const entered = [0, 1, 2, 3].map((i) =>
      enter("k").then((leave) => {
        order.push(i);
        leaves[i] = leave;
      }),
    );
    await tick();
    expect(order).toEqual([0, 1]);
    leaves[1]?.();
    leaves[1]?.(); // leaving twice frees one place only
    await tick();
    expect(order).toEqual([0, 1, 2]);
    leaves[0]?.();
    await Promise.all(entered);
    expect(order).toEqual([0, 1, 2, 3]);
    // Other keys never wait for this one.
    await expect(enter("other")).resolves.toBeTypeOf("function");
  });

  it("frees a place that is never given back after `maxHoldMs`", async () => {
    // On the test's own clock: a real 20 ms timer is measured from the event loop's cached time,
    // which a loaded machine leaves stale, so a wall-clock check of it fails for no fault of the gate.
    vi.useFakeTimers();
    try {
      const enter = createLocalGate(1, 20);
      await enter("k");
      let second = false;
      const entered = enter("k").then(() => {
        second = true;
      });
      await vi.advanceTimersByTimeAsync(19);
      expect(second).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await entered;
      expect(second).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("login throttle in one process", () => {
  it("queues many right passwords for one account in memory: no attempt polls the shared counters", async () => {
    const { counters, calls } = countingCounters();
    const throttle = createLoginThrottle({
      counters,
      clock: createManualClock(),
      keyHash: (p, v) => `${p}:${v}`,
    });
    const inFlight = { now: 0, most: 0 };
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const attempt = await throttle.begin({
          email: "a@example.com",
          ip: `203.0.113.${i}`,
          countAccount: true,
        });
        inFlight.now++;
        inFlight.most = Math.max(inFlight.most, inFlight.now);
        await tick(); // the password check
        inFlight.now--;
        await attempt.succeeded();
      }),
    );
    // Five at a time (the account's limit), none refused, and one hit per counter per attempt:
    // before the queue, the 35 waiting attempts looked at the counters again every few milliseconds.
    expect(inFlight.most).toBe(5);
    expect(calls.count).toBe(0);
    expect(calls.hit).toBe(80);
    expect(calls.clearAll).toBe(40);
  });
});
