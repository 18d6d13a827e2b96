import { beforeEach, describe, expect, it, vi } from "vitest";
import { createHeartbeat, type PingableSocket } from "./live.ts";

/** A socket that records its pings and answers them while `answers` says so. */
function fakeSocket(answers = true) {
  const pongs: Array<() => void> = [];
  const socket = {
    answers,
    pings: 0,
    terminated: false,
    ping() {
      socket.pings += 1;
      if (socket.answers) for (const pong of pongs) pong();
    },
    terminate() {
      socket.terminated = true;
    },
    on(_event: "pong", listener: () => void) {
      pongs.push(listener);
    },
  } satisfies PingableSocket & Record<string, unknown>;
  return socket;
}

/** One interval, then the few milliseconds a round's later batches take (each waits a timer turn). */
async function nextRound() {
  await vi.advanceTimersByTimeAsync(1_000);
  await vi.advanceTimersByTimeAsync(50);
}

describe("createHeartbeat", () => {
  // Fake timers for each test, real ones again after it.
  beforeEach(() => {
    vi.useFakeTimers();
    return () => vi.useRealTimers();
  });

  it("pings every socket once a round from one timer, and terminates one that missed the previous pong", async () => {
    const heartbeat = createHeartbeat(1_000, 2);
    const silent = fakeSocket();
    const sockets = [fakeSocket(), fakeSocket(), fakeSocket(), silent, fakeSocket()];
    for (const socket of sockets) heartbeat.add(socket);
    expect(vi.getTimerCount()).toBe(1);
    await nextRound();
    expect(sockets.map((socket) => socket.pings)).toEqual([1, 1, 1, 1, 1]);

    silent.answers = false;
    await nextRound();
    expect(silent).toMatchObject({ pings: 2, terminated: false });
    await nextRound();
    expect(silent).toMatchObject({ pings: 2, terminated: true });
    expect(sockets.filter((socket) => socket.terminated)).toHaveLength(1);
    expect(heartbeat.size).toBe(4);
    heartbeat.stop();
  });

  it("walks a round in batches, yielding between them", async () => {
    const heartbeat = createHeartbeat(1_000, 2);
    const sockets = Array.from({ length: 5 }, () => fakeSocket());
    for (const socket of sockets) heartbeat.add(socket);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sockets.map((socket) => socket.pings)).toEqual([1, 1, 0, 0, 0]);
    await vi.advanceTimersByTimeAsync(50);
    expect(sockets.map((socket) => socket.pings)).toEqual([1, 1, 1, 1, 1]);
    heartbeat.stop();
  });

  it("stops pinging a removed socket, and nothing after stop()", async () => {
    const heartbeat = createHeartbeat(1_000);
    const kept = fakeSocket();
    const removed = fakeSocket(false);
    heartbeat.add(kept);
    heartbeat.add(removed)();
    for (let round = 0; round < 3; round += 1) await nextRound();
    expect(kept.pings).toBe(3);
    expect(removed).toMatchObject({ pings: 0, terminated: false });
    heartbeat.stop();
    for (let round = 0; round < 3; round += 1) await nextRound();
    expect(kept.pings).toBe(3);
  });
});
