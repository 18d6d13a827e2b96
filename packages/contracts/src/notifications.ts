import { z } from "zod";
import { dataEnvelope } from "./envelope.ts";
import { LOCALES } from "./locales.ts";
import { textSchema } from "./text.ts";

/**
 * Notifications that reach people who are not looking (ADR 064): web push to the browsers a person
 * opted in on. Each device may turn off any event, and may ask for detailed text (what happened
 * and about which visit) instead of the generic text a lock screen may show.
 */

/** What a patient may be told while away. */
export const PATIENT_NOTIFICATION_EVENTS = [
  "visit_accepted",
  "call_ringing",
  "visit_message",
  "summary_ready",
  "visit_soon",
  "refund",
] as const;
/** What a clinician may be told while away. */
export const CLINICIAN_NOTIFICATION_EVENTS = [
  "queue_request",
  "patient_checked_in",
  "patient_message",
] as const;
export const NOTIFICATION_EVENTS = [
  ...PATIENT_NOTIFICATION_EVENTS,
  ...CLINICIAN_NOTIFICATION_EVENTS,
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The errors of the notification calls. */
export const NOTIFICATION_ERRORS = Object.freeze({
  deviceNotFound: "No such device of this account",
  subscriptionInvalid: "The push subscription is not one this server can send to",
});

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, "base64url");

/** What the browser's `PushSubscription.toJSON()` gives, with a name for the device. */
export const pushSubscribeRequest = z
  .object({
    endpoint: z.url({ protocol: /^https?$/ }).max(2048),
    keys: z
      .object({
        /** The browser's P-256 public key: 65 bytes, base64url (87 characters, maybe padded). */
        p256dh: base64url.min(86).max(90),
        /** The 16-byte auth secret, base64url. */
        auth: base64url.min(20).max(26),
      })
      .strict(),
    label: textSchema().trim().min(1).max(80),
    locale: z.enum(LOCALES).default("en"),
  })
  .strict();
export type PushSubscribeRequest = z.input<typeof pushSubscribeRequest>;

export const deviceIdParams = z.object({ deviceId: z.uuid() }).strict();

export const updateDeviceRequest = z
  .object({
    detailed: z.boolean().optional(),
    disabled_events: z.array(z.enum(NOTIFICATION_EVENTS)).max(NOTIFICATION_EVENTS.length).optional(),
    locale: z.enum(LOCALES).optional(),
  })
  .strict();
export type UpdateDeviceRequest = z.infer<typeof updateDeviceRequest>;

/**
 * The visit a page of this device is visibly showing (null: none). The page says so when it becomes
 * visible and every half minute while it stays so; it lapses a minute after the last word.
 */
export const deviceShowingRequest = z.object({ consultation_id: z.uuid().nullable() }).strict();

export const notificationDevice = z
  .object({
    id: z.uuid(),
    label: z.string(),
    /** The push service's URL: the page compares it with its own subscription to know itself. */
    endpoint: z.string(),
    detailed: z.boolean(),
    disabled_events: z.array(z.enum(NOTIFICATION_EVENTS)),
    created_at: z.iso.datetime(),
    last_sent_at: z.iso.datetime().nullable(),
  })
  .strict();
export type NotificationDevice = z.infer<typeof notificationDevice>;

export const notificationDevicesResponse = dataEnvelope(
  z
    .object({
      /** The server's VAPID public key, for `pushManager.subscribe({ applicationServerKey })`. */
      public_key: z.string(),
      /** The events this account can be told of (a patient's or a clinician's). */
      events: z.array(z.enum(NOTIFICATION_EVENTS)),
      devices: z.array(notificationDevice),
    })
    .strict(),
);
export const notificationDeviceResponse = dataEnvelope(notificationDevice);
export const deviceRemovedResponse = dataEnvelope(z.object({ removed: z.literal(true) }).strict());
export const deviceShowingResponse = dataEnvelope(z.object({ until: z.iso.datetime().nullable() }).strict());

/** What a push message carries to the service worker (the payload, encrypted end to end). */
export type PushMessage = {
  title: string;
  body: string;
  /** The page a click opens, a path of the site. */
  url: string;
  /** Notifications with one tag replace each other (one per visit and event). */
  tag: string;
};
