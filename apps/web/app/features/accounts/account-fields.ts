import type { Gender } from "@ambercare/contracts/options";
import type { TranslationKey } from "#app/lib/i18n.tsx";

/**
 * The fields of the account forms (their input names, the API's snake_case), in form order. Plain
 * data for the pages; the schemas that validate them are in account-forms.server.ts, so zod stays
 * out of the browser bundle.
 */

export const LOGIN_FIELDS = ["email", "password"] as const;
export const SIGN_UP_FIELDS = ["first_name", "last_name", "email", "password", "terms"] as const;
export const FORGOT_PASSWORD_FIELDS = ["email"] as const;
export const RESET_PASSWORD_FIELDS = ["token", "new_password", "confirm_password"] as const;
export const CHANGE_PASSWORD_FIELDS = ["current_password", "new_password", "confirm_password"] as const;
/** The second factor: the login's code step, the setup's confirmation, turning it off, the lost-device link. */
export const SECOND_FACTOR_CODE_FIELDS = ["code"] as const;
export const DISABLE_SECOND_FACTOR_FIELDS = ["current_password", "code"] as const;
export const LOST_DEVICE_FIELDS = ["password"] as const;

export const PROFILE_FIELDS = [
  "first_name",
  "last_name",
  "date_of_birth",
  "phone",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "zip",
  "gender",
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
/** /my-profile's form: the profile fields and the time zone the patient's times are shown in. */
export const MY_PROFILE_FIELDS = [...PROFILE_FIELDS, "time_zone"] as const;
export type MyProfileField = (typeof MY_PROFILE_FIELDS)[number];

/** The label of each gender option (the API value stays the option list's exact spelling). */
export const GENDER_LABELS: Readonly<Record<Gender, TranslationKey>> = {
  male: "profile.genders.male",
  female: "profile.genders.female",
  Unspecified: "profile.genders.unspecified",
  Undisclosed: "profile.genders.undisclosed",
  "Prefer Not to Answer": "profile.genders.preferNotToAnswer",
};
