import type { TranslationKey, TranslationValues } from "#app/lib/i18n.tsx";

/**
 * Form state shared by actions and their components (no server code: the browser imports it).
 *
 * An action validates with a zod schema from packages/contracts, and on failure returns
 * `formError(values, fieldErrors)` with status 400: each error is a translation key (and its
 * values), never an English sentence, so the page shows it in the visitor's language next to its
 * field and in the error summary. `values` are what the visitor typed (never a password), so the
 * form is filled in again and nothing is lost.
 *
 * The messages themselves (which key for which field and problem) are in field-messages.ts, which
 * only actions and server code import: every module a page imports brings its strings into the
 * page (ADR 042), and this one is imported by the shell's forms on every page.
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

export function isFormField(name: string): name is FormField {
  return (FORM_FIELDS as readonly string[]).includes(name);
}

/** The subset of a zod issue field-messages.ts reads (zod 4's `$ZodIssue`). */
export type IssueLike = {
  code: string;
  path: readonly PropertyKey[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  params?: Record<string, unknown>;
};

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
