import { data } from "react-router";
import { describe, expect, it } from "vitest";
import {
  FIRST_RETRY_MS,
  forgetShown,
  isPassingFailure,
  LAST_RETRY_MS,
  loadOrKeep,
  rememberShown,
  retryDelay,
} from "#app/features/live/kept-page-data.ts";

/** What React Router's serverLoader throws for a loader that threw `data(null, { status })`. */
async function thrownBy(status: number): Promise<unknown> {
  const { createStaticHandler } = await import("react-router");
  const handler = createStaticHandler([
    {
      id: "page",
      path: "/",
      loader: () => {
        throw data(null, { status });
      },
    },
  ]);
  const context = await handler.query(new Request("http://site.test/"));
  if (context instanceof Response) throw new Error("no context");
  return context.errors?.page;
}

const failing = (error: unknown) => () => Promise.reject(error);

describe("a live page's re-read", () => {
  it("keeps what the page showed when the API throttles, restarts or the network drops, counting failures", async () => {
    const key = "visit:a";
    rememberShown(key, { status: "accepted" });
    expect(await loadOrKeep(key, failing(await thrownBy(429)))).toEqual({
      status: "accepted",
      refreshFailures: 1,
    });
    expect(await loadOrKeep(key, failing(await thrownBy(503)))).toMatchObject({ refreshFailures: 2 });
    expect(await loadOrKeep(key, failing(new TypeError("Failed to fetch")))).toMatchObject({
      refreshFailures: 3,
    });
    // A re-read that works is the page's new data, and the count starts again.
    expect(await loadOrKeep(key, async () => ({ status: "in_progress" }))).toEqual({ status: "in_progress" });
    expect(await loadOrKeep(key, failing(new Error("Unexpected Server Error")))).toEqual({
      status: "in_progress",
      refreshFailures: 1,
    });
    forgetShown(key);
  });

  it("lets the page's real answers through: redirects, 401, 403, 404", async () => {
    const key = "visit:b";
    rememberShown(key, { status: "accepted" });
    const login = new Response(null, { status: 302, headers: { Location: "/login" } });
    await expect(loadOrKeep(key, failing(login))).rejects.toBe(login);
    for (const status of [401, 403, 404]) {
      const answer = await thrownBy(status);
      expect(isPassingFailure(answer)).toBe(false);
      await expect(loadOrKeep(key, failing(answer))).rejects.toBe(answer);
    }
    forgetShown(key);
  });

  it("keeps nothing for a page not shown yet: its first load fails as usual", async () => {
    const error = new Error("Unexpected Server Error");
    await expect(loadOrKeep("visit:never-shown", failing(error))).rejects.toBe(error);
    rememberShown("visit:c", { status: "requested" });
    forgetShown("visit:c");
    await expect(loadOrKeep("visit:c", failing(error))).rejects.toBe(error);
  });

  it("tries again after 3 s, doubling to a minute", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelay)).toEqual([
      FIRST_RETRY_MS,
      6_000,
      12_000,
      24_000,
      48_000,
      LAST_RETRY_MS,
      LAST_RETRY_MS,
      LAST_RETRY_MS,
    ]);
  });
});
