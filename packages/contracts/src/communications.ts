/*
 * Communications API: captcha, contact entries and support messages, e-mail lists with
 * double opt-in, and the Washington My Health My Data rights. docs/decisions/016-communications.md.
 *
 * Browser code imports ./communications-constants.ts (no zod); server code imports this module.
 * Packages the web side needs in this workspace are installed by the API side: ask in a note here.
 *
 * Routes (main API under /api/v1, care API at the root with PRODUCT_SLUG "ambercare"):
 *   GET  /api/v1/api/captcha/challenge              public            → captchaChallengeResponse
 *   POST /api/v1/api/auth/register                  public            mainRegisterRequest (auth.ts): + captcha, action "register"
 *   POST /api/v1/api/auth/forgot-password           public bearer     forgotPasswordRequest (auth.ts): + captcha, action "forgot_password"
 *   POST /ambercare/save-contact-entry              service token, or a patient's token
 *                                                   → 201 contactEntryResponse (action "contact")
 *   GET  /ambercare/support-messages                patient token     → supportMessagesResponse
 *   POST /api/v1/api/sendgrid/add-to-contacts       public bearer     → 202 addToContactsResponse (action "subscribe")
 *   POST /ambercare/confirm-subscription            public bearer     → listStatusResponse
 *   POST /ambercare/unsubscribe                     public bearer     → listStatusResponse
 *   POST /ambercare/resubscribe                     public bearer     → listStatusResponse
 *   POST /api/v1/api/list-unsubscribe?token=…       none (RFC 8058 one-click from mail clients)
 *   GET  /ambercare/my-data/export                  patient token     → myDataExportResponse
 *   GET  /ambercare/my-data/consents                patient token     → consentsResponse
 *   POST /ambercare/my-data/consents                patient token     → consentsResponse
 *   POST /ambercare/my-data/delete                  patient token     → accountDeletedResponse
 * Failures are `{ error }` with a 4xx status; captcha texts are COMMUNICATION_ERRORS.
 *
 * Captcha: a missing captcha → 400 COMMUNICATION_ERRORS.captchaMissing; forged → 400 captchaInvalid;
 * replayed → 400 captchaUsed; expired → 400 captchaExpired. ALTCHA solution payload:
 * base64(JSON.stringify({ algorithm, challenge, number, salt, signature })) where `number` is the
 * n in 0..maxnumber with hex(SHA-256(salt + n)) === challenge (ALTCHA v1 proof of work).
 * Each challenge is single-use and expires after 10 minutes: fetch a new one per submission. The API's
 * ALTCHA_MAX_NUMBER (default 100000, at least 100) sets maxnumber; a test stack may lower it.
 *
 * Links in e-mails (origin = PUBLIC_URL): /confirm-subscription?token=… (the web page posts it to
 * confirm-subscription), /unsubscribe?token=… (listTokenEmail(token) gives the address for the
 * unsubscribe/resubscribe body), /contact-us and /my-profile/messages (acknowledgement button).
 */
import { z } from "zod";
import { captchaField, currentPasswordSchema, emailSchema, localeSchema, userIdSchema } from "./auth.ts";
import {
  CONSENT_KEYS,
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_MESSAGE_MIN_LENGTH,
  CONTACT_NAME_MAX_LENGTH,
  CONTACT_SOURCES,
  CONTACT_TOPICS,
  LIST_STATUSES,
  LIST_TOKEN_MAX_LENGTH,
  MAILING_LISTS,
  SEGMENT_PATTERN,
} from "./communications-constants.ts";
import { dataEnvelope } from "./envelope.ts";
import { textSchema } from "./text.ts";

export * from "./communications-constants.ts";
export { captchaField };

// --- Captcha ----------------------------------------------------------------------------------

export const altchaChallengeSchema = z
  .object({
    algorithm: z.literal("SHA-256"),
    challenge: z.string(),
    maxnumber: z.number().int().positive(),
    salt: z.string(),
    signature: z.string(),
  })
  .strict();
export type AltchaChallenge = z.infer<typeof altchaChallengeSchema>;

export const captchaChallengeSchema = z.discriminatedUnion("provider", [
  z.object({ provider: z.literal("altcha"), challenge: altchaChallengeSchema }).strict(),
  z.object({ provider: z.literal("recaptcha"), site_key: z.string().min(1) }).strict(),
]);
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>;
export const captchaChallengeResponse = dataEnvelope(captchaChallengeSchema);

// --- Contact entries --------------------------------------------------------------------------

export const contactEntryRequest = z
  .object({
    name: textSchema().trim().min(1).max(CONTACT_NAME_MAX_LENGTH),
    email: emailSchema,
    topic: z.enum(CONTACT_TOPICS),
    message: textSchema().trim().min(CONTACT_MESSAGE_MIN_LENGTH).max(CONTACT_MESSAGE_MAX_LENGTH),
    captcha: captchaField,
    /** The support widget's segment; SUPPORT_SEGMENT (default "patient") when omitted. */
    segment: textSchema().regex(SEGMENT_PATTERN).optional(),
    /** "widget" from the support widget; "contact_form" when omitted. */
    source: z.enum(CONTACT_SOURCES).optional(),
    /** With a patient's token only, and then it must be that patient's id (403 otherwise). */
    user_id: userIdSchema.optional(),
    /** Language of the acknowledgement e-mail; the patient's own language, else "en", when omitted. */
    locale: localeSchema.optional(),
  })
  .strict();
