/**
 * Communications (ADR 016): the constants browser code needs, with no dependency (no zod), so a page
 * can import them without pulling a schema library into its JavaScript. communications.ts builds the
 * API's schemas from the same values.
 */

/** The body field every captcha-protected call carries (the ALTCHA payload or the reCAPTCHA token). */
export const CAPTCHA_FIELD = "captcha";
/** reCAPTCHA v3 tokens are about 2,000 characters; an ALTCHA payload is a few hundred. */
export const CAPTCHA_MAX_LENGTH = 4096;
export const CAPTCHA_PROVIDERS = ["altcha", "recaptcha"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/**
 * reCAPTCHA v3 `action` of each protected form: the web passes it to `grecaptcha.execute`, the API
 * checks that the verified token names the same action.
 */
export const CAPTCHA_ACTIONS = Object.freeze({
  register: "register",
  forgotPassword: "forgot_password",
  contact: "contact",
  subscribe: "subscribe",
} as const);
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[keyof typeof CAPTCHA_ACTIONS];

/** Topics of the contact form, in display order (labels live in the web's locale files). */
export const CONTACT_TOPICS = [
  "general",
  "consultations",
  "membership_billing",
  "technical",
  "privacy",
  "feedback",
] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

/** Where a contact entry came from: the /contact-us form or the support chat widget. */
export const CONTACT_SOURCES = ["contact_form", "widget"] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/** The support widget's segment when SUPPORT_SEGMENT is unset (the widget has exactly one). */
export const DEFAULT_SUPPORT_SEGMENT = "patient";
/** A segment is a short slug, e.g. "patient". */
export const SEGMENT_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

export const CONTACT_NAME_MAX_LENGTH = 100;
export const CONTACT_MESSAGE_MIN_LENGTH = 1;
export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

/** The e-mail lists an address can be on (marketing only; clinical and account mail is never on a list). */
export const MAILING_LISTS = ["newsletter"] as const;
export type MailingList = (typeof MAILING_LISTS)[number];
export const DEFAULT_MAILING_LIST: MailingList = "newsletter";
/** An address on a list: `pending` until the confirmation e-mail is followed, then `subscribed`. */
export const LIST_STATUSES = ["pending", "subscribed", "unsubscribed"] as const;
export type MailingListStatus = (typeof LIST_STATUSES)[number];

/** Consents a patient can give or withdraw on the Washington My Health My Data page. */
export const CONSENT_KEYS = ["optional_processing"] as const;
export type ConsentKey = (typeof CONSENT_KEYS)[number];

/** Longest list token / confirmation token the API issues (query strings are checked against it). */
export const LIST_TOKEN_MAX_LENGTH = 600;

/**
 * The e-mail address inside an unsubscribe token (`/unsubscribe?token=…`), for display and for the
 * `email` field of unsubscribe/resubscribe. It does not verify the token: the API does. Null when the
 * token is not of the expected shape.
 */
export function listTokenEmail(token: string): string | null {
  const [payload] = token.split(".");
  if (!payload || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  try {
    const base64 = payload.replaceAll("-", "+").replaceAll("_", "/");
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
    const text = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const [list, email] = text.split("\n");
    return list && email?.includes("@") ? email : null;
  } catch {
    return null;
  }
}

/**
 * Texts of the `{ error }` answers (a wrong password on my-data/delete answers 400 with
 * AUTH_ERRORS.wrongCurrentPassword of auth.ts) the web matches to show its own translated message. Change one
 * only together with the web's translation table.
 */
export const COMMUNICATION_ERRORS = Object.freeze({
  captchaMissing: "Please complete the captcha.",
  captchaInvalid: "The captcha could not be verified. Please try again.",
  captchaUsed: "This captcha has already been used. Please try again.",
  captchaExpired: "The captcha has expired. Please try again.",
  contactRateLimited: "Too many messages. Please try again later.",
  subscribeRateLimited: "Too many sign-up requests for this address. Please try again later.",
  listTokenInvalid: "This link is invalid. Use the link from your most recent e-mail.",
  confirmationInvalid: "This confirmation link is invalid or has expired. Please sign up again.",
  /** Deleting an account whose membership would still renew (the card would be charged again). */
  membershipStillActive: "Cancel your membership before you delete your account.",
} as const);
