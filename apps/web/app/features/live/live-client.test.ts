import { describe, expect, it } from "vitest";
import {
  BACKOFF_CAP_MS,
  backoffDelay,
  createLiveClient,
  type LiveSocket,
  type LiveState,
} from "#app/features/live/live-client.ts";

/** A socket the test drives by hand: what the page sent, and the server's side of each event. */
class FakeSocket implements LiveSocket {
  readyState = 0;
  sent: unknown[] = [];
  closedByClient = false;
  onopen: LiveSocket["onopen"] = null;
  onmessage: LiveSocket["onmessage"] = null;
  onclose: LiveSocket["onclose"] = null;
  onerror: LiveSocket["onerror"] = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closedByClient = true;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  /** The server's answer to `resume`: the starting point is set. */
  resumed(after = 0) {
    this.receive({ type: "resumed", after });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

/** Timers run by hand, in order of due time. */
function manualTimers() {
  let now = 0;
  let timers: Array<{ at: number; run: () => void; id: number }> = [];
  let nextId = 1;
  return {
    setTimer(run: () => void, ms: number) {
      const id = nextId++;
      timers.push({ at: now + ms, run, id });
      return id;
    },
    clearTimer(id: unknown) {
      timers = timers.filter((timer) => timer.id !== id);
    },
    /** The delays of the timers pending now. */
    pending: () => timers.map((timer) => timer.at - now),
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const due = timers[0];
        if (!due || due.at > until) break;
        timers.shift();
        now = due.at;
        due.run();
      }
      now = until;
    },
  };
}

function setup(options: { online?: () => boolean; random?: () => number } = {}) {
  const sockets: FakeSocket[] = [];
  const timers = manualTimers();
  let onlineListener: (() => void) | undefined;
  let offlineListener: (() => void) | undefined;
  const client = createLiveClient({
    url: "wss://site.test/live",
    openSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    isOnline: options.online ?? (() => true),
    onOnline: (listener) => {
      onlineListener = listener;
      return () => undefined;
    },
    onOffline: (listener) => {
      offlineListener = listener;
      return () => {
        offlineListener = undefined;
      };
    },
    random: options.random ?? (() => 0.5),
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
    pingIntervalMs: 15_000,
    pongTimeoutMs: 10_000,
  });
  const states: LiveState[] = [];
  client.onState((state) => states.push(state));
  return {
    client,
    sockets,
    timers,
    states,
    comeOnline: () => onlineListener?.(),
    goOffline: () => offlineListener?.(),
    listensForOffline: () => offlineListener !== undefined,
  };
}

const event = (id: number, topic = "visit.status") => ({ id, topic, payload: { visit_id: "v" } });

describe("backoffDelay", () => {
  it("doubles from half a second with a random half, and never exceeds 30 s", () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, () => 0))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(20, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(20, () => 0)).toBe(BACKOFF_CAP_MS / 2);
    expect(backoffDelay(1000, () => 0.5)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
  });
});

