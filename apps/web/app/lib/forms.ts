import type { TranslationKey, TranslationValues } from "#app/lib/i18n.tsx";

/**
 * Form state shared by actions and their components (no server code: the browser imports it).
 *
 * An action validates with a zod schema from packages/contracts, and on failure returns
 * `formError(values, fieldErrors)` with status 400: each error is a translation key (and its
 * values), never an English sentence, so the page shows it in the visitor's language next to its
 * field and in the error summary. `values` are what the visitor typed (never a password), so the
 * form is filled in again and nothing is lost.
 */

/** A message to show: a translation key, or (last resort only) a text from the API. */
export type FormMessage = { key: TranslationKey; values?: TranslationValues } | { text: string };

export type FieldErrors<F extends string = string> = Partial<Record<F, FormMessage>>;

export type FormErrorResult<F extends string = string> = {
  status: "error";
  /** What was typed, passwords left out. */
  values: Partial<Record<F, string>>;
  fieldErrors: FieldErrors<F>;
  /** An error about the whole form (wrong credentials, service unavailable…). */
  formError?: FormMessage;
};

export type FormSuccessResult<F extends string = string> = {
  status: "success";
  message: FormMessage;
  /** What to show in the form again (never a password). */
  values?: Partial<Record<F, string>>;
};

export type FormResult<F extends string = string> = FormErrorResult<F> | FormSuccessResult<F>;

/** The fields of this codebase's forms, by their input names (the API's snake_case). */
export const FORM_FIELDS = [
  "email",
  "password",
  "new_password",
  "confirm_password",
  "current_password",
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
  "time_zone",
  "terms",
  "token",
  "code",
] as const;
export type FormField = (typeof FORM_FIELDS)[number];

/** Fields whose value never goes back to the browser (the reset token stays in its link). */
const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "token",
  "password",
  "new_password",
  "confirm_password",
  "current_password",
]);

export type IssueKind = "required" | "invalid" | "tooShort" | "tooLong" | (string & {});

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

export function isFormField(name: string): name is FormField {
  return (FORM_FIELDS as readonly string[]).includes(name);
}

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

/** The subset of a zod issue this module reads (zod 4's `$ZodIssue`). */
export type IssueLike = {
  code: string;
  path: readonly PropertyKey[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  params?: Record<string, unknown>;
};

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

/**
 * The named fields of a submitted form as strings ("" for a missing field or a file), so a schema
 * sees only the fields it expects and nothing else the browser sent.
 */
export function readFields<F extends string>(formData: FormData, fields: readonly F[]): Record<F, string> {
  const values = {} as Record<F, string>;
  for (const field of fields) {
    const value = formData.get(field);
    values[field] = typeof value === "string" ? value : "";
  }
  return values;
}

/** The submitted values to send back to the page: everything but passwords. */
export function safeValues<F extends string>(values: Record<F, string>): Partial<Record<F, string>> {
  const kept: Partial<Record<F, string>> = {};
  for (const [name, value] of Object.entries(values) as Array<[F, string]>) {
    if (!SECRET_FIELDS.has(name)) kept[name] = value;
  }
  return kept;
}

/** The body of a failed submission (return it with status 400 or the API's status). */
export function formError<F extends string>(
  values: Record<F, string>,
  fieldErrors: FieldErrors<F>,
  formMessage?: FormMessage,
): FormErrorResult<F> {
  return {
    status: "error",
    values: safeValues(values),
    fieldErrors,
    ...(formMessage ? { formError: formMessage } : {}),
  };
}

/** The body of a successful submission. */
export function formSuccess<F extends string>(
  message: FormMessage,
  values?: Record<F, string>,
): FormSuccessResult<F> {
  return { status: "success", message, ...(values ? { values: safeValues(values) } : {}) };
}

/** The action data of a successful submission, or undefined. */
export function successOf<F extends string>(
  result: FormResult<F> | null | undefined,
): FormSuccessResult<F> | undefined {
  return result?.status === "success" ? result : undefined;
}

/** The action data of a failed submission, or undefined. */
export function errorsOf<F extends string>(
  result: FormResult<F> | null | undefined,
): FormErrorResult<F> | undefined {
  return result?.status === "error" ? result : undefined;
}

/** Input ids: `<form id>-<field>`; the error of a field is `<input id>-error`. */
export function fieldId(formId: string, field: string): string {
  return `${formId}-${field.replace(/_/g, "-")}`;
}
