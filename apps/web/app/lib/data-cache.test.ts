import { DATA_CACHE } from "@ambercare/contracts/timing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDataReader, outcomeOf, RETRY_PAUSE_MS, readOnce, retryDelay } from "#app/lib/data-cache.ts";

/** A fetch whose answers the test gives one by one, and timers the test runs by hand. */
function harness() {
  const requests: { url: string; init: RequestInit; answer: (response: Response | Error) => void }[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const seen = { data: [] as unknown[], failures: [] as number[], reloads: 0 };
  const reader = createDataReader<{ n: number }>({
    url: "/my-profile/consultations/v1/data",
    fetch: (url, init) =>
      new Promise<Response>((resolve, reject) => {
        requests.push({
          url,
          init,
          answer: (response) => (response instanceof Error ? reject(response) : resolve(response)),
        });
      }),
    onData: (data) => seen.data.push(data),
    onFailures: (failures) => seen.failures.push(failures),
    onReload: () => {
      seen.reloads += 1;
    },
    setTimer: (run, ms) => {
      // A timer that ran is no longer pending.
      const timer = {
        run: () => {
          timer.cleared = true;
          run();
        },
        ms,
        cleared: false,
      };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const pendingTimers = () => timers.filter((timer) => !timer.cleared);
  return { reader, requests, timers, pendingTimers, seen };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("a page's re-read of its data", () => {
  it("tells the page's real answer from a passing failure", () => {
    expect(outcomeOf(json({}))).toBe("data");
    // Trying again would not change a 4xx: the page's own load shows what it means.
    for (const status of [400, 401, 403, 404, 409, 410]) expect(outcomeOf(json({}, status))).toBe("reload");
    expect(outcomeOf({ ok: false, status: 0, type: "opaqueredirect" })).toBe("reload");
    for (const status of [408, 429, 500, 502, 503, 504]) expect(outcomeOf(json({}, status))).toBe("retry");
  });

  it("waits 3 s after a first failure, doubling up to a minute", () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([
      3_000, 6_000, 12_000, 24_000, 48_000, 60_000, 60_000,
    ]);
  });

  it("reads the page's route with the session, never following a redirect, and hands over the data", async () => {
    const { reader, requests, seen } = harness();
    reader.read();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe("/my-profile/consultations/v1/data");
    expect(requests[0]?.init).toMatchObject({
      credentials: "same-origin",
      redirect: "manual",
      cache: "no-store",
    });
    requests[0]?.answer(json({ n: 1 }));
    await settle();
    expect(seen.data).toEqual([{ n: 1 }]);
    expect(seen.failures).toEqual([]);
  });

  it("runs one read at a time, and the reads asked for meanwhile as one more after it", async () => {
    const { reader, requests, seen } = harness();
    reader.read();
    reader.read();
    reader.read();
    expect(requests).toHaveLength(1);
    requests[0]?.answer(json({ n: 1 }));
    await settle();
    // The events that came during the first read may have changed the data: one more read.
    expect(requests).toHaveLength(2);
    requests[1]?.answer(json({ n: 2 }));
    await settle();
    expect(requests).toHaveLength(2);
    expect(seen.data).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("keeps the page through failures (a 503, the network), tries again later and later, and says when it worked", async () => {
    const { reader, requests, pendingTimers, seen } = harness();
    reader.read();
    requests[0]?.answer(json({ error: "unavailable" }, 503));
    await settle();
    // The spec's one retry comes first, and the page hears nothing of it.
    expect(seen.failures).toEqual([]);
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([RETRY_PAUSE_MS]);
    pendingTimers()[0]?.run();
    requests[1]?.answer(json({ error: "unavailable" }, 503));
    await settle();
    expect(seen.failures).toEqual([1]);
    expect(seen.data).toEqual([]);
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([3_000]);
    pendingTimers()[0]?.run();
    requests[2]?.answer(new TypeError("Failed to fetch"));
    await settle();
    expect(seen.failures).toEqual([1, 2]);
    expect(pendingTimers().at(-1)?.ms).toBe(6_000);
    pendingTimers().at(-1)?.run();
    requests[3]?.answer(json({ n: 3 }));
    await settle();
    expect(seen.failures).toEqual([1, 2, 0]);
    expect(seen.data).toEqual([{ n: 3 }]);
  });

  it("reads at once on a live event while it waits to try again", async () => {
    const { reader, requests, timers, seen } = harness();
    reader.read();
    requests[0]?.answer(json({}, 429));
    await settle();
    timers[0]?.run();
    requests[1]?.answer(json({}, 429));
    await settle();
    reader.read();
    expect(timers[1]?.cleared).toBe(true);
    expect(requests).toHaveLength(3);
    requests[2]?.answer(json({ n: 2 }));
    await settle();
    expect(seen.data).toEqual([{ n: 2 }]);
    expect(seen.failures).toEqual([1, 0]);
  });

  it("loads the page again on its real answer (the session ended, the visit is gone) and reads no more", async () => {
    const { reader, requests, seen } = harness();
    reader.read();
    requests[0]?.answer(json({ error: "session_ended" }, 401));
    await settle();
    expect(seen.reloads).toBe(1);
    reader.read();
    expect(requests).toHaveLength(1);
  });

  it("drops an answer overtaken by the router's newer data, reads once more, and forgets earlier failures", async () => {
    const { reader, requests, pendingTimers, seen } = harness();
    reader.read();
    reader.supersede();
    requests[0]?.answer(json({ n: 1 }));
    await settle();
    expect(seen.data).toEqual([]);
    // The dropped read may have carried a change the router's load missed: it is read again.
    expect(requests).toHaveLength(2);
    requests[1]?.answer(json({ n: 2 }));
    await settle();
    expect(seen.data).toEqual([{ n: 2 }]);

    reader.read();
    requests[2]?.answer(json({}, 502));
    await settle();
    pendingTimers()[0]?.run();
    requests[3]?.answer(json({}, 502));
    await settle();
    expect(pendingTimers()).toHaveLength(1);
    reader.supersede();
    expect(pendingTimers()).toHaveLength(0);
    expect(seen.failures).toEqual([1, 0]);
  });

  it("stops: no read, no answer handed over, no timer left", async () => {
    const { reader, requests, pendingTimers, seen } = harness();
    reader.read();
    reader.stop();
    expect(requests[0]?.init.signal?.aborted).toBe(true);
    requests[0]?.answer(json({ n: 1 }));
    await settle();
    reader.read();
    expect(requests).toHaveLength(1);
    expect(seen.data).toEqual([]);
    expect(pendingTimers()).toHaveLength(0);
  });
});

/** A reader on real timers (faked by the test) and a server that answers at once, as told. */
function onTimers(answers: (Response | Error)[]) {
  const urls: string[] = [];
  const seen = { data: [] as unknown[], failures: [] as number[] };
  let next = 0;
  const reader = createDataReader<{ n: number }>({
    url: "/my-profile/consultations/v1/data",
    fetch: async (url) => {
      urls.push(url);
      const answer = answers[Math.min(next++, answers.length - 1)] ?? json({ n: next });
      if (answer instanceof Error) throw answer;
      return answer.clone();
    },
    onData: (data) => seen.data.push(data),
    onFailures: (failures) => seen.failures.push(failures),
    onReload: () => undefined,
  });
  return { reader, urls, seen };
}

describe("the spec's data cache (stale after 5 s, one retry)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("serves a refresh within 5 s of the last answer from it, and reads once it is stale", async () => {
    const { reader, urls } = onTimers([json({ n: 1 })]);
    reader.read("refresh");
    await vi.advanceTimersByTimeAsync(0);
    expect(urls).toHaveLength(1);

    // The live link comes back 2 s later, and again: the answer is younger than 5 s.
    await vi.advanceTimersByTimeAsync(2_000);
    reader.read("refresh");
    reader.read("refresh");
    await vi.advanceTimersByTimeAsync(0);
    expect(urls).toHaveLength(1);
    // A change in those 2 s is not lost: one read follows when the answer turns stale.
    await vi.advanceTimersByTimeAsync(DATA_CACHE.staleTimeMs - 2_001);
    expect(urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(urls).toHaveLength(2);
  });

  it("reads a refresh at once when the last answer is 5 s old", async () => {
    const { reader, urls } = onTimers([json({ n: 1 })]);
    reader.read("refresh");
    await vi.advanceTimersByTimeAsync(DATA_CACHE.staleTimeMs);
    expect(urls).toHaveLength(1);
    reader.read("refresh");
    await vi.advanceTimersByTimeAsync(0);
    expect(urls).toHaveLength(2);
  });

  it("reads at once when a live event says the data changed, however fresh the answer", async () => {
    const { reader, urls, seen } = onTimers([json({ n: 1 }), json({ n: 2 })]);
    reader.read("refresh");
    await vi.advanceTimersByTimeAsync(100);
    reader.read("changed");
    await vi.advanceTimersByTimeAsync(0);
    expect(urls).toHaveLength(2);
    expect(seen.data).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("tries a failed read once more before the page hears of it", async () => {
    const { reader, urls, seen } = onTimers([json({}, 503), json({ n: 2 })]);
    reader.read();
    await vi.advanceTimersByTimeAsync(0);
    expect(urls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(RETRY_PAUSE_MS);
    expect(urls).toHaveLength(2);
    expect(seen.data).toEqual([{ n: 2 }]);
    // One failure: the page never said it was out of date.
    expect(seen.failures).toEqual([]);
  });

  it("says the page is out of date after two failures, then backs off from 3 s", async () => {
    const { reader, urls, seen } = onTimers([
      json({}, 503),
      new TypeError("Failed to fetch"),
      json({ n: 3 }),
    ]);
    reader.read();
    await vi.advanceTimersByTimeAsync(RETRY_PAUSE_MS);
    expect(urls).toHaveLength(2);
    expect(seen.failures).toEqual([1]);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(urls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(urls).toHaveLength(3);
    expect(seen.failures).toEqual([1, 0]);
    expect(seen.data).toEqual([{ n: 3 }]);
  });

  it("reads once for a call's set-up, tries a passing failure once more, never a real answer", async () => {
    const answers = [json({}, 502), json({ setup: "s" })];
    const urls: string[] = [];
    const fetcher = async (url: string) => {
      urls.push(url);
      return answers.shift() ?? json({}, 500);
    };
    const read = readOnce<{ setup: string }>("/visit-call/v1?side=patient", { fetch: fetcher });
    await vi.advanceTimersByTimeAsync(RETRY_PAUSE_MS);
    await expect(read).resolves.toEqual({ outcome: "data", data: { setup: "s" } });
    expect(urls).toHaveLength(2);

    answers.push(json({}, 503), json({}, 503), json({ setup: "never" }));
    const twice = readOnce("/visit-call/v1?side=patient", { fetch: fetcher });
    await vi.advanceTimersByTimeAsync(RETRY_PAUSE_MS);
    await expect(twice).resolves.toEqual({ outcome: "retry", status: 503 });
    expect(urls).toHaveLength(4);

    answers.splice(0, answers.length, json({}, 401));
    await expect(readOnce("/visit-call/v1?side=patient", { fetch: fetcher })).resolves.toEqual({
      outcome: "reload",
      status: 401,
    });
    expect(urls).toHaveLength(5);

    // A refusal the page words itself comes with its code and figures.
    const details = { opens_at: "2027-06-07T16:05:00.000Z", time_zone: "America/Los_Angeles" };
    answers.splice(0, answers.length, json({ error: "CHECK_IN_NOT_OPEN", details }, 409));
    await expect(readOnce("/visit-call/v1?side=clinician", { fetch: fetcher })).resolves.toEqual({
      outcome: "reload",
      status: 409,
      refusal: { error: "CHECK_IN_NOT_OPEN", details },
    });
  });
});
