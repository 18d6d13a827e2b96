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

/**
 * Text messages (ADR 064): booked-visit reminders to a confirmed mobile number, with the patient's
 * express consent, stopped at once by the profile's opt-out or a STOP reply.
 */
export const TEXT_MESSAGE_ERRORS = Object.freeze({
  phoneInvalid: "Not a mobile number that can receive text messages",
  noNumber: "No mobile number on this profile",
  codeInvalid: "The code is not the one sent",
  codeExpired: "No code is waiting (expired, used up or never sent): ask for a new one",
  resendTooSoon: "A code was sent moments ago: wait before asking for another",
  notConfirmed: "Confirm the number with the code sent to it first",
  wordingChanged: "The consent's wording has changed: read it again",
  signatureInvalid: "The request is not signed by the text-message service",
  off: "Text messages are not offered here: no text-message service is configured",
});

/** How long a code is good for, how many tries it has, and how often a new one may be sent. */
export const TEXT_CODE_MINUTES = 10;
export const TEXT_CODE_ATTEMPTS = 5;
export const TEXT_CODE_RESEND_SECONDS = 60;
export const TEXT_CODES_PER_DAY = 5;

/** ISO 3166 alpha-2: the country a number typed without its +code is read in. */
const countryCode = z.string().regex(/^[A-Z]{2}$/, "ISO 3166 alpha-2");

export const textMessagesQuery = z.object({ locale: z.enum(LOCALES).default("en") }).strict();

export const setTextNumberRequest = z
  .object({
    /** As typed: "+359 88 812 3456", "0888 123 456" with country BG, "(310) 555-0123" with US. */
    phone: textSchema().trim().min(3).max(32),
    country: countryCode.optional(),
    /** The language of the code's text. */
    locale: z.enum(LOCALES).default("en"),
  })
  .strict();
export type SetTextNumberRequest = z.input<typeof setTextNumberRequest>;

export const resendTextCodeRequest = z.object({ locale: z.enum(LOCALES).default("en") }).strict();

export const confirmTextNumberRequest = z
  .object({
    code: z
      .string()
      .trim()
      .regex(/^[0-9]{6}$/, "six digits"),
  })
  .strict();

export const textConsentRequest = z
  .object({
    /** The language of the wording shown. */
    locale: z.enum(LOCALES),
    /** The wording exactly as shown (the API's `consent_wording` in that language): it is stored. */
    wording: textSchema().min(1).max(1000),
  })
  .strict();
export type TextConsentRequest = z.infer<typeof textConsentRequest>;

export const textMessageStatus = z
  .object({
    /** E.164, or null: no number. */
    phone: z.string().nullable(),
    confirmed: z.boolean(),
    /** A code waiting to be typed, and when another may be asked for. */
    code: z.object({ expires_at: z.iso.datetime(), resend_after: z.iso.datetime() }).strict().nullable(),
    consent: z
      .object({ given_at: z.iso.datetime(), wording: z.string(), locale: z.enum(LOCALES) })
      .strict()
      .nullable(),
    opted_out: z
      .object({ at: z.iso.datetime(), via: z.enum(["profile", "reply"]) })
      .strict()
      .nullable(),
    /**
     * Whether the clinic sends texts. False (TEXT_MESSAGES=off) only for a patient with a number
     * saved before texts were turned off: the one thing left to do is remove it (ADR 064).
     */
    sending: z.boolean(),
    /** Reminder texts go to the number: texts sent, confirmed, consented, not opted out. */
    receives_texts: z.boolean(),
    /** The consent to show, in the asked language: what the patient agrees to by ticking it. */
    consent_wording: z.string(),
  })
  .strict();
export type TextMessageStatus = z.infer<typeof textMessageStatus>;
export const textMessageStatusResponse = dataEnvelope(textMessageStatus);
