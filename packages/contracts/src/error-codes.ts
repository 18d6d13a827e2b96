import { z } from "zod";

/**
 * The stable codes of the APIs' failures. Every `{ error }` answer carries one as `code`: the English
 * `error` text is for a developer reading the answer, the code is what a client matches to show its
 * own words (the web translates each code, apps/web/app/lib/api-errors.ts). A code, once shipped,
 * keeps its meaning; a new failure the web must tell apart gets a new code here.
 */
export const ERROR_CODES = [
  // The request itself (Fastify's parsing, the route schemas, the URL).
  "BAD_REQUEST",
  "VALIDATION_FAILED",
  "INVALID_JSON",
  "EMPTY_BODY",
  "UNSUPPORTED_MEDIA_TYPE",
  "PAYLOAD_TOO_LARGE",
  "NOT_FOUND",
  "RATE_LIMITED",
  // The server's side.
  "INTERNAL_ERROR",
  "DATABASE_UNAVAILABLE",
  // Accounts and sign-in.
  "INVALID_ACCESS_TOKEN",
  "INVALID_CREDENTIALS",
  "TOO_MANY_LOGIN_ATTEMPTS",
  "EMAIL_NOT_CONFIRMED",
  "SIGN_UP_LINK_INVALID",
  "RESET_LINK_INVALID",
  "OWN_ACCOUNT_ONLY",
  "SERVICE_TOKEN_REQUIRED",
  "WRONG_CURRENT_PASSWORD",
  "PASSWORD_TOO_COMMON",
  "PASSWORD_IS_EMAIL",
  "PASSWORD_HAS_PRODUCT_NAME",
  "DATE_OF_BIRTH_IN_FUTURE",
  "SECOND_FACTOR_CODE_INVALID",
  "PENDING_LOGIN_INVALID",
  "COMPANION_LOGIN_REFUSED",
  "SECOND_FACTOR_ALREADY_ENABLED",
  "SECOND_FACTOR_NOT_SET_UP",
  "SECOND_FACTOR_RESET_LINK_INVALID",
  // Roles: the care console and the patient's own pages.
  "CLINICIAN_ONLY",
  "PATIENT_ONLY",
  "OPERATOR_ONLY",
  "SECOND_FACTOR_SETUP_REQUIRED",
  // The operations console: the team and refunds (ADR 065).
  "CLINICIAN_NOT_FOUND",
  "CLINICIAN_EMAIL_TAKEN",
  "PROVIDER_ALREADY_LINKED",
  "PAYMENT_NOT_FOUND",
  "REFUND_ABOVE_PAID",
  // The directory editor.
  "PROVIDER_SLUG_TAKEN",
  "CATALOGUE_ITEM_UNKNOWN",
  "PHOTO_NOT_AN_IMAGE",
  // Communications: captcha, contact, mailing lists, my-data.
  "CAPTCHA_MISSING",
  "CAPTCHA_INVALID",
  "CAPTCHA_USED",
  "CAPTCHA_EXPIRED",
  "CONTACT_RATE_LIMITED",
  "SUBSCRIBE_RATE_LIMITED",
  "LIST_LINK_INVALID",
  "CONFIRMATION_LINK_INVALID",
  "MEMBERSHIP_STILL_ACTIVE",
  // Membership and payments.
  "CARD_DECLINED",
  "INSUFFICIENT_FUNDS",
  "CARD_NUMBER_INVALID",
  "CARD_EXPIRY_INVALID",
  "CARD_EXPIRED",
  "CVC_INVALID",
  "CARD_NAME_REQUIRED",
  "CHECKOUT_NOT_FOUND",
  "CHECKOUT_EXPIRED",
  "DEMO_PAYMENTS_ONLY",
  "ALREADY_SUBSCRIBED",
  "NO_SUBSCRIPTION",
  "CANNOT_RESUME",
  "CANNOT_CHANGE_INTERVAL",
  "SUBSCRIPTION_NOT_FOUND",
  "SUBSCRIPTION_UNKNOWN_YET",
  "INVOICE_NOT_FOUND",
  "RETURN_URL_INVALID",
  "PAYMENT_PROVIDER_UNAVAILABLE",
  "WEBHOOK_SIGNATURE_INVALID",
  "WEBHOOK_EVENT_INVALID",
  // Consultations, medical records and ratings.
  "CONSULTATION_PAYMENT_REQUIRED",
  "NO_PROVIDER_IN_STATE",
  "PROVIDER_NOT_FOUND",
  "PROVIDER_NOT_LICENSED_IN_STATE",
  "PROVIDER_DOES_NOT_OFFER_VISIT_TYPE",
  "CONSULTATION_NOT_FOUND",
  "CONSULTATION_NOT_YOURS",
  "CONSULTATION_NOT_CANCELABLE",
  "CONSULTATION_TRANSITION_REFUSED",
  "CONSULTATION_ALREADY_TAKEN",
  "CONSULTATION_NOT_IN_QUEUE",
  "CONSULTATION_OTHER_CLINICIAN",
  "CANCEL_REASON_REQUIRED",
  "CONSULTATION_CANCELED",
  "CONSULTATION_NOT_COMPLETED",
  "CONSULTATION_ALREADY_RATED",
  "DATE_IN_FUTURE",
  "DOCUMENT_NOT_FOUND",
  "DOCUMENT_NOT_YOURS",
  "DOCUMENT_TYPE_UNSUPPORTED",
  "DOCUMENT_TOO_LARGE",
  "DOCUMENT_EMPTY",
  "DOCUMENT_NAME_MISSING",
  "VISIT_THREAD_NOT_OPEN",
  "VISIT_THREAD_CLOSED",
  "VISIT_THREAD_READ_ONLY",
  "MESSAGE_NOT_FOUND",
  "MESSAGE_NOT_YOURS",
  "ATTACHMENT_NOT_FOUND",
  "CLIENT_ID_REUSED",
  // The care console's visit notes.
  "NOTES_STALE",
  "NOTES_SIGNED",
  "NOTES_NOT_SIGNED",
  // The video visit's call.
  "VISIT_NOT_VIDEO",
  "CALL_NOT_OPEN",
  // Booked visits (ADR 059).
  "SLOT_TAKEN",
  "SLOT_HELD",
  "HOLD_EXPIRED",
  "HOLD_NOT_FOUND",
  "OUTSIDE_HOURS",
  "TOO_LATE_TO_CANCEL",
  "NOT_TAKING_VISITS",
  "CHECK_IN_NOT_OPEN",
  "NOT_MISSED_YET",
  "SCHEDULE_INVALID",
  // Notifications (ADR 064).
  "DEVICE_NOT_FOUND",
  "PUSH_SUBSCRIPTION_INVALID",
  "PHONE_NUMBER_INVALID",
  "PHONE_NUMBER_MISSING",
  "TEXT_CODE_INVALID",
  "TEXT_CODE_EXPIRED",
  "TEXT_CODE_TOO_SOON",
  "PHONE_NOT_CONFIRMED",
  "CONSENT_WORDING_CHANGED",
  "TEXT_MESSAGES_OFF",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && KNOWN_CODES.has(value);
}

export const errorCodeSchema = z.enum(ERROR_CODES);

/**
 * The figures a refusal's message needs, beside its code (NOT_MISSED_YET's `minutes`, the grace the
 * API is configured with; CHECK_IN_NOT_OPEN's `opens_at`, an ISO instant): a client words them in its
 * own language instead of copying a figure that configuration may change. Never a patient's data.
 */
export const errorDetails = z.record(
  z.string().regex(/^[a-z_]{1,40}$/),
  z.union([z.number(), z.string().max(100)]),
);
export type ErrorDetails = z.infer<typeof errorDetails>;

/**
 * Every failure of both APIs: `{ "error": "<English text>", "code": "<ERROR_CODE>" }`, with `details`
 * when the refusal has figures to tell. `code` is optional in the schema so an answer from an older
 * API still parses; this API always sends it.
 */
export const errorBody = z
  .object({ error: z.string().min(1), code: errorCodeSchema.optional(), details: errorDetails.optional() })
  .strict();
export type ErrorBody = z.infer<typeof errorBody>;
