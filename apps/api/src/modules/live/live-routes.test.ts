import type { AddressInfo } from "node:net";
import { LIVE_API_PATH, LIVE_CLOSE_CODES, LIVE_ERROR_CODES } from "@ambercare/contracts/live";
import { liveEvents } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createFrameBudget,
  createFrameGate,
  LIVE_FRAME_BURST,
  LIVE_FRAME_FLOOD,
  LIVE_MAX_SOCKETS_PER_SESSION,
} from "#api/modules/live/live-routes.ts";
import { LiveRefusedError, openLiveClient } from "#api/modules/live/live-test-client.ts";
import { createLogCapture, createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

let t: TestApp;
let url: string;
const logs = createLogCapture();
let alice: { user_id: string; access_token: string };
let bob: { user_id: string; access_token: string };
const typed: Array<{ userId: string; text: string }> = [];

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    env: { LOG_LEVEL: "info", LIVE_PING_INTERVAL_S: "1" },
    logStream: logs.stream,
  });
  t.app.live.onMessage(
    "typing",
    z.object({ type: z.literal("typing"), visit_id: z.uuid(), text: z.string().max(20) }).strict(),
    (message, context) => {
      if (message.text === "fail") throw new Error("the typing handler failed");
      typed.push({ userId: context.userId, text: message.text });
      context.send({ type: "typing.seen" });
    },
  );
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1${LIVE_API_PATH}`;
  alice = await registerPatient(t.app);
  bob = await registerPatient(t.app);
});

afterAll(async () => {
  await t.close();
});

const as = (user: { access_token: string }) => ({ authorization: `Bearer ${user.access_token}` });
const open = async (user: { access_token: string }, after: number | null = null) => {
  const client = await openLiveClient(url, as(user));
  client.send({ type: "resume", after });
  expect(await client.next()).toMatchObject({ type: "resumed" });
  return client;
};

describe("connecting", () => {
  it("refuses an upgrade without a token, or with an unknown one, with 401", async () => {
    await expect(openLiveClient(url)).rejects.toEqual(new LiveRefusedError(401));
    await expect(openLiveClient(url, { authorization: "Bearer not-a-token" })).rejects.toEqual(
      new LiveRefusedError(401),
    );
  });
});

describe("delivery", () => {
  it("delivers a published event to its recipient only", async () => {
    const aliceSocket = await open(alice);
    const bobSocket = await open(bob);
    const [id] = await t.app.live.publish([alice.user_id], "visit.status", {
      visit_id: "v1",
      status: "accepted",
    });
    expect(await aliceSocket.next()).toEqual({
      id,
      topic: "visit.status",
      payload: { visit_id: "v1", status: "accepted" },
    });
    expect(await bobSocket.quietFor(200)).toEqual([]);
    expect(await aliceSocket.quietFor(100)).toEqual([]);
    await Promise.all([aliceSocket.close(), bobSocket.close()]);
  });

  it("sends one event to every open page of each recipient", async () => {
    const first = await open(alice);
    const second = await open(alice);
    const bobSocket = await open(bob);
    const ids = await t.app.live.publish([alice.user_id, bob.user_id, alice.user_id], "queue.changed", {});
    expect(ids).toHaveLength(2);
    for (const client of [first, second, bobSocket]) {
      expect(await client.next()).toMatchObject({ topic: "queue.changed" });
      expect(await client.quietFor(100)).toEqual([]);
    }
    await Promise.all([first.close(), second.close(), bobSocket.close()]);
  });

  it("sends an event published in a transaction once it commits, and never after a rollback", async () => {
    const client = await open(alice);
    await expect(
      t.db.db.transaction(async (tx) => {
        await t.app.live.publish([alice.user_id], "visit.status", { visit_id: "rolled-back" }, tx);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const committed = await t.db.db.transaction(async (tx) =>
      t.app.live.publish([alice.user_id], "visit.status", { visit_id: "committed" }, tx),
    );
    expect(await client.next()).toEqual({
      id: committed[0],
      topic: "visit.status",
      payload: { visit_id: "committed" },
    });
    expect(await client.quietFor(200)).toEqual([]);
    await client.close();
  });

  it("refuses a payload too large for a notice and a topic that is not a dotted name", async () => {
    await expect(
      t.app.live.publish([alice.user_id], "visit.status", { text: "x".repeat(3000) }),
    ).rejects.toThrow(/over 2048 bytes/);
    await expect(t.app.live.publish([alice.user_id], "Visit Status", {})).rejects.toThrow(/bad topic/);
  });
});

describe("resume", () => {
  it("replays exactly the events after the last one seen, in order, then continues live", async () => {
    const first = await open(alice);
    const [seen] = await t.app.live.publish([alice.user_id], "visit.message", { message_id: "m1" });
    expect(await first.next()).toMatchObject({ id: seen });
    await first.close();

    const missed = [];
    for (const message of ["m2", "m3", "m4"]) {
      missed.push(...(await t.app.live.publish([alice.user_id], "visit.message", { message_id: message })));
    }
    await t.app.live.publish([bob.user_id], "visit.message", { message_id: "of-bob" });

    const again = await open(alice, seen ?? 0);
    const replayed = [await again.next(), await again.next(), await again.next()];
    expect(replayed).toEqual(
      missed.map((id, index) => ({ id, topic: "visit.message", payload: { message_id: `m${index + 2}` } })),
    );
    const [live] = await t.app.live.publish([alice.user_id], "visit.message", { message_id: "m5" });
    expect(await again.next()).toMatchObject({ id: live, payload: { message_id: "m5" } });
    expect(await again.quietFor(200)).toEqual([]);
    await again.close();
  });

  it("has no gap and no duplicate when events are published while the replay runs", async () => {
    const before = await t.app.live.publish([alice.user_id], "visit.message", { n: -1 });
    const published: number[] = [];
    for (let n = 0; n < 30; n++) {
      published.push(...(await t.app.live.publish([alice.user_id], "visit.message", { n })));
    }
    const client = await openLiveClient(url, as(alice));
    client.send({ type: "resume", after: before[0] });
    // Published while the replay is being read and sent, some concurrently with each other.
    const during = Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        t.app.live.publish([alice.user_id], "visit.message", { n: 30 + index }),
      ),
    );
    published.push(...(await during).flat());
    expect(await client.next()).toEqual({ type: "resumed", after: before[0] });
    const received = [];
    for (let i = 0; i < published.length; i++) received.push(((await client.next()) as { id: number }).id);
    expect(received).toEqual([...published].sort((a, b) => a - b));
    expect(await client.quietFor(200)).toEqual([]);
    await client.close();
  });

  it("answers a resume once its starting point is set: every event after it arrives, none before", async () => {
    // The page re-reads its data on this answer, so an event is either in that re-read (at or before
    // `after`) or sent to the page; publishing while the resume is handled must not lose one between.
    await t.app.live.publish([alice.user_id], "visit.status", { n: -1 });
    const client = await openLiveClient(url, as(alice));
    client.send({ type: "resume", after: null });
    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, n) => t.app.live.publish([alice.user_id], "visit.status", { n })),
    );
    const answer = (await client.next()) as { type: string; after: number };
    expect(answer).toEqual({ type: "resumed", after: expect.any(Number) });
    const [afterAnswer] = await t.app.live.publish([alice.user_id], "visit.status", { n: 10 });
    // Concurrent publishes get their ids in the order they take the recipient's lock, not the order
    // they were called in: the page receives them in id order.
    const expected = [
      ...racing
        .flat()
        .filter((id) => id > answer.after)
        .sort((a, b) => a - b),
      afterAnswer,
    ];
    const received = [];
    for (const _ of expected) received.push(((await client.next()) as { id: number }).id);
    expect(received).toEqual(expected);
    expect(await client.quietFor(150)).toEqual([]);
    await client.close();
  });

  it("starts from now when the page has seen nothing, and refuses a second resume", async () => {
    await t.app.live.publish([alice.user_id], "visit.message", { message_id: "old" });
    const client = await open(alice, null);
    expect(await client.quietFor(150)).toEqual([]);
    client.send({ type: "resume", after: 0 });
    expect(await client.next()).toEqual({ type: "error", code: "ALREADY_RESUMED", frame_type: "resume" });
    await client.close();
  });
});

describe("client frames", () => {
  it("answers bad frames with an error frame and keeps the connection", async () => {
    const client = await open(bob);
    client.send("not json");
    expect(await client.next()).toEqual({ type: "error", code: "BAD_FRAME" });
    client.send({ no: "type" });
    expect(await client.next()).toEqual({ type: "error", code: "BAD_FRAME" });
    client.send({ type: "teleport" });
    expect(await client.next()).toEqual({ type: "error", code: "UNKNOWN_TYPE", frame_type: "teleport" });
    client.send({ type: "ping", extra: true });
    expect(await client.next()).toEqual({ type: "error", code: "INVALID_FRAME", frame_type: "ping" });
    client.send({ type: "ping" });
    expect(await client.next()).toEqual({ type: "pong" });
    await client.close();
  });

  it("hands a valid frame to the handler registered for its type, with the sender's account", async () => {
    const client = await open(bob);
    client.send({ type: "typing", visit_id: "0b8e2a4c-6f51-4f36-9d8e-2b1f0e5c7a11", text: "secret-words" });
    expect(await client.next()).toEqual({ type: "typing.seen" });
    expect(typed).toEqual([{ userId: bob.user_id, text: "secret-words" }]);
    client.send({ type: "typing", visit_id: "not-a-uuid", text: "x" });
    expect(await client.next()).toEqual({ type: "error", code: "INVALID_FRAME", frame_type: "typing" });
    client.send({ type: "typing", visit_id: "0b8e2a4c-6f51-4f36-9d8e-2b1f0e5c7a11", text: "fail" });
    expect(await client.next()).toEqual({ type: "error", code: "FRAME_FAILED", frame_type: "typing" });
    await client.close();
    // What the user typed and what was published never reach the log.
    expect(logs.text()).toContain("a frame handler failed");
    expect(logs.text()).not.toContain("secret-words");
    expect(logs.text()).not.toContain("message_id");
  });

  it("throws when a second handler registers the same type", () => {
    expect(() => t.app.live.onMessage("typing", z.object({}), () => undefined)).toThrow(/already registered/);
  });
});

// These wait on the process's own rounds (LIVE_PING_INTERVAL_S, 1 s here), each on sockets of its
// own: side by side, they take as long as the longest (about 4 s) instead of their sum.
describe.concurrent("heartbeats, and sessions ended at their pace", () => {
  it("closes a connection whose pong does not come back", async () => {
    const silent = await openLiveClient(url, as(bob), { autoPong: false });
    const answering = await openLiveClient(url, as(bob));
    const started = Date.now();
    const { code } = await silent.closed;
    expect(code).toBe(1006);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(answering.socket.readyState).toBe(answering.socket.OPEN);
    await answering.close();
  });

  it("closes a connection that answered the pings and then stops, within two rounds", async () => {
    // The pings of one round for all sockets (LIVE_PING_INTERVAL_S, 1 s here): answered by hand.
    const client = await openLiveClient(url, as(alice), { autoPong: false });
    let answering = true;
    let answered = 0;
    let stoppedAt = 0;
    client.socket.on("ping", () => {
      if (!answering) return;
      client.socket.pong();
      answered += 1;
      if (answered === 2) {
        answering = false;
        stoppedAt = Date.now();
      }
    });
    const { code } = await client.closed;
    expect(code).toBe(1006);
    // It lived through the rounds it answered, and went within two intervals of its last answer.
    expect(answered).toBe(2);
    expect(Date.now() - stoppedAt).toBeLessThan(2 * 1_000 + 1_500);
  });

  it("closes the socket with 4401 once its session has been logged out", async () => {
    const carol = await registerPatient(t.app);
    const client = await open(carol);
    const logout = await t.app.inject({
      method: "POST",
      url: "/api/v1/api/auth/logout",
      headers: as(carol),
      payload: {},
    });
    expect(logout.statusCode).toBe(200);
    const started = Date.now();
    expect((await client.closed).code).toBe(4401);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe("limits of one session", () => {
  it("refuses a session's sockets beyond LIVE_MAX_SOCKETS_PER_SESSION with 429, and lets one in again when a page closes", async () => {
    const dave = await registerPatient(t.app);
    const pages = await Promise.all(
      Array.from({ length: LIVE_MAX_SOCKETS_PER_SESSION }, () => openLiveClient(url, as(dave))),
    );
    await expect(openLiveClient(url, as(dave))).rejects.toEqual(new LiveRefusedError(429));
    // Another person is not affected by Dave's pages.
    const other = await openLiveClient(url, as(bob));
    await other.close();
    await pages[0]?.close();
    const again = await openLiveClient(url, as(dave));
    await Promise.all([again, ...pages.slice(1)].map((page) => page.close()));
  });

  it("drops frames past the socket's rate with one RATE_LIMITED error, and closes a socket that keeps flooding with 4429", async () => {
    const erin = await registerPatient(t.app);
    const client = await open(erin);
    const before = typed.filter((entry) => entry.userId === erin.user_id).length;
    const frame = { type: "typing", visit_id: "00000000-0000-4000-8000-000000000001", text: "x" };
    for (let i = 0; i < LIVE_FRAME_BURST + LIVE_FRAME_FLOOD + 40; i += 1) client.send(frame);
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.tooManyFrames);
    const handled = typed.filter((entry) => entry.userId === erin.user_id).length - before;
    // The burst was handled (less the `resume` it began with, plus a few refilled), the rest dropped
    // without reaching the handler.
    expect(handled).toBeGreaterThanOrEqual(LIVE_FRAME_BURST - 1);
    expect(handled).toBeLessThan(LIVE_FRAME_BURST + 20);
    const errors = client.frames.filter((f) => (f as { type?: string }).type === "error");
    expect(errors).toEqual([{ type: "error", code: LIVE_ERROR_CODES.rateLimited }]);
  });

  it("lets a socket that slows down send again after a refused burst", () => {
    let now = 0;
    const budget = createFrameBudget(3, 2, () => now);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    now += 499;
    expect(budget.take()).toBe(false);
    now += 1;
    expect(budget.take()).toBe(true);
    now += 10_000;
    // Never more than the burst after a long pause.
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
  });

  it("keeps one flood one flood when a token refills in its middle, and starts afresh after a pause", () => {
    let now = 0;
    const gate = createFrameGate(3, 20, 10, () => now);
    expect([gate(), gate(), gate(), gate(), gate()]).toEqual(["handle", "handle", "handle", "warn", "drop"]);
    // A slow read of the flood: 50 ms pass, one frame gets through, the flood goes on.
    now += 50;
    expect([gate(), gate()]).toEqual(["handle", "drop"]);
    now += 50;
    expect(gate()).toBe("handle");
    const rest = Array.from({ length: 8 }, () => gate());
    expect(rest.filter((verdict) => verdict === "warn")).toEqual([]);
    expect(rest.at(-1)).toBe("close");
    // After a pause the socket is within its rate again: a new flood gets its own one warning.
    now += 1_000;
    expect([gate(), gate(), gate(), gate()]).toEqual(["handle", "handle", "handle", "warn"]);
  });
});

describe("sweep", () => {
  it("deletes events older than the given time and keeps the rest", async () => {
    const [old] = await t.app.live.publish([bob.user_id], "visit.status", {});
    await t.db.db
      .update(liveEvents)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60_000) })
      .where(eq(liveEvents.id, old ?? 0));
    const [recent] = await t.app.live.publish([bob.user_id], "visit.status", {});
    await t.app.live.deleteBefore(new Date(Date.now() - 24 * 60 * 60_000));
    const left = await t.db.db
      .select({ id: liveEvents.id })
      .from(liveEvents)
      .where(eq(liveEvents.userId, bob.user_id));
    expect(left.map((row) => row.id)).toContain(recent);
    expect(left.map((row) => row.id)).not.toContain(old);
  });
});
