import {
  type IntakePart,
  type IntakeQuestion,
  type IntakeQuestionName,
  type IntakeRecord,
  intakeQuestions,
} from "@ambercare/contracts/intake";
import { fieldKey, optionKey, optionLabel } from "#app/features/consultations/intake-form.ts";
import { type TFunction, type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { usStateName } from "#app/lib/us-state-names.ts";

const fieldLabel = (t: TFunction, name: string) =>
  t(`consultation.form.fields.${fieldKey(name)}` as TranslationKey);

/** A part of a person's answer in words. */
function partInWords(t: TFunction, part: IntakePart, value: unknown): string {
  if (typeof value !== "string") return t("consultation.answers.notAsked");
  return part.kind === "select" ? optionLabel(t, part.form, part.options, value) : value;
}

/**
 * The rows of a question asked since version 2, drawn by its kind: a question the intake does not
 * hold is "not asked", one left empty "—", one hidden by an earlier answer not shown.
 */
export function laterRows(
  t: TFunction,
  intake: IntakeRecord,
  name: IntakeQuestionName,
  question: IntakeQuestion,
): Array<[string, string]> {
  const answer: unknown = intake[name];
  const when = question.shownWhen;
  const empty = answer === null || (Array.isArray(answer) && answer.length === 0);
  if (when && intake[when.question as IntakeQuestionName] !== when.is && (answer === undefined || empty)) {
    return [];
  }
  const label = fieldLabel(t, name);
  if (answer === undefined) return [[label, t("consultation.answers.notAsked")]];
  if (answer === null) return [[label, "—"]];
  switch (question.kind) {
    case "radio":
    case "select":
      return [[label, optionLabel(t, name, question.options, String(answer))]];
    case "checkboxes":
      return [
        [
          label,
          (answer as string[]).map((value) => optionLabel(t, name, question.options, value)).join(", ") ||
            "—",
        ],
      ];
    case "yes-no":
      return [[label, answer ? t("consultation.form.yes") : t("consultation.form.no")]];
    case "person":
      return Object.entries(question.parts).map(([part, spec]) => [
        fieldLabel(t, spec.form),
        partInWords(t, spec, (answer as Record<string, unknown>)[part]),
      ]);
    case "text":
    case "textarea":
    case "date":
    case "number":
      return [[label, String(answer)]];
  }
}

/**
 * A visit's intake answers as a list of questions and answers: the patient's records, the clinician's
 * workspace. The first version's questions keep their own layout (who it is for first, a temperature
 * with where it was measured, the trip in one row); later questions follow, each drawn by its kind.
 * An intake stored before a question was asked (ADR 057) shows it as not asked.
 */
export function IntakeAnswers({ intake }: { intake: IntakeRecord }) {
  const { t } = useTranslation();
  const notAsked = t("consultation.answers.notAsked");
  const option = (group: string, value: string) =>
    t(`consultation.options.${group}.${optionKey(value)}` as TranslationKey);
  /** The answer in words, or "not asked" when the intake does not hold it. */
  const given = <T,>(answer: T | undefined, words: (answer: T) => string) =>
    answer === undefined ? notAsked : words(answer);
  const rows: Array<[string, string]> = [];
  if (intake.dependent) {
    rows.push(
      [t("consultation.form.fields.relationship"), option("relationship", intake.dependent.relationship)],
      [t("consultation.card.for"), `${intake.dependent.first_name} ${intake.dependent.last_name}`],
      [t("consultation.form.fields.dependentDateOfBirth"), intake.dependent.date_of_birth],
    );
  } else if (intake.patient === "dependent") {
    rows.push([t("consultation.card.for"), notAsked]);
  }
  rows.push(
    [t("consultation.form.fields.gender"), given(intake.gender, (gender) => option("gender", gender))],
    [t("consultation.form.fields.race"), given(intake.race, (race) => option("race", race))],
    [t("consultation.form.fields.ethnicity"), given(intake.ethnicity, (value) => option("ethnicity", value))],
    [t("consultation.form.fields.state"), given(intake.state, (state) => usStateName(t, state))],
    [
      t("consultation.form.fields.symptoms"),
      given(intake.symptoms, (symptoms) => symptoms.map((s) => option("symptoms", s)).join(", ")),
    ],
    [t("consultation.form.fields.symptomsStartedOn"), given(intake.symptoms_started_on, (day) => day)],
  );
  if (intake.symptoms_other !== null) {
    const other = given(intake.symptoms_other, (words) => words);
    if (other) rows.push([t("consultation.form.fields.symptomsOther"), other]);
  }
  if (intake.temperature_f === undefined) {
    rows.push([t("consultation.form.fields.temperatureF"), notAsked]);
  } else if (intake.temperature_f !== null && intake.temperature_location) {
    rows.push([
      t("consultation.form.fields.temperatureF"),
      `${intake.temperature_f} °F (${option("temperatureLocation", intake.temperature_location)})`,
    ]);
  }
  rows.push([
    t("consultation.form.fields.recentTravel"),
    given(intake.recent_travel, (travelled) =>
      travelled ? t("consultation.form.yes") : t("consultation.form.no"),
    ),
  ]);
  if (intake.recent_travel) {
    rows.push([
      t("consultation.form.fields.transport"),
      intake.transport === undefined && intake.travel_destination === undefined
        ? notAsked
        : [intake.travel_destination, (intake.transport ?? []).map((m) => option("transport", m)).join(", ")]
            .filter(Boolean)
            .join(" — "),
    ]);
  }
  rows.push([t("consultation.form.fields.medications"), given(intake.medications, (words) => words ?? "—")]);
  rows.push([t("consultation.form.fields.allergies"), given(intake.allergies, (words) => words ?? "—")]);
  for (const [name, question] of intakeQuestions()) {
    if (question.since > 1) rows.push(...laterRows(t, intake, name, question));
  }
  return (
    <dl className="mt-2 grid gap-x-4 gap-y-1 text-ink tablet:grid-cols-[14rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-semibold">{label}</dt>
          <dd className="whitespace-pre-line break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
