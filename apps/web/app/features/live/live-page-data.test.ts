import { describe, expect, it } from "vitest";
import {
  createPageDataReader,
  outcomeOf,
  retryDelay,
  revalidateForOwnForms,
} from "#app/features/live/live-page-data.tsx";
import { keepInUseInterval } from "#app/lib/session-use.ts";

/** A fetch whose answers the test gives one by one, and timers the test runs by hand. */
function harness() {
  const requests: { url: string; init: RequestInit; answer: (response: Response | Error) => void }[] = [];
  const timers: { run: () => void; ms: number; cleared: boolean }[] = [];
  const seen = { data: [] as unknown[], failures: [] as number[], reloads: 0 };
  const reader = createPageDataReader<{ n: number }>({
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
      const timer = { run, ms, cleared: false };
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

describe("a live page's re-read", () => {
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
    expect(seen.failures).toEqual([1]);
    expect(seen.data).toEqual([]);
    expect(pendingTimers().map((timer) => timer.ms)).toEqual([3_000]);
    pendingTimers()[0]?.run();
    requests[1]?.answer(new TypeError("Failed to fetch"));
    await settle();
    expect(seen.failures).toEqual([1, 2]);
    expect(pendingTimers().at(-1)?.ms).toBe(6_000);
    pendingTimers().at(-1)?.run();
    requests[2]?.answer(json({ n: 3 }));
    await settle();
    expect(seen.failures).toEqual([1, 2, 0]);
    expect(seen.data).toEqual([{ n: 3 }]);
  });

  it("reads at once on a live event while it waits to try again", async () => {
    const { reader, requests, timers, seen } = harness();
    reader.read();
    requests[0]?.answer(json({}, 429));
    await settle();
    reader.read();
    expect(timers[0]?.cleared).toBe(true);
    expect(requests).toHaveLength(2);
    requests[1]?.answer(json({ n: 2 }));
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

describe("the router's re-read of a live page", () => {
  const currentUrl = new URL("https://care.example/my-profile/consultations/v1");
  it("runs after the page's own forms and on navigations, not after another route's form", () => {
    const base = { currentUrl, defaultShouldRevalidate: true };
    expect(
      revalidateForOwnForms({ ...base, formMethod: "POST", formAction: "/my-profile/consultations/v1" }),
    ).toBe(true);
    expect(
      revalidateForOwnForms({
        ...base,
        formMethod: "POST",
        formAction: "/my-profile/consultations/v1?index",
      }),
    ).toBe(true);
    expect(revalidateForOwnForms({ ...base, formMethod: "POST", formAction: "/support-message" })).toBe(
      false,
    );
    expect(revalidateForOwnForms({ ...base, formMethod: "POST", formAction: "/cookie-consent" })).toBe(false);
    expect(revalidateForOwnForms(base)).toBe(true);
    expect(revalidateForOwnForms({ ...base, defaultShouldRevalidate: false })).toBe(false);
  });
});

describe("keeping a session in use", () => {
  it("uses it every 5 minutes, and at least three times per idle timeout", () => {
    expect(keepInUseInterval(30)).toBe(5 * 60_000);
    expect(keepInUseInterval(9)).toBe(3 * 60_000);
    expect(keepInUseInterval(3)).toBe(60_000);
  });
});
