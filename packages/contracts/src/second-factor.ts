import { z } from "zod";
import { currentPasswordSchema, loginResponse } from "./auth.ts";
import { dataEnvelope } from "./envelope.ts";
import { textSchema } from "./text.ts";

/**
 * The second factor of a patient's account (ADR 024): TOTP (RFC 6238) with single-use recovery
 * codes, and the second login step of an account that has it.
 */

/** RFC 6238 as every authenticator app implements it: HMAC-SHA1, 6 digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_S = 30;
/** Codes of the previous and the next step are accepted too (clock drift, a code typed late). */
export const TOTP_WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** How long a login whose password was right waits for its code. */
export const PENDING_LOGIN_TTL_S = 5 * 60;
/** How long the "lost my device" link works. */
export const SECOND_FACTOR_RESET_TTL_MS = 30 * 60_000;

/** `123456`, or a recovery code `abcd-efgh-jkmn-pqrs` (spaces and dashes as the patient types them). */
export const secondFactorCode = textSchema().trim().min(TOTP_DIGITS).max(40);
/** A current code of the authenticator app only (setup confirmation). */
export const totpCode = z
  .string()
  .trim()
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`));
const opaqueToken = textSchema().min(16).max(200);

/** The password step's answer for an account with a second factor: no session yet. */
export const pendingLoginResponse = z
  .object({
    second_factor_required: z.literal(true),
    pending_login_token: z.string().min(1),
    expires_in: z.number().int().positive(),
  })
  .strict();
export type PendingLoginResponse = z.infer<typeof pendingLoginResponse>;

/** Both logins: a session (accounts without a second factor, as the specification says) or a pending login. */
export const loginStepResponse = z.union([loginResponse, pendingLoginResponse]);
export type LoginStepResponse = z.infer<typeof loginStepResponse>;

/**
 * The second login step. `code` is required until a code has verified the pending login; after that
 * the other API's session is issued with the token alone (one per API).
 */
export const secondFactorLoginRequest = z
  .object({ pending_login_token: opaqueToken, code: secondFactorCode.optional() })
  .strict();
export type SecondFactorLoginRequest = z.infer<typeof secondFactorLoginRequest>;

export const lostDeviceRequest = z.object({ pending_login_token: opaqueToken }).strict();
export const lostDeviceResponse = dataEnvelope(z.object({ sent: z.literal(true) }).strict());

const setupSchema = z.object({ secret: z.string(), otpauth_uri: z.string() }).strict();

/**
 * `GET /api/auth/second-factor`: whether it is on, and while a setup waits for its first code, the
 * secret (never once the setup is confirmed).
 */
export const secondFactorStatusResponse = dataEnvelope(
  z
    .object({
      enabled: z.boolean(),
      recovery_codes_left: z.number().int().min(0),
      pending_setup: setupSchema.nullable(),
    })
    .strict(),
);
export type SecondFactorStatus = z.infer<typeof secondFactorStatusResponse>["data"];

export const secondFactorSetupResponse = dataEnvelope(setupSchema);

export const confirmSecondFactorRequest = z.object({ code: totpCode }).strict();
export const recoveryCodesResponse = dataEnvelope(z.object({ recovery_codes: z.array(z.string()) }).strict());

export const disableSecondFactorRequest = z
  .object({ password: currentPasswordSchema, code: secondFactorCode })
  .strict();
export const lostDeviceResetRequest = z
  .object({ token: opaqueToken, password: currentPasswordSchema })
  .strict();
export const secondFactorDisabledResponse = dataEnvelope(
  z.object({ second_factor_disabled: z.literal(true) }).strict(),
);

/** The `{ error }` texts of the second-factor calls (the web shows its own words by code). */
export const SECOND_FACTOR_ERRORS = Object.freeze({
  codeInvalid: "The code is incorrect or was already used",
  pendingLoginInvalid: "The login has expired. Log in again.",
  alreadyEnabled: "The second factor is already on",
  notSetUp: "The second factor is not set up",
  resetLinkInvalid: "This link is invalid or has expired. Log in again to request a new one.",
} as const);
