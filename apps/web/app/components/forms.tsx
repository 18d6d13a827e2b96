import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "@ambercare/contracts/account-limits";
import { TEXTAREA_DEFAULT_ROWS } from "@ambercare/contracts/timing";
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { useNavigation } from "react-router";
import { translateMessage, useHydrated } from "#app/components/hydrated.ts";
import type { FormErrorResult, FormMessage } from "#app/lib/forms.ts";
import { fieldId } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * Accessible form controls for the account pages (and the forms to come): every control has a
 * visible label, an optional hint, and its error right above it; `aria-invalid` and
 * `aria-describedby` tie the hint and the error to the control. `ErrorSummary` lists every error,
 * is announced (role="alert") and takes focus when a submission fails.
 */

/** Control styles (Tailwind utilities, so the shared stylesheet stays untouched). */
const INPUT_CLASS =
  "min-h-11 w-full rounded-md border-2 border-ink-muted bg-surface px-3 py-2 text-base text-ink aria-[invalid=true]:border-danger";
const ERROR_CLASS = "font-semibold text-danger";

export { translateMessage, useHydrated };

type FieldFrameProps = {
  id: string;
  label: string;
  hint?: string;
  error?: FormMessage;
  optional?: boolean;
  children: (describedBy: string | undefined, invalid: boolean) => ReactNode;
};

function FieldFrame({ id, label, hint, error, optional, children }: FieldFrameProps) {
  const { t } = useTranslation();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold text-ink">
        {label}
        {optional ? <span className="font-normal text-ink-muted"> ({t("forms.optional")})</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className="text-ink-muted text-sm">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={ERROR_CLASS}>
          {translateMessage(t, error)}
        </p>
      ) : null}
      {children(describedBy, Boolean(error))}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "children"> & {
  formId: string;
  name: string;
  label: string;
  hint?: string;
  error?: FormMessage;
  optional?: boolean;
};

export function TextField({
  formId,
  name,
  label,
  hint,
  error,
  optional,
  type = "text",
  ...input
}: InputProps) {
  const id = fieldId(formId, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optional={optional}>
      {(describedBy, invalid) => (
        <input
          id={id}
          name={name}
          type={type}
          required={!optional}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={INPUT_CLASS}
          {...input}
        />
      )}
    </FieldFrame>
  );
}

/** The e-mail field of every account form: same label, keyboard, autocomplete and limit everywhere. */
export function EmailField(props: Omit<InputProps, "name" | "label" | "type">) {
  const { t } = useTranslation();
  return (
    <TextField
      name="email"
      type="email"
      label={t("forms.fields.email")}
      autoComplete="email"
      inputMode="email"
      spellCheck={false}
      autoCapitalize="none"
      maxLength={EMAIL_MAX_LENGTH}
      {...props}
    />
  );
}

/** A new password and its confirmation, as reset-password and change-password ask for them. */
export function NewPasswordFields({
  formId,
  errors,
}: {
  formId: string;
  errors?: { new_password?: FormMessage; confirm_password?: FormMessage };
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        formId={formId}
        name="new_password"
        label={t("forms.fields.newPassword")}
        hint={t("forms.hints.password")}
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        maxLength={PASSWORD_MAX_LENGTH}
        error={errors?.new_password}
      />
      <PasswordField
        formId={formId}
        name="confirm_password"
        label={t("forms.fields.confirmPassword")}
        autoComplete="new-password"
        maxLength={PASSWORD_MAX_LENGTH}
        error={errors?.confirm_password}
      />
    </>
  );
}

