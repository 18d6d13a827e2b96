import type { IntakeRecord } from "@ambercare/contracts/consultation";
import { optionKey } from "#app/features/consultations/intake-form.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { usStateName } from "#app/lib/us-state-names.ts";

/** A visit's intake answers as a list of questions and answers: the patient's records, the clinician's workspace. */
export function IntakeAnswers({ intake }: { intake: IntakeRecord }) {
  const { t } = useTranslation();
  const option = (group: string, value: string) =>
    t(`consultation.options.${group}.${optionKey(value)}` as TranslationKey);
  const rows: Array<[string, string]> = [
    [t("consultation.form.fields.gender"), option("gender", intake.gender)],
    [t("consultation.form.fields.race"), option("race", intake.race)],
    [t("consultation.form.fields.ethnicity"), option("ethnicity", intake.ethnicity)],
    [t("consultation.form.fields.state"), usStateName(t, intake.state)],
    [t("consultation.form.fields.symptoms"), intake.symptoms.map((s) => option("symptoms", s)).join(", ")],
    [t("consultation.form.fields.startedOn"), intake.symptoms_started_on],
  ];
  if (intake.dependent) {
    rows.unshift(
      [t("consultation.form.fields.relationship"), option("relationship", intake.dependent.relationship)],
      [t("consultation.card.for"), `${intake.dependent.first_name} ${intake.dependent.last_name}`],
      [t("consultation.form.fields.dependentDateOfBirth"), intake.dependent.date_of_birth],
    );
  }
  if (intake.symptoms_other) rows.push([t("consultation.form.fields.symptomsOther"), intake.symptoms_other]);
  if (intake.temperature_f !== null && intake.temperature_location) {
    rows.push([
      t("consultation.form.fields.temperature"),
      `${intake.temperature_f} °F (${option("temperatureLocation", intake.temperature_location)})`,
    ]);
  }
  rows.push([
    t("consultation.form.fields.recentTravel"),
    intake.recent_travel ? t("consultation.form.yes") : t("consultation.form.no"),
  ]);
  if (intake.recent_travel) {
    rows.push([
      t("consultation.form.fields.transport"),
      [intake.travel_destination, intake.transport.map((m) => option("transport", m)).join(", ")]
        .filter(Boolean)
        .join(" — "),
    ]);
  }
  rows.push([t("consultation.form.fields.medications"), intake.medications ?? "—"]);
  rows.push([t("consultation.form.fields.allergies"), intake.allergies ?? "—"]);
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
