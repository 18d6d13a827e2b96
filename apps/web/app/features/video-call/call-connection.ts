import type { CallIceCandidate, CallSignal, CallSignalEvent } from "@ambercare/contracts/video-call-protocol";

/**
 * The video visit's peer connection apart from React (ADR 043): perfect negotiation over the live
 * socket between the clinician (impolite: its offer wins a collision) and the patient (polite: it
 * rolls back and answers), the session descriptions the API splits into parts joined in any order,
 * trickled candidates held until their description is applied, the sides' media state, and the
 * way back after a drop: a page that (re)joins says `hello`, the other drops its old connection and
 * answers `welcome`; ICE restarts after a few seconds `disconnected`, at once on `failed`.
 */

/** The part of RTCPeerConnection the call uses (tests give their own). */
export type CallPeer = {
  readonly signalingState: RTCSignalingState;
  readonly connectionState: RTCPeerConnectionState;
  readonly remoteDescription: { type: RTCSdpType; sdp: string } | null;
  readonly localDescription: { type: RTCSdpType; sdp: string } | null;
  onnegotiationneeded: ((event: unknown) => void) | null;
  onicecandidate: ((event: { candidate: RTCIceCandidate | CallIceCandidate | null }) => void) | null;
  ontrack: ((event: { track: MediaStreamTrack; streams: readonly MediaStream[] }) => void) | null;
  onconnectionstatechange: ((event: unknown) => void) | null;
  addTrack(track: MediaStreamTrack, ...streams: MediaStream[]): RTCRtpSender;
  getSenders(): RTCRtpSender[];
  setLocalDescription(description?: RTCLocalSessionDescriptionInit): Promise<void>;
  setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void>;
  addIceCandidate(candidate: CallIceCandidate | null): Promise<void>;
  restartIce(): void;
  getConfiguration(): RTCConfiguration;
  setConfiguration(configuration: RTCConfiguration): void;
  close(): void;
};

/** What the call screen shows of the connection. */
export type CallPhase =
  /** Joined; the other side is not there yet or the first connection is being set up. */
  | "connecting"
  | "connected"
  /** The connection dropped; ICE is being restarted. */
  | "reconnecting"
  /** This page left (hang up). */
  | "ended";

export type RemoteMedia = { muted: boolean; cameraOff: boolean; reconnecting: boolean };

/**
 * Whether the other side is in the call, as its signals tell: `absent` until it first speaks,
 * `present` once it (re)joined or sent anything, `left` after it hung up (bye), `away` after its
 * page closed or reloaded (it may come back with hello).
 */
export type RemotePresence = "absent" | "present" | "left" | "away";

