import type { ReactNode } from "react";
import { translateMessage } from "#app/components/forms.tsx";
import type { FormMessage } from "#app/lib/forms.ts";
import { fieldId } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * A group of radio buttons or checkboxes in a fieldset: the legend names the question, the error
 * sits above the choices, and the first choice carries the field's id so the error summary can
 * link to it.
 */
export function ChoiceGroup({
  formId,
  name,
  legend,
  hint,
  error,
  type,
  options,
  selected,
  optional,
  columns = false,
}: {
  formId: string;
  name: string;
  legend: ReactNode;
  hint?: string;
  error?: FormMessage;
  type: "radio" | "checkbox";
  options: ReadonlyArray<{ value: string; label: string }>;
  selected: readonly string[];
  optional?: boolean;
  columns?: boolean;
}) {
  const { t } = useTranslation();
  const id = fieldId(formId, name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={describedBy}>
      <legend className="font-semibold text-ink">
        {legend}
        {optional ? <span className="font-normal text-ink-muted"> ({t("forms.optional")})</span> : null}
      </legend>
      {hint ? (
        <p id={hintId} className="text-ink-muted text-sm">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="font-semibold text-danger">
          {translateMessage(t, error)}
        </p>
      ) : null}
      <div className={columns ? "grid gap-2 tablet:grid-cols-2 laptop:grid-cols-3" : "flex flex-col gap-2"}>
        {options.map((option, index) => {
          const optionId = index === 0 ? id : `${id}-${index}`;
          return (
            <div key={option.value} className="flex items-start gap-3">
              <input
                id={optionId}
                type={type}
                name={name}
                value={option.value}
                defaultChecked={selected.includes(option.value)}
                aria-invalid={error ? true : undefined}
                className="mt-1 size-5 shrink-0 accent-primary-ink"
              />
              <label htmlFor={optionId} className="text-ink">
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