/** A password input with a Show/Hide button (added once JavaScript runs; the input works without it). */
export function PasswordField({
  formId,
  name,
  label,
  hint,
  error,
  optional,
  ...input
}: Omit<InputProps, "type">) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  const id = fieldId(formId, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optional={optional}>
      {(describedBy, invalid) => (
        <div className="flex gap-2">
          <input
            id={id}
            name={name}
            type={visible ? "text" : "password"}
            required={!optional}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            className={`${INPUT_CLASS} min-w-0 flex-1`}
            {...input}
          />
          {hydrated ? (
            <button
              type="button"
              className="button-secondary shrink-0 px-3 text-sm"
              aria-controls={id}
              // The visible word starts the accessible name (WCAG 2.5.3): "Show" → "Show password".
              aria-label={visible ? t("forms.hidePassword") : t("forms.showPassword")}
              onClick={() => setVisible((shown) => !shown)}
            >
              {visible ? t("forms.hide") : t("forms.show")}
            </button>
          ) : null}
        </div>
      )}
    </FieldFrame>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "name" | "children"> & {
  formId: string;
  name: string;
  label: string;
  hint?: string;
  error?: FormMessage;
  optional?: boolean;
  /** Options with a `group` are shown under it (an optgroup), each run of one group together. */
  options: ReadonlyArray<SelectOption>;
};

export type SelectOption = { value: string; label: string; group?: string | undefined };

/** Consecutive options of one group together; options without a group stand on their own. */
function optionRuns(
  options: ReadonlyArray<SelectOption>,
): Array<{ group?: string; options: SelectOption[] }> {
  const runs: Array<{ group?: string; options: SelectOption[] }> = [];
  for (const option of options) {
    const last = runs.at(-1);
    if (last && option.group !== undefined && last.group === option.group) last.options.push(option);
    else runs.push({ ...(option.group === undefined ? {} : { group: option.group }), options: [option] });
  }
  return runs;
}

/**
 * The options a server-rendered `<select>` of the page holds, read from the document (with their
 * optgroup's label as `group`; the empty "Select" option left out), for a field that hydrates with
 * the options of its HTML instead of receiving them again as route data. Null outside a browser or
 * when the page has no such select.
 */
export function renderedSelectOptions(formId: string, name: string): SelectOption[] | null {
  if (typeof document === "undefined") return null;
  const select = document.getElementById(fieldId(formId, name));
  if (!(select instanceof HTMLSelectElement)) return null;
  return [...select.options]
    .filter((option) => option.value !== "")
    .map((option) => {
      const group =
        option.parentElement instanceof HTMLOptGroupElement ? option.parentElement.label : undefined;
      return { value: option.value, label: option.text, ...(group === undefined ? {} : { group }) };
    });
}

export function SelectField({ formId, name, label, hint, error, optional, options, ...select }: SelectProps) {
  const { t } = useTranslation();
  const id = fieldId(formId, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optional={optional}>
      {(describedBy, invalid) => (
        <select
          id={id}
          name={name}
          required={!optional}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={INPUT_CLASS}
          {...select}
        >
          <option value="">{t("forms.select")}</option>
          {optionRuns(options).map((run) => {
            const rendered = run.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ));
            return run.group === undefined ? (
              rendered
            ) : (
              <optgroup key={`group-${run.group}`} label={run.group}>
                {rendered}
              </optgroup>
            );
          })}
        </select>
      )}
    </FieldFrame>
  );
}

/** A positive whole number of rows, or the fallback (a textarea's rows and max rows must be numeric). */
export function textareaRows(value: unknown, fallback: number): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : fallback;
}

type TextareaProps = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "id" | "name" | "rows" | "children"
> & {
  formId: string;
  name: string;
  label: string;
  hint?: string;
  error?: FormMessage;
  optional?: boolean;
  /** Rows shown at first (numeric; default 5). */
  rows?: number | string;
  /** With JavaScript the box grows with its text up to this many rows (numeric; default: no growth). */
  maxRows?: number | string;
};

export function Textarea({
  formId,
  name,
  label,
  hint,
  error,
  optional,
  rows,
  maxRows,
  onInput,
  ...textarea
}: TextareaProps) {
  const id = fieldId(formId, name);
  const baseRows = textareaRows(rows, TEXTAREA_DEFAULT_ROWS);
  const limit = Math.max(baseRows, textareaRows(maxRows, baseRows));
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} optional={optional}>
      {(describedBy, invalid) => (
        <textarea
          id={id}
          name={name}
          rows={baseRows}
          required={!optional}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={INPUT_CLASS}
          onInput={(event) => {
            const box = event.currentTarget;
            const lines = box.value.split("\n").length;
            box.rows = Math.min(limit, Math.max(baseRows, lines));
            onInput?.(event);
          }}
          {...textarea}
        />
      )}
    </FieldFrame>
  );
}

