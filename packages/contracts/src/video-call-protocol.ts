/**
 * The video visit's signalling on the live socket (ADR 033): the browser's half, without zod so the
 * call's bundle stays small. The page sends `{type: "visit.call.signal", consultation_id, signal}`;
 * the API relays it, never storing it, to the other participant's open pages as
 * `{topic: "visit.call.signal", payload: {consultation_id, from, ...signal}}`.
 */
export const VISIT_CALL_SIGNAL = "visit.call.signal";
/** Stored event (replayed after a reconnect): the clinician started the call, the waiting room rings. */
export const VISIT_CALL_RING_TOPIC = "visit.call.ring";

/** Perfect negotiation: the clinician's side is impolite (its offer wins a collision), the patient's polite. */
export const CALL_SIDES = Object.freeze(["patient", "clinician"] as const);
export type CallSide = (typeof CALL_SIDES)[number];

/** What the visit's history and the patient's access log record of a participant's call. */
export const CALL_EVENTS = Object.freeze(["join", "leave", "reconnect"] as const);
export type CallEvent = (typeof CALL_EVENTS)[number];

/** The longest session description a page may send (Chrome's audio+video offers are 4–7 KB). */
export const CALL_SDP_MAX_LENGTH = 12_000;

export type CallIceCandidate = {
  candidate: string;
  sdpMid?: string | null | undefined;
  sdpMLineIndex?: number | null | undefined;
  usernameFragment?: string | null | undefined;
};

/** What a page sends (`signal` of the client frame). */
export type CallSignal =
  /** A page (re)joined: the other side drops its old connection and answers `welcome`. */
  | { kind: "hello" }
  | { kind: "welcome" }
  /** The page leaves the call (hang up). */
  | { kind: "bye" }
  /** The page is closing or reloading without hanging up: it may come back with hello. */
  | { kind: "away" }
  | { kind: "description"; description: { type: "offer" | "answer"; sdp: string } }
  /** null: the end of this page's candidates. */
  | { kind: "candidate"; candidate: CallIceCandidate | null }
  /** The sender's own state, shown on the other side. */
  | { kind: "media"; muted: boolean; camera_off: boolean; reconnecting: boolean };

/**
 * What the other side's pages receive. A description is split into parts (`part` of `parts`, one
 * `message_id`) because a relayed payload is at most 2 KiB; the page joins them in order of `part`.
 */
export type CallSignalEvent = { consultation_id: string; from: CallSide } & (
  | { kind: "hello" | "welcome" | "bye" | "away" }
  | {
      kind: "description";
      description_type: "offer" | "answer";
      message_id: string;
      part: number;
      parts: number;
      sdp: string;
    }
  | { kind: "candidate"; candidate: CallIceCandidate | null }
  | { kind: "media"; muted: boolean; camera_off: boolean; reconnecting: boolean }
);

export type CallRingEvent = { consultation_id: string };