describe("the live client", () => {
  it("opens one socket for every listener, resumes from nothing, and delivers by topic", () => {
    const { client, sockets, states } = setup();
    const statuses: Array<number | null> = [];
    const all: Array<number | null> = [];
    client.subscribe(["visit.status"], (e) => statuses.push(e.id));
    client.subscribe([], (e) => all.push(e.id));
    expect(sockets).toHaveLength(1);
    sockets[0]?.open();
    expect(sockets[0]?.sent).toEqual([{ type: "resume", after: null }]);
    expect(states).toEqual([]);
    sockets[0]?.resumed();
    expect(states).toEqual(["connected"]);
    sockets[0]?.receive(event(5));
    sockets[0]?.receive(event(6, "visit.message"));
    expect(statuses).toEqual([5]);
    expect(all).toEqual([5, 6]);
    expect(client.lastEventId).toBe(6);
  });

  it("reconnects with growing back-off and resumes after the last event seen, dropping repeats", () => {
    const { client, sockets, timers, states } = setup();
    const seen: Array<number | null> = [];
    client.subscribe([], (e) => seen.push(e.id));
    sockets[0]?.open();
    sockets[0]?.receive(event(7));
    sockets[0]?.drop();
    expect(states.at(-1)).toBe("reconnecting");
    // Attempt 0 was reset by the frame heard: 0.5 s step, jitter 0.5 → 375 ms.
    expect(timers.pending()).toEqual([375]);
    timers.advance(375);
    expect(sockets).toHaveLength(2);
    sockets[1]?.drop();
    expect(timers.pending()).toEqual([750]);
    timers.advance(750);
    sockets[2]?.drop();
    expect(timers.pending()).toEqual([1500]);
    timers.advance(1500);
    sockets[3]?.open();
    expect(sockets[3]?.sent).toEqual([{ type: "resume", after: 7 }]);
    expect(states.at(-1)).toBe("reconnecting");
    sockets[3]?.resumed();
    sockets[3]?.receive(event(7));
    sockets[3]?.receive(event(8));
    expect(seen).toEqual([7, 8]);
    expect(states.at(-1)).toBe("connected");
  });

  it("treats a ping without an answer as a dead link and reconnects", () => {
    const { client, sockets, timers, states } = setup();
    client.subscribe([], () => undefined);
    sockets[0]?.open();
    timers.advance(15_000);
    expect(sockets[0]?.sent.at(-1)).toEqual({ type: "ping" });
    sockets[0]?.receive({ type: "pong" });
    timers.advance(15_000);
    expect(sockets[0]?.sent.at(-1)).toEqual({ type: "ping" });
    timers.advance(10_000);
    expect(sockets[0]?.closedByClient).toBe(true);
    expect(states.at(-1)).toBe("reconnecting");
    timers.advance(BACKOFF_CAP_MS);
    expect(sockets).toHaveLength(2);
  });

  it("waits offline while the browser is offline, and connects when it comes back", () => {
    let online = false;
    const { client, sockets, states, comeOnline } = setup({ online: () => online });
    client.subscribe([], () => undefined);
    expect(sockets).toHaveLength(0);
    expect(states).toEqual(["offline"]);
    online = true;
    comeOnline();
    expect(sockets).toHaveLength(1);
    sockets[0]?.open();
    sockets[0]?.resumed();
    expect(states).toEqual(["offline", "connected"]);
  });

  it("says offline as soon as the browser goes offline, and resumes after the last event when it is back", () => {
    let online = true;
    const { client, sockets, timers, states, comeOnline, goOffline } = setup({ online: () => online });
    const seen: Array<number | null> = [];
    client.subscribe([], (e) => seen.push(e.id));
    sockets[0]?.open();
    sockets[0]?.resumed();
    sockets[0]?.receive(event(4));
    // No heartbeat has failed yet: the browser's word is enough, and the dead socket is let go.
    online = false;
    goOffline();
    expect(states.at(-1)).toBe("offline");
    expect(sockets[0]?.closedByClient).toBe(true);
    expect(client.send({ type: "visit.typing" })).toBe(false);
    // No reconnect while offline, whatever the timers do.
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
    online = true;
    comeOnline();
    expect(sockets).toHaveLength(2);
    sockets[1]?.open();
    expect(sockets[1]?.sent[0]).toEqual({ type: "resume", after: 4 });
    sockets[1]?.resumed(4);
    sockets[1]?.receive(event(5));
    expect(seen).toEqual([4, 5]);
    expect(states.slice(-2)).toEqual(["offline", "connected"]);
  });

  it("stops listening for the browser going offline when closed", () => {
    const { client, listensForOffline } = setup();
    client.subscribe([], () => undefined);
    expect(listensForOffline()).toBe(true);
    client.close();
    expect(listensForOffline()).toBe(false);
  });

  it("passes relayed frames on without an id, keeps the resume point, and sends only while connected", () => {
    const { client, sockets } = setup();
    const typing: unknown[] = [];
    client.subscribe(["visit.typing"], (e) => typing.push(e));
    const frame = { type: "visit.typing", consultation_id: "c", typing: true };
    expect(client.send(frame)).toBe(false);
    sockets[0]?.open();
    // Open but not resumed: a relayed frame sent now could be answered before this page listens.
    expect(client.send(frame)).toBe(false);
    sockets[0]?.resumed();
    sockets[0]?.receive(event(3));
    sockets[0]?.receive({ topic: "visit.typing", payload: { consultation_id: "c", typing: true } });
    expect(typing).toEqual([
      { id: null, topic: "visit.typing", payload: { consultation_id: "c", typing: true } },
    ]);
    expect(client.lastEventId).toBe(3);
    expect(client.send(frame)).toBe(true);
    expect(sockets[0]?.sent.at(-1)).toEqual(frame);
    sockets[0]?.drop();
    expect(client.send(frame)).toBe(false);
  });

  it("is connected only once the server has resumed, so a re-read on connecting misses no event", () => {
    const { client, sockets } = setup();
    // A page re-reads its data when the client becomes connected (useLiveRevalidation). Event 9 is
    // committed after the socket opened but before the server set the starting point: at "open" it
    // would be in neither the re-read nor the events; after "resumed" it is in the re-read.
    const log: string[] = [];
    client.onState((state) => log.push(state));
    client.subscribe([], (e) => log.push(`event ${e.id}`));
    sockets[0]?.open();
    expect(log).toEqual([]);
    sockets[0]?.resumed();
    sockets[0]?.receive(event(10));
    expect(log).toEqual(["connected", "event 10"]);
    sockets[0]?.drop();
    expect(log.at(-1)).toBe("reconnecting");
  });

  it("stops reconnecting when the session has ended or the client is closed", () => {
    const { client, sockets, timers, states } = setup();
    client.subscribe([], () => undefined);
    sockets[0]?.open();
    sockets[0]?.drop(4401);
    expect(states.at(-1)).toBe("offline");
    expect(timers.pending()).toEqual([]);
    client.close();
    timers.advance(60_000);
    expect(sockets).toHaveLength(1);
  });
});
