import type { CallIceCandidate, CallSignal, CallSignalEvent } from "@ambercare/contracts/video-call-protocol";
import { describe, expect, it } from "vitest";
import {
  type CallPeer,
  CONNECT_STALL_MS,
  createCallConnection,
  createDescriptionAssembler,
  DISCONNECTED_GRACE_MS,
  RESTART_RETRY_MS,
  SETUP_REFRESH_FALLBACK_MS,
  setupRefreshDelay,
} from "#app/features/video-call/call-connection.ts";

/**
 * A peer connection whose signalling states follow the browser's (stable → have-local-offer →
 * stable; an offer in have-local-offer rolls back implicitly, as Chrome and Firefox do).
 */
class FakePeer implements CallPeer {
  signalingState: RTCSignalingState = "stable";
  connectionState: RTCPeerConnectionState = "new";
  remoteDescription: { type: RTCSdpType; sdp: string } | null = null;
  localDescription: { type: RTCSdpType; sdp: string } | null = null;
  onnegotiationneeded: CallPeer["onnegotiationneeded"] = null;
  onicecandidate: CallPeer["onicecandidate"] = null;
  ontrack: CallPeer["ontrack"] = null;
  onconnectionstatechange: CallPeer["onconnectionstatechange"] = null;
  added: (CallIceCandidate | null)[] = [];
  tracks: MediaStreamTrack[] = [];
  restarts = 0;
  closed = false;
  offers = 0;
  constructor(public configuration: RTCConfiguration) {}
  addTrack(track: MediaStreamTrack) {
    this.tracks.push(track);
    return { track } as unknown as RTCRtpSender;
  }
  getSenders() {
    return [];
  }
  async setLocalDescription() {
    if (this.signalingState === "have-remote-offer") {
      this.localDescription = { type: "answer", sdp: `answer-to-${this.remoteDescription?.sdp}` };
      this.signalingState = "stable";
      return;
    }
    this.offers += 1;
    this.localDescription = { type: "offer", sdp: `offer-${this.offers}` };
    this.signalingState = "have-local-offer";
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    if (description.sdp === "broken") throw new Error("InvalidAccessError");
    if (description.type === "answer" && this.signalingState !== "have-local-offer") {
      throw new Error("InvalidStateError");
    }
    this.remoteDescription = { type: description.type, sdp: description.sdp ?? "" };
    this.signalingState = description.type === "offer" ? "have-remote-offer" : "stable";
  }
  async addIceCandidate(candidate: CallIceCandidate | null) {
    if (!this.remoteDescription) throw new Error("InvalidStateError: no remote description");
    this.added.push(candidate);
  }
  restartIce() {
    this.restarts += 1;
  }
  getConfiguration() {
    return this.configuration;
  }
  setConfiguration(configuration: RTCConfiguration) {
    this.configuration = configuration;
  }
  close() {
    this.closed = true;
    this.connectionState = "closed";
  }
  /** The browser's connection state moves. */
  become(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.({});
  }
}

