import { PASSWORD_MAX_LENGTH } from "@ambercare/contracts/account-limits";
import {
  emailSchema,
  isoDateSchema,
  loginRequest,
  passwordSchema,
  profileFields,
  registerRequest,
  resetPasswordRequest,
  timeZoneSchema,
} from "@ambercare/contracts/auth";
import { secondFactorCode, totpCode } from "@ambercare/contracts/second-factor";
import { z } from "zod";
import { todayIn } from "#app/lib/time-zone.server.ts";

/**
 * The schemas of the account forms, built from the API's own schemas in packages/contracts so the
 * page and the API agree on every rule. Actions validate with these (fields in account-fields.ts);
 * `field-messages.ts` turns the issues into translated messages. Server-only to keep zod (~20 KB gzip) out of
 * the pages' JavaScript: the forms are checked on submission, with or without JavaScript.
 */

export const loginForm = loginRequest;

/** The terms checkbox posts "on" when ticked and nothing otherwise. */
const agreed = z.literal("on");

export const signUpForm = z.object({
  email: registerRequest.shape.email,
  password: registerRequest.shape.password,
  first_name: registerRequest.shape.first_name,
  last_name: registerRequest.shape.last_name,
  terms: agreed,
});

export const forgotPasswordForm = z.object({ email: emailSchema });

const mismatch = { path: ["confirm_password"], params: { kind: "mismatch" } };

export const resetPasswordForm = z
  .object({
    token: resetPasswordRequest.shape.token,
    new_password: passwordSchema,
    confirm_password: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .refine((form) => form.new_password === form.confirm_password, mismatch);

export const changePasswordForm = z
  .object({
    current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
    new_password: passwordSchema,
    confirm_password: z.string().max(PASSWORD_MAX_LENGTH),
  })
  .refine((form) => form.new_password === form.confirm_password, mismatch);

/** Profile completion and update: every field of the API's schema, the birth date in the past. */
export const profileForm = profileFields.extend({
  // Not after the latest date that is today anywhere: the API refuses one after the patient's own today.
  date_of_birth: isoDateSchema.refine((value) => value <= todayIn(null), { params: { kind: "future" } }),
});

/** /my-profile: the profile and the time zone ("" when the patient has not chosen one: kept as it is). */
export const myProfileForm = profileForm.extend({ time_zone: z.union([z.literal(""), timeZoneSchema]) });

/** The code step of a login: a code of the app or a recovery code. */
export const secondFactorLoginForm = z.object({ code: secondFactorCode });
/** Confirming the setup takes a code of the app only. */
export const confirmSecondFactorForm = z.object({ code: totpCode });
export const disableSecondFactorForm = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  code: secondFactorCode,
});
export const lostDeviceForm = z.object({ password: z.string().min(1).max(PASSWORD_MAX_LENGTH) });
