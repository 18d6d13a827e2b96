import { z } from "zod";
import {
  ADDRESS_LINE_MAX_LENGTH,
  CITY_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "./account-limits.ts";
import { CAPTCHA_MAX_LENGTH } from "./communications-constants.ts";
import { dataEnvelope } from "./envelope.ts";
import { LOCALES } from "./locales.ts";
import { GENDERS } from "./options.ts";
import { accountRoleSchema } from "./roles.ts";
import { textSchema } from "./text.ts";
import { isTimeZone } from "./time-zone.ts";
import { US_STATE_CODES } from "./us-states.ts";

/**
 * Accounts: request and response shapes of both APIs (ADR 010).
 * Messages are left to the caller: the API answers in English, the web maps each issue (code + path)
 * to a message in the user's language.
 */

export const emailSchema = textSchema().trim().toLowerCase().max(EMAIL_MAX_LENGTH).pipe(z.email());
/** A new password: spaces may be part of a passphrase, but a password of spaces alone is none. */
export const passwordSchema = textSchema()
  .min(PASSWORD_MIN_LENGTH)
  .max(PASSWORD_MAX_LENGTH)
  .refine((value) => value.trim() !== "", {
    message: "must not be only spaces",
    params: { kind: "required" },
  });
/** A password typed to prove who one is (login, deletion, turning the second factor off). */
export const currentPasswordSchema = textSchema().min(1).max(PASSWORD_MAX_LENGTH);
const name = textSchema().trim().min(1).max(NAME_MAX_LENGTH);
export const userIdSchema = z.uuid();
/** `/…/:userId` in a path (get-user-details, is-subscribed, get-subscription). */
export const userIdParams = z.object({ userId: userIdSchema });

/** A language of locales.ts: the language of a user's e-mail, or of the directory's texts. */
export const localeSchema = z.enum(LOCALES);

export const loginRequest = z.object({ email: emailSchema, password: currentPasswordSchema }).strict();
export type LoginRequest = z.infer<typeof loginRequest>;

export const registerRequest = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    first_name: name,
    last_name: name,
    /** The language of the welcome and password-reset e-mails; `en` when omitted. */
    locale: localeSchema.optional(),
  })
  .strict();
export type RegisterRequest = z.infer<typeof registerRequest>;

/**
 * The captcha solution of a form the public can submit (ADR 016): the ALTCHA payload or the
 * reCAPTCHA token. Optional in the schema so that a missing one is answered with its own message.
 */
export const captchaField = textSchema().max(CAPTCHA_MAX_LENGTH).optional();

/** `POST /api/auth/register` (main API, public): the registration plus the captcha. */
export const mainRegisterRequest = registerRequest.extend({ captcha: captchaField }).strict();
export type MainRegisterRequest = z.infer<typeof mainRegisterRequest>;

/**
 * Both registrations answer this, whether the address is new or already has an account, so the
 * answer never tells who has an account: the mailbox's owner learns what happened by e-mail.
 */
export const SIGN_UP_MAIL_SENT = "Check your e-mail to finish signing up";
export const registrationResponse = dataEnvelope(
  z.object({ message: z.literal(SIGN_UP_MAIL_SENT) }).strict(),
);
export type RegistrationResponse = z.infer<typeof registrationResponse>;

/** Both logins answer with the token at top level (architecture "Response shapes"). */
export const loginResponse = z
  .object({
    access_token: z.string().min(1),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().positive(),
    user_id: userIdSchema,
  })
  .strict();
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * How long after a main API login its token may be traded once for the care API's session
 * (`POST /auth/login/companion`): the web server does it right after the login, so the password is
 * checked once per login instead of once per API.
 */
export const COMPANION_LOGIN_WINDOW_S = 60;
export const companionLoginRequest = z.object({ main_access_token: textSchema().min(16).max(200) }).strict();
export type CompanionLoginRequest = z.infer<typeof companionLoginRequest>;

export const emailRequest = z.object({ email: emailSchema }).strict();
export type EmailRequest = z.infer<typeof emailRequest>;

/** `POST /api/auth/forgot-password` (main API, public bearer): the address plus the captcha. */
export const forgotPasswordRequest = emailRequest.extend({ captcha: captchaField }).strict();
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

export const resetPasswordRequest = z
  .object({ token: textSchema().min(16).max(200), password: passwordSchema })
  .strict();
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** `POST /auth/{product}/confirm-email`: the token from the sign-up e-mail's link. */
export const confirmEmailRequest = z.object({ token: textSchema().min(16).max(200) }).strict();
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequest>;

/** Confirming the address logs the new patient in on both APIs, as a login on each would. */
export const confirmEmailResponse = dataEnvelope(
  z.object({ main: loginResponse, care: loginResponse }).strict(),
);
export type ConfirmEmailResponse = z.infer<typeof confirmEmailResponse>;

export const changePasswordRequest = z
  .object({
    user_id: userIdSchema,
    old_password: currentPasswordSchema,
    new_password: passwordSchema,
  })
  .strict();
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** ISO date (YYYY-MM-DD) of a real calendar day. */
export const isoDateSchema = z.iso.date();
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ().-]{7,20}$/);
export const zipSchema = z
  .string()
  .trim()
  .regex(/^\d{5}(-\d{4})?$/);

