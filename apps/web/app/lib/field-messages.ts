import {
  type FieldErrors,
  type FormField,
  type FormMessage,
  type IssueKind,
  type IssueLike,
  isFormField,
} from "#app/lib/forms.ts";
import type { TranslationKey, TranslationValues } from "#app/lib/i18n.tsx";

/**
 * Which message a form shows for a problem with one of its fields, as translation keys: what actions
 * and the API error table (api-errors.ts) read. Apart from forms.ts so that the shell's forms, on
 * every page, do not bring every field's messages into every page's strings (ADR 042).
 */

/**
 * The message of each field for each kind of problem; a kind a field does not list falls back to
 * the generic `forms.errors.<kind>`. Every key here is checked against en.json by tsc.
 */
const FIELD_MESSAGES: Readonly<Record<FormField, Readonly<Record<string, TranslationKey>>>> = {
  email: {
    required: "forms.errors.email.required",
    invalid: "forms.errors.email.invalid",
    tooLong: "forms.errors.email.invalid",
    taken: "forms.errors.email.taken",
  },
  password: {
    required: "forms.errors.password.required",
    tooShort: "forms.errors.password.tooShort",
    tooLong: "forms.errors.password.tooLong",
    common: "forms.errors.password.common",
    isEmail: "forms.errors.password.isEmail",
    hasProductName: "forms.errors.password.hasProductName",
    incorrect: "dataRights.errors.wrongPassword",
  },
  new_password: {
    required: "forms.errors.newPassword.required",
    tooShort: "forms.errors.newPassword.tooShort",
    tooLong: "forms.errors.newPassword.tooLong",
    common: "forms.errors.newPassword.common",
    isEmail: "forms.errors.newPassword.isEmail",
    hasProductName: "forms.errors.newPassword.hasProductName",
  },
  confirm_password: {
    required: "forms.errors.confirmPassword.required",
    mismatch: "forms.errors.confirmPassword.mismatch",
  },
  current_password: {
    required: "forms.errors.currentPassword.required",
    incorrect: "forms.errors.currentPassword.incorrect",
  },
  first_name: { required: "forms.errors.firstName.required", tooLong: "forms.errors.firstName.tooLong" },
  last_name: { required: "forms.errors.lastName.required", tooLong: "forms.errors.lastName.tooLong" },
  date_of_birth: {
    required: "forms.errors.dateOfBirth.required",
    invalid: "forms.errors.dateOfBirth.invalid",
    future: "forms.errors.dateOfBirth.future",
  },
  phone: { required: "forms.errors.phone.required", invalid: "forms.errors.phone.invalid" },
  address_line1: { required: "forms.errors.addressLine1.required" },
  address_line2: {},
  city: { required: "forms.errors.city.required" },
  state: { required: "forms.errors.state.required", invalid: "forms.errors.state.required" },
  zip: { required: "forms.errors.zip.required", invalid: "forms.errors.zip.invalid" },
  gender: { required: "forms.errors.gender.required", invalid: "forms.errors.gender.required" },
  time_zone: { invalid: "forms.errors.timeZone.invalid" },
  terms: { required: "forms.errors.terms.required", invalid: "forms.errors.terms.required" },
  token: {},
  code: {
    required: "secondFactor.errors.codeRequired",
    tooShort: "secondFactor.errors.codeInvalid",
    tooLong: "secondFactor.errors.codeInvalid",
    invalid: "secondFactor.errors.codeInvalid",
    incorrect: "secondFactor.errors.codeInvalid",
  },
};

const GENERIC_MESSAGES: Readonly<Record<string, TranslationKey>> = {
  required: "forms.errors.required",
  invalid: "forms.errors.invalid",
  tooShort: "forms.errors.tooShort",
  tooLong: "forms.errors.tooLong",
  unreadableCharacters: "forms.errors.unreadableCharacters",
};

/** The field's own message for a problem of `kind`, if it has one. */
export function ownFieldMessage(field: string, kind: IssueKind): TranslationKey | undefined {
  return isFormField(field) ? FIELD_MESSAGES[field][kind] : undefined;
}

/** The message for a problem of `kind` with `field`: the field's own, else the generic one. */
export function fieldMessage(field: string, kind: IssueKind, values?: TranslationValues): FormMessage {
  const own = isFormField(field) ? FIELD_MESSAGES[field][kind] : undefined;
  const key = own ?? GENERIC_MESSAGES[kind] ?? "forms.errors.invalid";
  return values ? { key, values } : { key };
}

/**
 * Turns zod issues into one message per field, the first issue of each field winning. An empty
 * value is "required" whatever the schema said (an empty e-mail fails as a bad format in zod);
 * otherwise the issue's code decides: too_small → tooShort {min}, too_big → tooLong {max}, a custom
 * issue → its `params.kind` (mismatch, future…), anything else → invalid.
 */
export function issuesToFieldErrors<F extends string>(
  issues: readonly IssueLike[],
  values: Partial<Record<F, string>>,
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field !== "string" || Object.hasOwn(errors, field)) continue;
    const raw = values[field as F];
    let message: FormMessage;
    if (raw === undefined || raw.trim() === "") {
      message = fieldMessage(field, "required");
    } else if (issue.code === "too_small" && issue.minimum !== undefined) {
      message = fieldMessage(field, "tooShort", { min: Number(issue.minimum) });
    } else if (issue.code === "too_big" && issue.maximum !== undefined) {
      message = fieldMessage(field, "tooLong", { max: Number(issue.maximum) });
    } else if (issue.code === "custom" && typeof issue.params?.kind === "string") {
      message = fieldMessage(field, issue.params.kind);
    } else {
      message = fieldMessage(field, "invalid");
    }
    errors[field as F] = message;
  }
  return errors;
}
