import {
  formNamesOf,
  type IntakeFormName,
  type IntakeQuestion,
  type IntakeQuestionName,
  intakeQuestions,
  INTAKE_STEPS as QUESTION_STEPS,
} from "@ambercare/contracts/intake";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import type { TFunction, TranslationKey } from "#app/lib/i18n.tsx";
import { usStateName } from "#app/lib/us-state-names.ts";

/**
 * The intake form of /consultation/form, shared by the page and its action (no server code, no
 * zod: the browser imports it). Its questions, their steps and kinds are the intake's one
 * declaration (packages/contracts/src/intake.ts, ADR 057); this adds the consents step. The form
 * posts flat fields; intake-form.server.ts turns them into the API's `create-consultation` body and
 * its problems back into field errors.
 */

export const INTAKE_STEPS = Object.freeze([...QUESTION_STEPS, "consents"] as const);
export type IntakeStep = (typeof INTAKE_STEPS)[number];

/** The three consents of the request, their form fields, the API's names and the pages explaining them. */
export const CONSENTS = Object.freeze([
  {
    name: "consent_informed",
    api: "informed_consent",
    label: "consultation.form.consents.informed",
    page: "/informed-consent",
  },
  {
    name: "consent_recording",
    api: "audio_video_recording",
    label: "consultation.form.consents.recording",
    page: "/audio-video-recording-consent-in-ehrs",
  },
  {
    name: "consent_financial",
    api: "financial_communications",
    label: "consultation.form.consents.financial",
    page: "/patient-consent-for-financial-communications",
  },
] as const);
type ConsentField = (typeof CONSENTS)[number]["name"];

export type IntakeField = IntakeFormName | ConsentField;

/** Every field, in the order of the form, with the step it belongs to. */
export const INTAKE_FIELD_STEPS: Readonly<Record<IntakeField, IntakeStep>> = Object.freeze(
  Object.fromEntries([
    ...intakeQuestions().flatMap(([name, question]) =>
      formNamesOf(name).map((field) => [field, question.step]),
    ),
    ...CONSENTS.map((consent) => [consent.name, "consents"]),
  ]) as Record<IntakeField, IntakeStep>,
);

export const INTAKE_FIELDS = Object.freeze(Object.keys(INTAKE_FIELD_STEPS) as IntakeField[]);
/** Fields that may carry several values (checkbox groups). */
export const MULTI_FIELDS: ReadonlySet<string> = new Set(
  intakeQuestions()
    .filter(([, question]) => question.kind === "checkboxes")
    .map(([name]) => name),
);

/** The questions of one step, in order. */
export function questionsOf(step: IntakeStep): Array<[IntakeQuestionName, IntakeQuestion]> {
  return intakeQuestions().filter(([, question]) => question.step === step);
}

/** What was typed, as the form holds it: one string per field, a list for checkbox groups. */
export type IntakeValues = Partial<
  Record<
    IntakeField | "type" | "provider_slug" | "idempotency_key" | "hold_id" | "hold_start",
    string | string[]
  >
>;

/** Where a draft of the form is kept in the browser between reloads (this tab only). */
export const INTAKE_DRAFT_KEY = "ambercare.intake-draft";

/** "Cold & Flu" → "cold_flu": the translation key of an option value. */
export function optionKey(value: string): string {
  return value
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, "_")
    .replaceAll(/^_|_$/g, "");
}

/** "symptoms_started_on" → "symptomsStartedOn": the translation key of a field or question. */
export function fieldKey(name: string): string {
  return name.replaceAll(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** A yes-no answer as the form sends it. */
export const yesNo = (answer: boolean) => (answer ? "yes" : "no");

/**
 * Whether a question is shown, given the form's value of the question it depends on (the value a
 * radio sends, "yes"/"no" for a yes-no question); a question that depends on none always is.
 */
export function isShown(question: IntakeQuestion, formValue: (name: string) => string): boolean {
  const when = question.shownWhen;
  if (!when) return true;
  return formValue(when.question) === (typeof when.is === "boolean" ? yesNo(when.is) : when.is);
}

/** The questions other questions depend on (their answers show or hide them as they change). */
export const DECIDING_QUESTIONS: readonly string[] = Object.freeze([
  ...new Set(
    intakeQuestions().flatMap(([, question]) => (question.shownWhen ? [question.shownWhen.question] : [])),
  ),
]);

/** The states' list of the intake: its options are named by the locale files' state names. */
export const isStateList = (options: readonly string[]) => options === US_STATE_CODES;

/** An option's label: the state's name, or `consultation.options.<field>.<option>`. */
export function optionLabel(t: TFunction, field: string, options: readonly string[], value: string): string {
  return isStateList(options)
    ? usStateName(t, value)
    : t(`consultation.options.${fieldKey(field)}.${optionKey(value)}` as TranslationKey);
}

/** The options of a field with their labels, for a select or a group of choices. */
export function labelledOptions(t: TFunction, field: string, options: readonly string[]) {
  return options.map((value) => ({ value, label: optionLabel(t, field, options, value) }));
}

/**
 * The gender field when "who is it for" changes: the profile's gender describes the account holder,
 * so a visit for someone they care for starts without it; back to "me", the profile's comes back.
 * A gender the patient chose (anything but the profile's, or empty) is never touched.
 */
export function genderForPatient(
  patient: "self" | "dependent",
  gender: string,
  profileGender: string | null,
): string {
  if (!profileGender) return gender;
  if (patient === "dependent") return gender === profileGender ? "" : gender;
  return gender === "" ? profileGender : gender;
}
