import type {
  IntakeFieldQuestion,
  IntakePart,
  IntakeQuestion,
  IntakeQuestionName,
} from "@ambercare/contracts/intake";
import { ChoiceGroup } from "#app/components/choice-group.tsx";
import { SelectField, Textarea, TextField } from "#app/components/forms.tsx";
import {
  fieldKey,
  type IntakeField,
  type IntakeStep,
  type IntakeValues,
  isShown,
  labelledOptions,
  questionsOf,
  yesNo,
} from "#app/features/consultations/intake-form.ts";
import type { FieldErrors } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";

/**
 * The questions of one step of the intake form, each drawn by its kind from the intake's one
 * declaration (ADR 057): a field's label is `consultation.form.fields.<name in camelCase>`, its
 * options' `consultation.options.<name>.<option>` (the states' names for the states' list). Questions
 * shown only after an earlier answer sit together in an indented group; without JavaScript every
 * group shows, with a note saying when to fill it in (`consultation.form.onlyWhen.<question>`).
 */

/** What the form shows beyond a question's kind: a hint under its label, a text box's rows. */
const LOOK: Partial<Record<IntakeQuestionName, { hint?: true; rows?: number; maxRows?: number }>> = {
  state: { hint: true },
  symptoms: { hint: true },
  symptoms_other: { rows: 3, maxRows: 8 },
  temperature_f: { hint: true },
  medications: { hint: true },
};
/** How far a text box grows with its text, unless LOOK says otherwise. */
const TEXTAREA_MAX_ROWS = 12;

const asList = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value : value ? [value] : [];
const asText = (value: string | string[] | undefined) => (typeof value === "string" ? value : "");

type FieldProps = {
  formId: string;
  values: IntakeValues;
  errors: FieldErrors<string>;
  /** What a field starts with when nothing was typed (the profile's gender, the chosen state…). */
  initial: Readonly<Record<string, string>>;
  /** "YYYY-MM-DD": no date of the intake may be after it. */
  today: string;
  hydrated: boolean;
};

export function IntakeQuestions({
  step,
  deciding,
  ...props
}: FieldProps & {
  step: IntakeStep;
  /** The form's current value of each question others depend on. */
  deciding: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation();
  // Consecutive questions shown after the same answer form one group.
  const runs: Array<{ decider?: string; questions: Array<[IntakeQuestionName, IntakeQuestion]> }> = [];
  for (const entry of questionsOf(step)) {
    const decider = entry[1].shownWhen?.question;
    const last = runs.at(-1);
    if (decider && last?.decider === decider) last.questions.push(entry);
    else runs.push({ ...(decider ? { decider } : {}), questions: [entry] });
  }
  const fields = (questions: Array<[IntakeQuestionName, IntakeQuestion]>) =>
    questions.map(([name, question]) => (
      <QuestionField key={name} name={name} question={question} {...props} />
    ));
  return runs.map((run) => {
    if (!run.decider) return fields(run.questions);
    const [, first] = run.questions[0]!;
    if (props.hydrated && !isShown(first, (name) => deciding[name] ?? "")) return null;
    return (
      <div key={run.decider} className="flex flex-col gap-5 border-border border-l-4 pl-4">
        {props.hydrated ? null : (
          <p className="text-ink-muted">
            {t(`consultation.form.onlyWhen.${fieldKey(run.decider)}` as TranslationKey)}
          </p>
        )}
        {fields(run.questions)}
      </div>
    );
  });
}

function QuestionField({
  name,
  question,
  ...props
}: FieldProps & { name: IntakeQuestionName; question: IntakeQuestion }) {
  // Someone else's details: each part is a field of its own, required once the person is.
  if (question.kind === "person") {
    return Object.values(question.parts).map((part) => <PartField key={part.form} part={part} {...props} />);
  }
  return <OneField name={name} question={question} {...props} />;
}

/** A question that is one form field of the same name. */
function OneField({
  name,
  question,
  formId,
  values,
  errors,
  initial,
  today,
}: FieldProps & { name: IntakeQuestionName; question: IntakeFieldQuestion }) {
  const { t } = useTranslation();
  const look = LOOK[name] ?? {};
  const label = t(`consultation.form.fields.${fieldKey(name)}` as TranslationKey);
  const hint = look.hint
    ? t(
        `consultation.form.hints.${fieldKey(name)}` as TranslationKey,
        question.kind === "number" ? { min: question.min, max: question.max } : undefined,
      )
    : undefined;
  const field = name as IntakeField;
  const text = asText(values[field]) || (initial[name] ?? "");
  const choices = { formId, name, legend: label, ...(hint ? { hint } : {}), error: errors[name] };
  const common = { formId, name, label, ...(hint ? { hint } : {}), error: errors[name] };
  switch (question.kind) {
    case "radio":
    case "checkboxes":
      return (
        <ChoiceGroup
          {...choices}
          type={question.kind === "radio" ? "radio" : "checkbox"}
          columns={question.kind === "checkboxes"}
          options={labelledOptions(t, name, question.options)}
          selected={asList(values[field] ?? initial[name])}
        />
      );
    case "yes-no":
      return (
        <ChoiceGroup
          {...choices}
          type="radio"
          options={[
            { value: yesNo(false), label: t("consultation.form.no") },
            { value: yesNo(true), label: t("consultation.form.yes") },
          ]}
          selected={asList(values[field])}
        />
      );
    case "select":
      return (
        <SelectField
          {...common}
          options={labelledOptions(t, name, question.options)}
          optional={question.optional}
          defaultValue={text}
        />
      );
    case "text":
      return (
        <TextField
          {...common}
          maxLength={question.maxLength}
          optional={question.optional}
          defaultValue={text}
        />
      );
    case "textarea":
      return (
        <Textarea
          {...common}
          maxLength={question.maxLength}
          rows={look.rows}
          maxRows={look.maxRows ?? TEXTAREA_MAX_ROWS}
          optional={question.optional}
          defaultValue={text}
        />
      );
    case "date":
      return (
        <TextField
          {...common}
          type="date"
          max={question.notAfterToday ? today : undefined}
          defaultValue={text}
        />
      );
    case "number":
      return (
        <TextField
          {...common}
          inputMode="decimal"
          optional={question.optional}
          autoComplete="off"
          defaultValue={text}
        />
      );
  }
}

function PartField({ part, formId, values, errors, today, hydrated }: FieldProps & { part: IntakePart }) {
  const { t } = useTranslation();
  const common = {
    formId,
    name: part.form,
    label: t(`consultation.form.fields.${fieldKey(part.form)}` as TranslationKey),
    error: errors[part.form],
    // Without JavaScript the person's fields show whoever the visit is for.
    optional: !hydrated,
  };
  const value = asText(values[part.form as IntakeField]);
  switch (part.kind) {
    case "select":
      return (
        <SelectField {...common} options={labelledOptions(t, part.form, part.options)} defaultValue={value} />
      );
    case "text":
      return <TextField {...common} maxLength={part.maxLength} autoComplete="off" defaultValue={value} />;
    case "date":
      return (
        <TextField
          {...common}
          type="date"
          max={part.notAfterToday ? today : undefined}
          defaultValue={value}
        />
      );
  }
}
