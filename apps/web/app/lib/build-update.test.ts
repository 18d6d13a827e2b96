import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BUILD_ID_MIN_CHECK_GAP_MS,
  BUILD_ID_POLL_INTERVAL_MS,
  createBuildIdPoller,
  fullLoadTarget,
} from "#app/lib/build-update.ts";

function visibility(initial: DocumentVisibilityState = "visible") {
  const listeners = new Set<() => void>();
  return {
    visibilityState: initial,
    addEventListener: (_type: "visibilitychange", listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: "visibilitychange", listener: () => void) => listeners.delete(listener),
    set(state: DocumentVisibilityState) {
      this.visibilityState = state;
      for (const listener of listeners) listener();
    },
    get listeners() {
      return listeners.size;
    },
  };
}

describe("createBuildIdPoller", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(answers: Array<string | null | Error>) {
    const fetchBuildId = vi.fn(async () => {
      const next = answers.length > 1 ? answers.shift() : answers[0];
      if (next instanceof Error) throw next;
      return next ?? null;
    });
    const onNewBuild = vi.fn();
    const poller = createBuildIdPoller({
      currentBuildId: "build-a",
      fetchBuildId,
      onNewBuild,
      now: Date.now,
    });
    return { poller, fetchBuildId, onNewBuild };
  }

  it("asks every 5 minutes, and not before", async () => {
    expect(BUILD_ID_POLL_INTERVAL_MS).toBe(300_000);
    const { poller, fetchBuildId, onNewBuild } = setup(["build-a"]);
    poller.start();
    await vi.advanceTimersByTimeAsync(BUILD_ID_POLL_INTERVAL_MS - 1);
    expect(fetchBuildId).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchBuildId).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BUILD_ID_POLL_INTERVAL_MS);
    expect(fetchBuildId).toHaveBeenCalledTimes(2);
    expect(onNewBuild).not.toHaveBeenCalled();
    poller.stop();
  });

  it("reports a new build once, then stops polling", async () => {
    const { poller, fetchBuildId, onNewBuild } = setup(["build-a", "build-b"]);
    poller.start();
    await vi.advanceTimersByTimeAsync(BUILD_ID_POLL_INTERVAL_MS * 2);
    expect(onNewBuild).toHaveBeenCalledExactlyOnceWith("build-b");
    await vi.advanceTimersByTimeAsync(BUILD_ID_POLL_INTERVAL_MS * 3);
    expect(fetchBuildId).toHaveBeenCalledTimes(2);
    expect(await poller.check()).toBe(true);
  });

  it("checks when the tab becomes visible again, at most once per 10 s", async () => {
    const { poller, fetchBuildId, onNewBuild } = setup(["build-a", "build-a", "build-b"]);
    const tab = visibility();
    poller.start(tab);
    tab.set("hidden");
    expect(fetchBuildId).not.toHaveBeenCalled();
    tab.set("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchBuildId).toHaveBeenCalledTimes(1);
    tab.set("hidden");
    tab.set("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchBuildId).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(BUILD_ID_MIN_CHECK_GAP_MS);
    tab.set("hidden");
    tab.set("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchBuildId).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(BUILD_ID_MIN_CHECK_GAP_MS);
    tab.set("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(onNewBuild).toHaveBeenCalledExactlyOnceWith("build-b");
    expect(tab.listeners).toBe(0);
  });

  it("skips the timed check while the tab is hidden", async () => {
    const { poller, fetchBuildId } = setup(["build-a"]);
    const tab = visibility("hidden");
    poller.start(tab);
    await vi.advanceTimersByTimeAsync(BUILD_ID_POLL_INTERVAL_MS * 3);
    expect(fetchBuildId).not.toHaveBeenCalled();
    poller.stop();
  });

  it("does not take an unreachable server or an error for a new build", async () => {
    const { poller, onNewBuild } = setup([null, new Error("offline"), "build-a"]);
    expect(await poller.check()).toBe(false);
    expect(await poller.check()).toBe(false);
    expect(await poller.check()).toBe(false);
    expect(onNewBuild).not.toHaveBeenCalled();
  });

  it("shares one request between checks made at the same time", async () => {
    const { poller, fetchBuildId } = setup(["build-a"]);
    await Promise.all([poller.check(), poller.check()]);
    expect(fetchBuildId).toHaveBeenCalledTimes(1);
  });
});

describe("fullLoadTarget", () => {
  const here = "https://ambercare.test/find-a-doctor?q=skin";
  const stale = { currentHref: here, buildStale: true, offlineWithServiceWorker: false };
  const fresh = { currentHref: here, buildStale: false, offlineWithServiceWorker: false };

  it("turns a link navigation into a full load once the build changed", () => {
    expect(fullLoadTarget({ to: "/membership" }, stale)?.href).toBe("https://ambercare.test/membership");
    expect(fullLoadTarget({ to: "/find-a-doctor?q=eyes", formMethod: "get" }, stale)?.href).toBe(
      "https://ambercare.test/find-a-doctor?q=eyes",
    );
  });

  it("lets the router navigate while the build is the same", () => {
    expect(fullLoadTarget({ to: "/membership" }, fresh)).toBeNull();
  });

  it("turns a navigation into a full load when offline under a service worker (offline page)", () => {
    expect(fullLoadTarget({ to: "/about" }, { ...fresh, offlineWithServiceWorker: true })?.pathname).toBe(
      "/about",
    );
  });

  it.each([
    ["a history step", { to: -1 }],
    ["a form submission", { to: "/login", formMethod: "post", formData: new FormData() }],
    ["a GET form with its data", { to: "/find-a-doctor", formMethod: "get", formData: new FormData() }],
    ["a JSON submission", { to: "/api", formMethod: "post", body: { a: 1 } }],
    ["another origin", { to: "https://elsewhere.test/" }],
    ["an in-page anchor", { to: "/find-a-doctor?q=skin#results" }],
  ])("leaves %s to the router", (_label, info) => {
    expect(fullLoadTarget(info, stale)).toBeNull();
  });
});