/** A checkbox whose label may hold links (the terms of sign-up). */
export function CheckboxField({
  formId,
  name,
  label,
  error,
  defaultChecked,
}: {
  formId: string;
  name: string;
  label: ReactNode;
  error?: FormMessage;
  defaultChecked?: boolean;
}) {
  const { t } = useTranslation();
  const id = fieldId(formId, name);
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="flex flex-col gap-1">
      {error ? (
        <p id={errorId} className={ERROR_CLASS}>
          {translateMessage(t, error)}
        </p>
      ) : null}
      <div className="flex items-start gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          required
          defaultChecked={defaultChecked}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          className="mt-1 size-5 shrink-0 accent-primary-ink"
        />
        <label htmlFor={id} className="text-ink">
          {label}
        </label>
      </div>
    </div>
  );
}

/**
 * "There is a problem": every error of a failed submission, each linking to its field, announced
 * and focused so keyboard and screen-reader users start from it. Without JavaScript the server's
 * page carries `autofocus`; with it, focus moves on each failed submission.
 */
export function ErrorSummary<F extends string>({
  formId,
  result,
  order,
}: {
  formId: string;
  result: FormErrorResult<F> | undefined;
  /** Fields in the order of the form. */
  order: readonly F[];
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  useEffect(() => {
    if (result) ref.current?.focus();
  }, [result]);
  if (!result) return null;
  const fields = order.filter((field) => result.fieldErrors[field] !== undefined);
  if (!result.formError && fields.length === 0) return null;
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: the summary of a failed submission must take focus (WCAG 3.3.1)
      autoFocus
      aria-labelledby={titleId}
      className="mb-6 rounded-md border-4 border-danger bg-surface p-4"
    >
      <h2 id={titleId} className="font-bold text-ink text-lg">
        {t("forms.summaryTitle")}
      </h2>
      <ul className="mt-2 flex flex-col gap-1">
        {result.formError ? <li className="text-danger">{translateMessage(t, result.formError)}</li> : null}
        {fields.map((field) => {
          const message = result.fieldErrors[field];
          const id = fieldId(formId, field);
          return message ? (
            <li key={field}>
              <a
                href={`#${id}`}
                className="font-semibold text-danger underline underline-offset-2"
                onClick={(event) => {
                  const target = document.getElementById(id);
                  if (!target) return;
                  event.preventDefault();
                  target.focus();
                  target.scrollIntoView({ block: "center" });
                }}
              >
                {translateMessage(t, message)}
              </a>
            </li>
          ) : null;
        })}
      </ul>
    </div>
  );
}

/**
 * A success message, announced politely. The region is always rendered (empty when there is nothing
 * to say) so that screen readers announce the message when it appears.
 */
export function StatusMessage({
  message,
  title,
  details,
}: {
  message: FormMessage | undefined;
  title?: string;
  details?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className={
        message ? "mb-6 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink" : undefined
      }
    >
      {message ? (
        <>
          {title ? <p className="font-bold text-lg">{title}</p> : null}
          <p>{translateMessage(t, message)}</p>
          {details ? <p className="mt-2 text-ink-muted">{details}</p> : null}
        </>
      ) : null}
    </div>
  );
}

/**
 * The submit button; it reads `pendingLabel` while its form is being submitted. On a page with
 * several forms, each carries a hidden `intent` input and its button names the same `intent`.
 */
export function SubmitButton({
  children,
  pendingLabel,
  intent,
  className = "button-primary w-full tablet:w-auto",
}: {
  children: ReactNode;
  pendingLabel: string;
  intent?: string;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      className={className}
      aria-disabled={pending || undefined}
      onClick={(event) => {
        // A second click while the first submission runs would only cancel and resend it.
        if (pending) event.preventDefault();
      }}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