export type CallConnectionOptions = {
  /** Perfect negotiation: the patient's side is polite, the clinician's not (GET …/call). */
  polite: boolean;
  iceServers: RTCIceServer[];
  iceTransportPolicy: RTCIceTransportPolicy;
  createPeer(configuration: RTCConfiguration): CallPeer;
  /** Sends a signal on the live socket; false when the link is down (nothing is queued). */
  send(signal: CallSignal): boolean;
  /** This page's camera and microphone (null when getUserMedia failed: the other side is still seen). */
  localStream: MediaStream | null;
  onPhase?(phase: CallPhase): void;
  onRemoteStream?(stream: MediaStream | null): void;
  onRemoteMedia?(media: RemoteMedia): void;
  /** The other side left (bye). */
  onRemoteLeft?(): void;
  /** The other side came, left, or its page went away (see RemotePresence). */
  onRemotePresence?(presence: RemotePresence): void;
  /** A join, a leave or a recovery for the visit's call history (POST …/call/events). */
  onHistory?(event: "join" | "leave" | "reconnect"): void;
  /** Builds a stream for a remote track that came without one. */
  createStream?(tracks: MediaStreamTrack[]): MediaStream;
  setTimer?(run: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
  now?(): number;
};

/** How long `disconnected` may last before ICE restarts (a short blip recovers by itself). */
export const DISCONNECTED_GRACE_MS = 3_000;
/** How long an ICE restart may take before the next one (the relay may still be down). */
export const RESTART_RETRY_MS = 5_000;
/** The least time between two full rejoins after a negotiation that went wrong. */
export const REJOIN_MIN_INTERVAL_MS = 5_000;
/**
 * How long a connection whose negotiation is done may stay short of `connected` before this side
 * starts afresh: ICE can succeed while the encryption handshake behind it (DTLS) stalls, and the
 * browser retries that only slowly (the journeys saw 30 s and more through a relay). The polite side
 * waits longer, so the two do not start afresh at the same moment.
 */
export const CONNECT_STALL_MS = { impolite: 10_000, polite: 14_000 } as const;
/** Descriptions being joined at once; older unfinished ones are dropped. */
const PARTIAL_LIMIT = 8;

type DescriptionPart = Extract<CallSignalEvent, { kind: "description" }>;

/**
 * Joins a description's parts, arriving in any order: `add` returns the whole description once its
 * last part is in, else null. A description that never completes is dropped after newer ones.
 */
export function createDescriptionAssembler() {
  const partial = new Map<string, { type: "offer" | "answer"; parts: (string | undefined)[] }>();
  return {
    add(part: DescriptionPart): { type: "offer" | "answer"; sdp: string } | null {
      if (
        !Number.isInteger(part.parts) ||
        !Number.isInteger(part.part) ||
        part.parts < 1 ||
        part.part < 0 ||
        part.part >= part.parts
      ) {
        return null;
      }
      let entry = partial.get(part.message_id);
      if (!entry) {
        entry = { type: part.description_type, parts: new Array(part.parts).fill(undefined) };
        partial.set(part.message_id, entry);
        while (partial.size > PARTIAL_LIMIT) partial.delete(partial.keys().next().value as string);
      }
      entry.parts[part.part] = part.sdp;
      if (entry.parts.some((piece) => piece === undefined)) return null;
      partial.delete(part.message_id);
      return { type: entry.type, sdp: entry.parts.join("") };
    },
    /** Whether a description is still missing parts (its candidates must wait for it). */
    get pending(): boolean {
      return partial.size > 0;
    },
    clear() {
      partial.clear();
    },
  };
}

export type CallConnection = {
  readonly phase: CallPhase;
  /** The current peer connection (its stats for the quality indicator). */
  readonly peer: CallPeer | null;
  /** Joins: a fresh connection and `hello`, so the other side starts afresh with this page. */
  join(): void;
  /**
   * The live socket came back (a network blip, a server host replaced): a connection that still
   * carries the call is kept, as the media never went through the server and the socket resumes
   * after its last event, so no signal was lost; this side's media state is sent again. Any other
   * connection is replaced as by join().
   */
  resume(): void;
  /** A signal of the other side, relayed by the API. */
  receive(event: CallSignalEvent): void;
  /** This side's microphone and camera state, sent to the other side. */
  setMedia(media: { muted: boolean; cameraOff: boolean }): void;
  /** Sends a new camera or microphone track (a device switch) without renegotiating. */
  replaceTrack(track: MediaStreamTrack): Promise<void>;
  /** Hangs up: `bye` to the other side, the connection closed. */
  leave(): void;
  /**
   * This page is going away (closed or reloading) without hanging up: the other side is told at
   * once (`away`) and keeps its side ready for this page's hello. False when the live link could not
   * carry it (reconnecting): the page then asks the API to tell the other side.
   */
  away(): boolean;
  /**
   * New ICE servers (fresh TURN credentials): used by the current connection's next ICE restart and
   * by every later connection. A long call would otherwise restart with expired credentials.
   */
  setIceServers(servers: RTCIceServer[]): void;
};

export function createCallConnection(options: CallConnectionOptions): CallConnection {
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const now = options.now ?? (() => Date.now());
  const createStream = options.createStream ?? ((tracks) => new MediaStream(tracks));
  const { polite } = options;

  let peer: CallPeer | null = null;
  let iceServers = options.iceServers;
  let phase: CallPhase = "connecting";
  let presence: RemotePresence = "absent";
  let everConnected = false;
  /** The connection that reached `connected` (its later restarts are not stalls: ICE restart covers them). */
  let everConnectedPeer: CallPeer | null = null;
  let media = { muted: false, cameraOff: false };
  let localReconnecting = false;
  const assembler = createDescriptionAssembler();
  let heldCandidates: (CallIceCandidate | null)[] = [];
  // Perfect negotiation's state (one set per peer connection).
  let makingOffer = false;
  let ignoreOffer = false;
  let settingRemoteAnswer = false;
  let restartTimer: unknown = null;
  let stallTimer: unknown = null;
  let lastRejoin = Number.NEGATIVE_INFINITY;
  /** Signals are applied one at a time: a candidate never overtakes the description before it. */
  let queue: Promise<void> = Promise.resolve();

  const setPhase = (next: CallPhase) => {
    if (next === phase) return;
    phase = next;
    options.onPhase?.(next);
  };

  const setPresence = (next: RemotePresence) => {
    if (next === presence) return;
    presence = next;
    options.onRemotePresence?.(next);
  };

  const sendMedia = () =>
    options.send({
      kind: "media",
      muted: media.muted,
      camera_off: media.cameraOff,
      reconnecting: localReconnecting,
    });

  const stopRestartTimer = () => {
    if (restartTimer !== null) clearTimer(restartTimer);
    restartTimer = null;
  };

  const stopStallTimer = () => {
    if (stallTimer !== null) clearTimer(stallTimer);
    stallTimer = null;
  };

  /** Once both descriptions are in place, the connection has CONNECT_STALL_MS to come up. */
  const watchForStall = (current: CallPeer) => {
    if (stallTimer !== null || everConnectedPeer === current) return;
    stallTimer = setTimer(
      () => {
        stallTimer = null;
        if (current === peer && current.connectionState !== "connected") recover();
      },
      polite ? CONNECT_STALL_MS.polite : CONNECT_STALL_MS.impolite,
    );
  };

  const sendDescription = (current: CallPeer) => {
    const description = current.localDescription;
    if (!description || (description.type !== "offer" && description.type !== "answer")) return;
    options.send({ kind: "description", description: { type: description.type, sdp: description.sdp } });
  };

  /** Restarts ICE (new credentials, a new offer) and again while the connection stays down. */
  const restartIce = (current: CallPeer) => {
    stopRestartTimer();
    if (current !== peer) return;
    if (!localReconnecting) {
      localReconnecting = true;
      setPhase("reconnecting");
      sendMedia();
    }
    current.restartIce();
    restartTimer = setTimer(() => {
      restartTimer = null;
      if (current === peer && current.connectionState !== "connected") restartIce(current);
    }, RESTART_RETRY_MS);
  };

  const onConnectionState = (current: CallPeer) => {
    if (current !== peer) return;
    const state = current.connectionState;
    if (state === "connected") {
      stopRestartTimer();
      stopStallTimer();
      everConnectedPeer = current;
      const recovered = localReconnecting;
      localReconnecting = false;
      setPhase("connected");
      if (recovered) {
        sendMedia();
        options.onHistory?.("reconnect");
      } else if (!everConnected) {
        // The other side learns this side's microphone and camera state once they can be shown.
        sendMedia();
      }
      everConnected = true;
    } else if (state === "disconnected") {
      // Said at once (the browser noticed the silence already); ICE restarts only after the grace.
      if (everConnectedPeer === current) setPhase("reconnecting");
      if (restartTimer === null) {
        restartTimer = setTimer(() => {
          restartTimer = null;
          if (current === peer && current.connectionState !== "connected") restartIce(current);
        }, DISCONNECTED_GRACE_MS);
      }
    } else if (state === "failed") {
      restartIce(current);
    }
  };

  const newPeer = () => {
    dropPeer();
    const current = options.createPeer({
      iceServers,
      iceTransportPolicy: options.iceTransportPolicy,
    });
    peer = current;
    makingOffer = false;
    ignoreOffer = false;
    settingRemoteAnswer = false;
    heldCandidates = [];
    assembler.clear();
    current.onnegotiationneeded = () => {
      void (async () => {
        try {
          makingOffer = true;
          await current.setLocalDescription();
          if (current === peer) sendDescription(current);
        } catch {
          // The offer could not be made (the connection closed meanwhile): the next change retries.
        } finally {
          makingOffer = false;
        }
      })();
    };
    current.onicecandidate = ({ candidate }) => {
      if (current !== peer) return;
      options.send({ kind: "candidate", candidate: candidate ? candidateJson(candidate) : null });
    };
    current.ontrack = ({ track, streams }) => {
      if (current !== peer) return;
      options.onRemoteStream?.(streams[0] ?? createStream([track]));
    };
    current.onconnectionstatechange = () => onConnectionState(current);
    const stream = options.localStream;
    if (stream) for (const track of stream.getTracks()) current.addTrack(track, stream);
    return current;
  };

  function dropPeer() {
    stopRestartTimer();
    stopStallTimer();
    const old = peer;
    peer = null;
    if (!old) return;
    old.onnegotiationneeded = null;
    old.onicecandidate = null;
    old.ontrack = null;
    old.onconnectionstatechange = null;
    old.close();
    options.onRemoteStream?.(null);
  }

  /** Starts afresh: a new connection and `hello`, so the other side does the same. */
  const rejoin = () => {
    lastRejoin = now();
    newPeer();
    if (phase !== "connecting") setPhase(everConnected ? "reconnecting" : "connecting");
    localReconnecting = everConnected;
    options.send({ kind: "hello" });
  };

  /** A negotiation went wrong (a stale answer, a lost part): start afresh, at most every few seconds. */
  const recover = () => {
    if (phase === "ended" || now() - lastRejoin < REJOIN_MIN_INTERVAL_MS) return;
    rejoin();
  };

  const flushCandidates = async (current: CallPeer) => {
    const held = heldCandidates;
    heldCandidates = [];
    for (const candidate of held) await addCandidate(current, candidate);
  };

  const addCandidate = async (current: CallPeer, candidate: CallIceCandidate | null) => {
    try {
      await current.addIceCandidate(candidate);
    } catch {
      // A candidate of an offer this side ignored (impolite, in a collision) is expected to fail;
      // others belong to a description already replaced. Either way the connection is unharmed.
    }
  };

  const applyDescription = async (description: { type: "offer" | "answer"; sdp: string }) => {
    const current = peer ?? newPeer();
    const readyForOffer = !makingOffer && (current.signalingState === "stable" || settingRemoteAnswer);
    const collision = description.type === "offer" && !readyForOffer;
    ignoreOffer = !polite && collision;
    if (ignoreOffer) return;
    if (description.type === "answer" && current.signalingState !== "have-local-offer") {
      // An answer to an offer this connection never made (it was made before a rejoin).
      return;
    }
    try {
      settingRemoteAnswer = description.type === "answer";
      await current.setRemoteDescription(description);
      settingRemoteAnswer = false;
      if (current !== peer) return;
      if (description.type === "offer") {
        await current.setLocalDescription();
        if (current === peer) sendDescription(current);
      }
      await flushCandidates(current);
      if (current === peer) watchForStall(current);
    } catch {
      settingRemoteAnswer = false;
      if (current === peer) recover();
    }
  };

  const handle = async (event: CallSignalEvent) => {
    if (event.kind === "bye") setPresence("left");
    else if (event.kind === "away") setPresence("away");
    else setPresence("present");
    switch (event.kind) {
      case "hello":
        // The other side (re)joined with a new connection: this side starts afresh too.
        newPeer();
        if (everConnected) {
          localReconnecting = false;
          setPhase("reconnecting");
        }
        options.send({ kind: "welcome" });
        return;
      case "welcome":
        if (!peer) newPeer();
        return;
      case "away":
        // The other page closed or reloads: its connection is gone; a fresh one waits for its hello.
        newPeer();
        setPhase(everConnected ? "reconnecting" : "connecting");
        options.onRemoteMedia?.({ muted: false, cameraOff: false, reconnecting: false });
        return;
      case "bye":
        dropPeer();
        options.onRemoteMedia?.({ muted: false, cameraOff: false, reconnecting: false });
        options.onRemoteLeft?.();
        setPhase("connecting");
        // A connection ready for the other side's return (its `hello` replaces it anyway).
        newPeer();
        return;
      case "description": {
        const description = assembler.add(event);
        if (description) await applyDescription(description);
        return;
      }
      case "candidate": {
        const current = peer;
        if (!current || current.remoteDescription === null || assembler.pending) {
          heldCandidates.push(event.candidate);
          return;
        }
        await addCandidate(current, event.candidate);
        return;
      }
      case "media":
        options.onRemoteMedia?.({
          muted: event.muted,
          cameraOff: event.camera_off,
          reconnecting: event.reconnecting,
        });
        return;
    }
  };

  return {
    get phase() {
      return phase;
    },
    get peer() {
      return peer;
    },
    join() {
      if (phase === "ended") return;
      const first = lastRejoin === Number.NEGATIVE_INFINITY;
      rejoin();
      if (first) options.onHistory?.("join");
    },
    resume() {
      if (phase === "ended") return;
      if (phase === "connected" && peer?.connectionState === "connected") sendMedia();
      else this.join();
    },
    receive(event) {
      if (phase === "ended") return;
      queue = queue.then(() => handle(event)).catch(() => undefined);
    },
    setMedia(next) {
      media = { ...next };
      sendMedia();
    },
    setIceServers(servers) {
      iceServers = servers;
      if (!peer || peer.connectionState === "closed") return;
      try {
        peer.setConfiguration({ ...peer.getConfiguration(), iceServers: servers });
      } catch {
        // A browser that refuses the change keeps the old servers until the next connection.
      }
    },
    async replaceTrack(track) {
      const sender = peer?.getSenders().find((candidate) => candidate.track?.kind === track.kind);
      await sender?.replaceTrack(track);
    },
    away() {
      // Hung up already: the other side had its bye, there is nothing to tell.
      if (phase === "ended") return true;
      return options.send({ kind: "away" });
    },
    leave() {
      if (phase === "ended") return;
      options.send({ kind: "bye" });
      dropPeer();
      setPhase("ended");
      options.onHistory?.("leave");
    },
  };
}

/** A candidate as JSON for the socket (RTCIceCandidate's own fields). */
function candidateJson(candidate: RTCIceCandidate | CallIceCandidate): CallIceCandidate {
  const json: CallIceCandidate = { candidate: candidate.candidate };
  if (candidate.sdpMid !== undefined) json.sdpMid = candidate.sdpMid;
  if (candidate.sdpMLineIndex !== undefined) json.sdpMLineIndex = candidate.sdpMLineIndex;
  if (candidate.usernameFragment !== undefined) json.usernameFragment = candidate.usernameFragment;
  return json;
}

/**
 * When to ask for fresh TURN credentials: when three quarters of their life has gone, so an ICE
 * restart late in a long call still has valid ones (at least 30 s from now). Null without TURN.
 */
export function setupRefreshDelay(expiresAt: string | null, now = Date.now()): number | null {
  if (!expiresAt) return null;
  const left = Date.parse(expiresAt) - now;
  // A time this device's clock cannot place (unreadable, or already past by its clock): ask again
  // in 5 minutes rather than every 30 s for the whole call.
  if (!Number.isFinite(left) || left <= 0) return SETUP_REFRESH_FALLBACK_MS;
  return Math.max(30_000, Math.floor(left * 0.75));
}

/** When the credentials' expiry cannot be placed on this device's clock. */
export const SETUP_REFRESH_FALLBACK_MS = 5 * 60_000;
