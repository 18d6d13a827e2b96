import { z } from "zod";
import { dataEnvelope } from "./envelope.ts";
import { CALL_EVENTS, CALL_SIDES } from "./video-call-protocol.ts";

export const VIDEO_CALL_ERRORS = Object.freeze({
  notVideo: "This visit is not a video visit.",
  notOpen:
    "The call of this visit is not open: it takes place once a clinician accepted the visit and until it ends.",
} as const);

/** One entry of RTCConfiguration.iceServers; TURN entries carry short-lived credentials. */
export const iceServer = z
  .object({
    urls: z.array(z.string()),
    username: z.string().optional(),
    credential: z.string().optional(),
  })
  .strict();
export type IceServer = z.infer<typeof iceServer>;

/** How a participant's page sets up its peer connection for one visit. */
export const callSetup = z
  .object({
    consultation_id: z.uuid(),
    side: z.enum(CALL_SIDES),
    /** Perfect negotiation: the patient's side is polite (it yields on an offer collision). */
    polite: z.boolean(),
    /** Whether the call may take place now (accepted or in progress); the device check works before. */
    open: z.boolean(),
    ice_servers: z.array(iceServer),
    /** "relay" only when the deployment forces TURN (a test of the relay path). */
    ice_transport_policy: z.enum(["all", "relay"]),
    /** When the TURN credentials stop working; null without TURN. The page asks again on a rejoin. */
    credentials_expire_at: z.iso.datetime().nullable(),
    /** The intake's consent: nothing of the call is recorded. */
    recorded: z.literal(false),
  })
  .strict();
export type CallSetup = z.infer<typeof callSetup>;
export const callSetupResponse = dataEnvelope(callSetup);

/**
 * One side joined, left or rejoined. `away` goes with a leave only: the page is closing without
 * hanging up and could not say so on its live link (it was reconnecting), so the API tells the other
 * side for it, as the page's own `away` signal would have.
 */
export const callEventRequest = z
  .object({ event: z.enum(CALL_EVENTS), away: z.boolean().optional() })
  .strict()
  .refine((body) => !body.away || body.event === "leave", {
    message: "away goes with a leave only",
    path: ["away"],
  });
export const callEventRecord = z
  .object({
    consultation_id: z.uuid(),
    side: z.enum(CALL_SIDES),
    event: z.enum(CALL_EVENTS),
    at: z.iso.datetime(),
  })
  .strict();
export const callEventResponse = dataEnvelope(callEventRecord);