/** Timers the test runs by hand. */
function manualClock() {
  let time = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  return {
    now: () => time,
    setTimer: (run: () => void, ms: number) => {
      const id = next++;
      timers.set(id, { at: time + ms, run });
      return id;
    },
    clearTimer: (id: unknown) => {
      timers.delete(id as number);
    },
    advance(ms: number) {
      time += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at <= time && timers.has(id)) {
          timers.delete(id);
          timer.run();
        }
      }
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(polite: boolean) {
  const peers: FakePeer[] = [];
  const sent: CallSignal[] = [];
  const phases: string[] = [];
  const history: string[] = [];
  const remote: unknown[] = [];
  const presence: string[] = [];
  const clock = manualClock();
  /** The page's live link: while it is down (reconnecting), a signal cannot be sent. */
  const link = { up: true };
  const connection = createCallConnection({
    polite,
    iceServers: [{ urls: ["turn:127.0.0.1:3479"], username: "u", credential: "c" }],
    iceTransportPolicy: "relay",
    createPeer: (configuration) => {
      const peer = new FakePeer(configuration);
      peers.push(peer);
      return peer;
    },
    send: (signal) => {
      if (!link.up) return false;
      sent.push(signal);
      return true;
    },
    localStream: {
      getTracks: () => [{ kind: "audio" }, { kind: "video" }] as MediaStreamTrack[],
    } as MediaStream,
    onPhase: (phase) => phases.push(phase),
    onHistory: (event) => history.push(event),
    onRemoteMedia: (media) => remote.push(media),
    onRemotePresence: (next) => presence.push(next),
    createStream: (tracks) => ({ tracks }) as unknown as MediaStream,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
    now: clock.now,
  });
  const peer = () => peers[peers.length - 1] as FakePeer;
  const from = polite ? "clinician" : "patient";
  const receive = async (event: Record<string, unknown>) => {
    connection.receive({ consultation_id: "c", from, ...event } as CallSignalEvent);
    await settle();
  };
  /** A description as the API relays it: split into parts with one message id. */
  const description = async (type: "offer" | "answer", sdp: string, order?: number[]) => {
    const pieces = sdp.match(/.{1,4}/g) ?? [sdp];
    for (const index of order ?? pieces.map((_, i) => i)) {
      await receive({
        kind: "description",
        description_type: type,
        message_id: `m-${sdp}`,
        part: index,
        parts: pieces.length,
        sdp: pieces[index],
      });
    }
  };
  return {
    connection,
    peers,
    peer,
    sent,
    phases,
    history,
    remote,
    presence,
    clock,
    link,
    receive,
    description,
  };
}

const kinds = (signals: CallSignal[]) => signals.map((signal) => signal.kind);

describe("the description assembler", () => {
  it("joins the parts of a description arriving in any order, and only once all are in", () => {
    const assembler = createDescriptionAssembler();
    const part = (index: number, sdp: string) => ({
      consultation_id: "c",
      from: "clinician" as const,
      kind: "description" as const,
      description_type: "offer" as const,
      message_id: "m1",
      part: index,
      parts: 3,
      sdp,
    });
    expect(assembler.add(part(2, "ccc"))).toBeNull();
    expect(assembler.pending).toBe(true);
    expect(assembler.add(part(0, "aaa"))).toBeNull();
    expect(assembler.add(part(1, "bbb"))).toEqual({ type: "offer", sdp: "aaabbbccc" });
    expect(assembler.pending).toBe(false);
  });

  it("ignores a part whose numbers make no sense", () => {
    const assembler = createDescriptionAssembler();
    const bad = {
      consultation_id: "c",
      from: "patient" as const,
      kind: "description" as const,
      description_type: "answer" as const,
      message_id: "m",
      part: 3,
      parts: 2,
      sdp: "x",
    };
    expect(assembler.add(bad)).toBeNull();
    expect(assembler.pending).toBe(false);
  });
});

describe("the call's connection", () => {
  it("joins with a new connection carrying this page's tracks and ICE settings, says hello, and records the join", async () => {
    const call = setup(true);
    call.connection.join();
    expect(call.peers).toHaveLength(1);
    expect(call.peer().configuration).toEqual({
      iceServers: [{ urls: ["turn:127.0.0.1:3479"], username: "u", credential: "c" }],
      iceTransportPolicy: "relay",
    });
    expect(call.peer().tracks.map((track) => track.kind)).toEqual(["audio", "video"]);
    expect(kinds(call.sent)).toEqual(["hello"]);
    expect(call.history).toEqual(["join"]);
  });

  it("keeps a connected call when its live socket comes back, and starts afresh when it is not connected", async () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    call.sent.length = 0;
    call.connection.resume();
    // The media never went through the server: the same connection, the media state sent again.
    expect(call.peers).toHaveLength(1);
    expect(call.peer().connectionState).toBe("connected");
    expect(kinds(call.sent)).toEqual(["media"]);
    expect(call.phases).toEqual(["connected"]);

    call.peer().become("failed");
    call.sent.length = 0;
    call.connection.resume();
    expect(call.peers).toHaveLength(2);
    expect(kinds(call.sent)).toEqual(["hello"]);
  });

  it("sends its offer when negotiation is needed and applies the answer", async () => {
    const call = setup(false);
    call.connection.join();
    call.peer().onnegotiationneeded?.({});
    await settle();
    expect(call.sent.at(-1)).toEqual({ kind: "description", description: { type: "offer", sdp: "offer-1" } });
    await call.description("answer", "answer-sdp-long", [3, 1, 0, 2]);
    expect(call.peer().signalingState).toBe("stable");
    expect(call.peer().remoteDescription).toEqual({ type: "answer", sdp: "answer-sdp-long" });
  });

  it("answers an offer joined from parts", async () => {
    const call = setup(true);
    call.connection.join();
    await call.description("offer", "offer-from-clinician", [4, 2, 0, 1, 3]);
    expect(call.peer().remoteDescription?.sdp).toBe("offer-from-clinician");
    expect(call.sent.at(-1)).toEqual({
      kind: "description",
      description: { type: "answer", sdp: "answer-to-offer-from-clinician" },
    });
  });

  it("holds candidates that arrive before their description and adds them, in order, once it is applied", async () => {
    const call = setup(true);
    call.connection.join();
    const first = { candidate: "candidate:1 1 udp 1 127.0.0.1 5000 typ host", sdpMid: "0" };
    const second = { candidate: "candidate:2 1 udp 1 127.0.0.1 5001 typ host", sdpMid: "1" };
    await call.receive({ kind: "candidate", candidate: first });
    // Half of the offer is in: candidates still wait.
    await call.receive({
      kind: "description",
      description_type: "offer",
      message_id: "m",
      part: 1,
      parts: 2,
      sdp: "-b",
    });
    await call.receive({ kind: "candidate", candidate: second });
    expect(call.peer().added).toEqual([]);
    await call.receive({
      kind: "description",
      description_type: "offer",
      message_id: "m",
      part: 0,
      parts: 2,
      sdp: "a",
    });
    expect(call.peer().added).toEqual([first, second]);
    await call.receive({ kind: "candidate", candidate: null });
    expect(call.peer().added).toEqual([first, second, null]);
  });

  it("on an offer collision the impolite side (clinician) keeps its own offer", async () => {
    const call = setup(false);
    call.connection.join();
    call.peer().onnegotiationneeded?.({});
    await settle();
    await call.description("offer", "patient-offer");
    expect(call.peer().signalingState).toBe("have-local-offer");
    expect(call.peer().remoteDescription).toBeNull();
    expect(kinds(call.sent)).toEqual(["hello", "description"]);
    // The ignored offer's candidates fail quietly.
    await call.receive({ kind: "candidate", candidate: { candidate: "candidate:9", sdpMid: "0" } });
    expect(call.phases).not.toContain("reconnecting");
  });

  it("on an offer collision the polite side (patient) rolls back and answers", async () => {
    const call = setup(true);
    call.connection.join();
    call.peer().onnegotiationneeded?.({});
    await settle();
    await call.description("offer", "clinician-offer");
    expect(call.peer().signalingState).toBe("stable");
    expect(call.sent.at(-1)).toEqual({
      kind: "description",
      description: { type: "answer", sdp: "answer-to-clinician-offer" },
    });
  });

  it("ignores an answer to an offer this connection never made", async () => {
    const call = setup(false);
    call.connection.join();
    await call.description("answer", "stale-answer");
    expect(call.peer().remoteDescription).toBeNull();
    expect(call.peers).toHaveLength(1);
  });

  it("starts afresh (a new connection and hello) when a description cannot be applied", async () => {
    const call = setup(true);
    call.connection.join();
    call.clock.advance(10_000);
    await call.description("offer", "broken");
    expect(call.peers).toHaveLength(2);
    expect(call.peers[0]?.closed).toBe(true);
    expect(kinds(call.sent)).toEqual(["hello", "hello"]);
  });

  it("answers the other side's hello with a new connection and welcome; a welcome keeps the connection", async () => {
    const call = setup(false);
    call.connection.join();
    const first = call.peer();
    await call.receive({ kind: "welcome" });
    expect(call.peers).toHaveLength(1);
    await call.receive({ kind: "hello" });
    expect(first.closed).toBe(true);
    expect(call.peers).toHaveLength(2);
    expect(call.sent.at(-1)).toEqual({ kind: "welcome" });
  });

  it("restarts ICE after a few seconds disconnected, tells the other side, and records the recovery", async () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    expect(call.phases).toEqual(["connected"]);
    expect(call.sent.at(-1)).toEqual({ kind: "media", muted: false, camera_off: false, reconnecting: false });
    call.peer().become("disconnected");
    call.clock.advance(DISCONNECTED_GRACE_MS - 1);
    expect(call.peer().restarts).toBe(0);
    call.clock.advance(1);
    expect(call.peer().restarts).toBe(1);
    expect(call.phases).toEqual(["connected", "reconnecting"]);
    expect(call.sent.at(-1)).toEqual({ kind: "media", muted: false, camera_off: false, reconnecting: true });
    // The relay is still down: another restart.
    call.clock.advance(RESTART_RETRY_MS);
    expect(call.peer().restarts).toBe(2);
    call.peer().become("connected");
    expect(call.phases).toEqual(["connected", "reconnecting", "connected"]);
    expect(call.sent.at(-1)).toEqual({ kind: "media", muted: false, camera_off: false, reconnecting: false });
    expect(call.history).toEqual(["join", "reconnect"]);
    call.clock.advance(RESTART_RETRY_MS * 3);
    expect(call.peer().restarts).toBe(2);
  });

  it("lets a short disconnection recover by itself", async () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    call.peer().become("disconnected");
    call.clock.advance(1_000);
    call.peer().become("connected");
    call.clock.advance(DISCONNECTED_GRACE_MS * 2);
    expect(call.peer().restarts).toBe(0);
    expect(call.history).toEqual(["join"]);
  });

  it("restarts ICE at once when the connection failed", async () => {
    const call = setup(false);
    call.connection.join();
    call.peer().become("connected");
    call.peer().become("failed");
    expect(call.peer().restarts).toBe(1);
    expect(call.phases.at(-1)).toBe("reconnecting");
  });

  it("starts afresh when a negotiated connection stalls short of connected (ICE up, DTLS not)", async () => {
    const call = setup(false);
    call.connection.join();
    // The other side is not there yet: a connection waiting for its offer is no stall.
    call.clock.advance(CONNECT_STALL_MS.impolite * 3);
    expect(call.peers).toHaveLength(1);
    call.peer().onnegotiationneeded?.({});
    await settle();
    await call.description("answer", "answer-sdp");
    call.peer().become("connecting");
    call.clock.advance(CONNECT_STALL_MS.impolite - 1);
    expect(call.peers).toHaveLength(1);
    call.clock.advance(1);
    // A new connection and hello: the other side starts afresh with it.
    expect(call.peers).toHaveLength(2);
    expect(call.peers[0]?.closed).toBe(true);
    expect(kinds(call.sent).at(-1)).toBe("hello");
  });

  it("leaves a connection that came up, and the polite side waits longer before starting afresh", async () => {
    const impolite = setup(false);
    impolite.connection.join();
    impolite.peer().onnegotiationneeded?.({});
    await settle();
    await impolite.description("answer", "answer-sdp");
    impolite.peer().become("connected");
    impolite.clock.advance(CONNECT_STALL_MS.polite * 3);
    expect(impolite.peers).toHaveLength(1);

    const polite = setup(true);
    polite.connection.join();
    await polite.description("offer", "offer-from-clinician");
    polite.clock.advance(CONNECT_STALL_MS.impolite);
    expect(polite.peers).toHaveLength(1);
    polite.clock.advance(CONNECT_STALL_MS.polite - CONNECT_STALL_MS.impolite);
    expect(polite.peers).toHaveLength(2);
  });

  it("takes fresh TURN credentials into the running connection and every later one", async () => {
    const call = setup(false);
    call.connection.join();
    call.peer().become("connected");
    const fresh = [{ urls: ["turn:127.0.0.1:3479"], username: "u2", credential: "c2" }];
    call.connection.setIceServers(fresh);
    expect(call.peer().configuration).toEqual({ iceServers: fresh, iceTransportPolicy: "relay" });
    call.peer().become("failed");
    expect(call.peer().restarts).toBe(1);
    // A rejoin (a new socket) builds its connection with them too.
    call.connection.join();
    expect(call.peers).toHaveLength(2);
    expect(call.peer().configuration).toEqual({ iceServers: fresh, iceTransportPolicy: "relay" });
  });

  it("shows the other side's media state, and its departure", async () => {
    const call = setup(true);
    call.connection.join();
    await call.receive({ kind: "media", muted: true, camera_off: true, reconnecting: false });
    expect(call.remote.at(-1)).toEqual({ muted: true, cameraOff: true, reconnecting: false });
    await call.receive({ kind: "bye" });
    expect(call.remote.at(-1)).toEqual({ muted: false, cameraOff: false, reconnecting: false });
    expect(call.peers[0]?.closed).toBe(true);
    // A fresh connection waits for the other side's return.
    expect(call.peers).toHaveLength(2);
    expect(call.connection.phase).toBe("connecting");
  });

  it("says the other side left when it hangs up, and that it is back when it says hello", async () => {
    const call = setup(false);
    call.connection.join();
    await call.receive({ kind: "welcome" });
    call.peer().become("connected");
    expect(call.presence).toEqual(["present"]);
    await call.receive({ kind: "bye" });
    expect(call.presence).toEqual(["present", "left"]);
    await call.receive({ kind: "hello" });
    expect(call.presence).toEqual(["present", "left", "present"]);
  });

  it("tells the other side at once when this page goes away, and shows the other side's going", async () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    expect(call.connection.away()).toBe(true);
    expect(call.sent.at(-1)).toEqual({ kind: "away" });
    // Going away is no hang-up: the connection stays until the page is gone.
    expect(call.connection.phase).toBe("connected");
    // After a hang-up the other side had its bye: nothing is left to tell.
    call.connection.leave();
    const sentAfterBye = call.sent.length;
    expect(call.connection.away()).toBe(true);
    expect(call.sent.length).toBe(sentAfterBye);

    const other = setup(false);
    other.connection.join();
    other.peer().become("connected");
    const before = other.peer();
    await other.receive({ kind: "away" });
    expect(other.presence.at(-1)).toBe("away");
    expect(before.closed).toBe(true);
    expect(other.connection.phase).toBe("reconnecting");
    // The page comes back: hello, and the call is set up afresh.
    await other.receive({ kind: "hello" });
    expect(other.presence.at(-1)).toBe("present");
    expect(other.sent.at(-1)).toEqual({ kind: "welcome" });
  });

  it("says when its live link could not carry the going away, so the page asks the API to tell it", () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    call.link.up = false;
    expect(call.connection.away()).toBe(false);
    expect(call.sent.map((signal) => signal.kind)).not.toContain("away");
  });

  it("says the connection dropped as soon as the browser reports it, before restarting ICE", () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    call.peer().become("disconnected");
    expect(call.connection.phase).toBe("reconnecting");
    expect(call.peer().restarts).toBe(0);
    call.peer().become("connected");
    expect(call.connection.phase).toBe("connected");
  });

  it("sends this side's mute and camera state", () => {
    const call = setup(true);
    call.connection.join();
    call.connection.setMedia({ muted: true, cameraOff: false });
    expect(call.sent.at(-1)).toEqual({ kind: "media", muted: true, camera_off: false, reconnecting: false });
  });

  it("leaves with bye, closes the connection, records the leave, and ignores what comes after", async () => {
    const call = setup(true);
    call.connection.join();
    call.connection.leave();
    expect(call.sent.at(-1)).toEqual({ kind: "bye" });
    expect(call.peer().closed).toBe(true);
    expect(call.connection.phase).toBe("ended");
    expect(call.history).toEqual(["join", "leave"]);
    await call.receive({ kind: "hello" });
    expect(call.peers).toHaveLength(1);
  });

  it("a second join (a new socket) starts afresh and records a reconnect once connected again", async () => {
    const call = setup(true);
    call.connection.join();
    call.peer().become("connected");
    call.connection.join();
    expect(call.peers).toHaveLength(2);
    expect(call.peers[0]?.closed).toBe(true);
    expect(call.phases.at(-1)).toBe("reconnecting");
    call.peer().become("connected");
    expect(call.history).toEqual(["join", "reconnect"]);
  });
});

describe("the refresh of TURN credentials", () => {
  it("asks again when three quarters of their life has gone, never sooner than 30 s, and not without TURN", () => {
    const now = Date.parse("2026-11-25T10:00:00Z");
    expect(setupRefreshDelay("2026-11-25T11:00:00Z", now)).toBe(45 * 60_000);
    expect(setupRefreshDelay("2026-11-25T10:00:20Z", now)).toBe(30_000);
    expect(setupRefreshDelay(null, now)).toBeNull();
    // A clock ahead of the server's, or an unreadable time: every 5 minutes, not every 30 s.
    expect(setupRefreshDelay("2026-11-25T09:00:00Z", now)).toBe(SETUP_REFRESH_FALLBACK_MS);
    expect(setupRefreshDelay("not a time", now)).toBe(SETUP_REFRESH_FALLBACK_MS);
  });
});