export type ContactEntryRequest = z.infer<typeof contactEntryRequest>;

export const contactEntryResponse = dataEnvelope(z.object({ id: z.uuid() }).strict());

export const supportMessageSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    topic: z.enum(CONTACT_TOPICS),
    message: z.string(),
    segment: z.string(),
    source: z.enum(CONTACT_SOURCES),
    created_at: z.string(),
  })
  .strict();
export type SupportMessage = z.infer<typeof supportMessageSchema>;
/** The caller's own entries, newest first. */
export const supportMessagesResponse = dataEnvelope(z.array(supportMessageSchema));

// --- E-mail lists -----------------------------------------------------------------------------

const listToken = textSchema().min(16).max(LIST_TOKEN_MAX_LENGTH);

export const addToContactsRequest = z
  .object({
    email: emailSchema,
    captcha: captchaField,
    /** Language of the confirmation and list e-mails; "en" when omitted. */
    locale: localeSchema.optional(),
  })
  .strict();
export type AddToContactsRequest = z.infer<typeof addToContactsRequest>;

/**
 * Always this, whether the address was new, pending or already confirmed (the answer never says
 * whether an address is on the list); a confirmation e-mail goes out unless it is already confirmed.
 */
export const addToContactsResponse = dataEnvelope(
  z.object({ status: z.literal("confirmation_sent") }).strict(),
);

/** The token from `${PUBLIC_URL}/confirm-subscription?token=…`. */
export const confirmSubscriptionRequest = z.object({ token: listToken }).strict();

/**
 * unsubscribe / resubscribe: the token from `${PUBLIC_URL}/unsubscribe?token=…` (signed over the
 * address and the list) and the address it was issued for (`listTokenEmail(token)`).
 */
export const listChangeRequest = z.object({ email: emailSchema, token: listToken }).strict();
export type ListChangeRequest = z.infer<typeof listChangeRequest>;

export const listStatusResponse = dataEnvelope(
  z
    .object({
      email: z.string(),
      list: z.enum(MAILING_LISTS),
      status: z.enum(LIST_STATUSES),
      /** After confirm-subscription: the token for the unsubscribe page's link. */
      unsubscribe_token: z.string().optional(),
    })
    .strict(),
);
export type ListStatus = z.infer<typeof listStatusResponse>["data"];

export const listUnsubscribeQuery = z.object({ token: listToken }).strict();
export const oneClickUnsubscribeResponse = dataEnvelope(
  z.object({ status: z.literal("unsubscribed") }).strict(),
);

// --- Washington My Health My Data -------------------------------------------------------------

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** One table of the export: rows of plain values (an HTML view renders each section as a table). */
export const exportSectionSchema = z.array(z.record(z.string(), cell));

export const myDataExportResponse = dataEnvelope(
  z
    .object({
      format_version: z.literal(1),
      generated_at: z.string(),
      user_id: userIdSchema,
      /**
       * Section name → rows: account, consents, contact_entries, mailing_lists, consultations,
       * ratings (and each patient table added later). Unknown section names are to be shown as-is.
       */
      sections: z.record(z.string(), exportSectionSchema),
    })
    .strict(),
);
export type MyDataExport = z.infer<typeof myDataExportResponse>["data"];

export const consentsRequest = z.object({ optional_processing: z.boolean() }).strict();
export type ConsentsRequest = z.infer<typeof consentsRequest>;

const consentStateSchema = z
  .object({
    granted: z.boolean(),
    /** When the current choice was recorded; null while the patient has never chosen (not granted). */
    recorded_at: z.string().nullable(),
  })
  .strict();
export const consentsResponse = dataEnvelope(
  z.object(
    Object.fromEntries(CONSENT_KEYS.map((key) => [key, consentStateSchema])) as {
      optional_processing: typeof consentStateSchema;
    },
  ),
);
export type Consents = z.infer<typeof consentsResponse>["data"];

/** The account's password, checked again before anything is erased. */
export const deleteMyDataRequest = z.object({ password: currentPasswordSchema }).strict();

export const accountDeletedResponse = dataEnvelope(
  z
    .object({
      account_closed: z.literal(true),
      /** Sections deleted outright. */
      erased: z.array(z.string()),
      /** Sections kept without anything that identifies the patient. */
      anonymised: z.array(z.string()),
      /** Sections kept as the law requires (billing records), each with why. */
      kept: z.array(z.object({ section: z.string(), reason: z.string() }).strict()),
    })
    .strict(),
);
export type AccountDeleted = z.infer<typeof accountDeletedResponse>["data"];