/** An IANA time zone name the engine knows ("America/Los_Angeles", "Europe/Sofia", "UTC"). */
export const timeZoneSchema = z.string().refine(isTimeZone, { message: "Unknown time zone" });

/** Profile fields a patient can set (name, birth date, phone, address with US state, gender). */
export const profileFields = z.object({
  first_name: name,
  last_name: name,
  date_of_birth: isoDateSchema,
  phone: phoneSchema,
  address_line1: textSchema().trim().min(1).max(ADDRESS_LINE_MAX_LENGTH),
  address_line2: textSchema().trim().max(ADDRESS_LINE_MAX_LENGTH).optional(),
  city: textSchema().trim().min(1).max(CITY_MAX_LENGTH),
  state: z.enum(US_STATE_CODES as [string, ...string[]]),
  zip: zipSchema,
  gender: z.enum(GENDERS),
});
export type ProfileFields = z.infer<typeof profileFields>;

/**
 * The one rule for a complete profile: every required profile field is present and valid. The API
 * stamps the profile complete whenever a save (complete-profile or update-user) leaves it so.
 */
export function isProfileComplete(
  fields: Partial<Record<keyof ProfileFields, string | null | undefined>>,
): boolean {
  const present = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== null && value !== undefined),
  );
  return profileFields.safeParse(present).success;
}

/**
 * update-user: user_id plus any profile fields, the e-mail language and the time zone the patient's
 * times are shown in (both optional: a payload without them means what it always did).
 */
export const updateUserRequest = profileFields
  .partial()
  .extend({ user_id: userIdSchema, locale: localeSchema.optional(), time_zone: timeZoneSchema.optional() })
  .strict();
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

/** complete-profile: user_id plus every required profile field. */
export const completeProfileRequest = profileFields.extend({ user_id: userIdSchema }).strict();
export type CompleteProfileRequest = z.infer<typeof completeProfileRequest>;

/** The user as both APIs return it: never a password hash, never another patient's field. */
export const userSchema = z
  .object({
    id: userIdSchema,
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    date_of_birth: z.string().nullable(),
    phone: z.string().nullable(),
    address_line1: z.string().nullable(),
    address_line2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    gender: z.string().nullable(),
    locale: localeSchema,
    /** The IANA zone the patient's times are shown in; null until the browser or the patient told it. */
    time_zone: z.string().nullable(),
    profile_completed: z.boolean(),
    created_at: z.string(),
    /** "patient" or "clinician": the web's access table sends each to their own pages. */
    role: accountRoleSchema,
  })
  .strict();
export type User = z.infer<typeof userSchema>;

/** `GET /api/auth/me`, get-user-details, update-user and complete-profile answer `{ data: user }`. */
export const userResponse = dataEnvelope(userSchema);
export type UserResponse = z.infer<typeof userResponse>;

/** Logout takes no body, or an empty object (Fastify hands a bodiless POST over as null). */
export const logoutRequest = z.object({}).strict().nullish();
export const logoutResponse = dataEnvelope(z.object({ logged_out: z.literal(true) }).strict());
/** forgot-password and reset-password/token: always this, whether or not the account exists. */
export const resetMailResponse = dataEnvelope(z.object({ sent: z.literal(true) }).strict());
export const passwordChangedResponse = dataEnvelope(z.object({ password_changed: z.literal(true) }).strict());

/**
 * The `{ error }` texts of the account calls. The web matches them to show a translated message;
 * change one only together with the web's translation table.
 */
export const AUTH_ERRORS = Object.freeze({
  /** Same text for an unknown e-mail and a wrong password: the answer never confirms an account. */
  incorrectCredentials: "Incorrect e-mail or password",
  /**
   * The right password of an account whose address nobody has confirmed: a fresh link is on its way.
   * Only someone who knows the password sees it, so it tells a stranger nothing.
   */
  emailNotConfirmed: "Confirm your e-mail address first: we have sent you a new link.",
  signUpLinkInvalid: "This sign-up link is invalid or has expired. Log in to get a new one.",
  resetLinkInvalid: "This reset link is invalid or has expired. Request a new one.",
  ownAccountOnly: "You can only access your own account",
  serviceTokenRequired: "This call needs the service credential",
  wrongCurrentPassword: "Your current password is incorrect",
  passwordTooCommon:
    "This password is too common and easy to guess. Choose another one: a few unrelated words work well.",
  passwordIsEmail: "Your password must not be your e-mail address.",
  passwordHasProductName: "Your password must not contain the name of this service.",
  dateOfBirthInFuture: "Date of birth cannot be in the future.",
  companionLoginRefused: "The login could not be completed. Log in again.",
} as const);

/** 429 of a throttled login: "Too many login attempts. Try again in 15 minutes." */
export function tooManyLoginAttempts(minutes: number): string {
  const n = Math.max(1, Math.ceil(minutes));
  return `Too many login attempts. Try again in ${n} ${n === 1 ? "minute" : "minutes"}.`;
}
export const TOO_MANY_LOGIN_ATTEMPTS = /^Too many login attempts\. Try again in (\d+) minutes?\.$/;
