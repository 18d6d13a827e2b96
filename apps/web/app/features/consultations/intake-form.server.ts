import { type CreateConsultationRequest, createConsultationRequest } from "@ambercare/contracts/consultation";
import {
  INTAKE_QUESTIONS,
  type IntakeQuestion,
  type IntakeQuestionName,
  intakeQuestions,
} from "@ambercare/contracts/intake";
import {
  CONSENTS,
  INTAKE_FIELDS,
  type IntakeField,
  type IntakeValues,
  isShown,
  MULTI_FIELDS,
  yesNo,
} from "#app/features/consultations/intake-form.ts";
import type { FieldErrors, FormMessage } from "#app/lib/forms.ts";

/** The submitted form as IntakeValues: only known fields, files ignored. */
export function readIntake(formData: FormData): IntakeValues {
  const values: IntakeValues = {};
  for (const name of [
    ...INTAKE_FIELDS,
    "type",
    "provider_slug",
    "idempotency_key",
    "hold_id",
    "hold_start",
  ] as const) {
    const all = formData.getAll(name).filter((v): v is string => typeof v === "string");
    values[name] = MULTI_FIELDS.has(name) ? all : (all[0] ?? "");
  }
  return values;
}

const text = (values: IntakeValues, name: keyof IntakeValues): string => {
  const value = values[name];
  return typeof value === "string" ? value.trim() : "";
};
const list = (values: IntakeValues, name: keyof IntakeValues): string[] => {
  const value = values[name];
  return Array.isArray(value) ? value : [];
};
const orNull = (value: string) => (value === "" ? null : value);

/**
 * The form's values in the shape of the API's body, not yet checked: each field as the visitor sent
 * it (a string, a list, a flag), for `createConsultationRequest` to accept or to report field by field.
 */
export type IntakeDraft = {
  idempotency_key: string;
  type: string;
  provider_slug: string | null;
  /** A held time (ADR 059): the visit is then booked at it. */
  hold_id: string | null;
  intake: Record<string, unknown>;
  consents: Record<string, boolean>;
};

/** A question's answer when it is not shown: nothing (an empty list for a checkbox group). */
const notShown = (question: IntakeQuestion) => (question.kind === "checkboxes" ? [] : null);

/** One question's answer from the form's fields, as the API's body carries it. */
function answerOf(name: IntakeQuestionName, question: IntakeQuestion, values: IntakeValues): unknown {
  if (!isShown(question, (decider) => text(values, decider as IntakeField))) return notShown(question);
  const value = text(values, name as IntakeField);
  switch (question.kind) {
    case "radio":
    case "select":
    case "text":
    case "textarea":
      return question.optional ? orNull(value) : value;
    case "checkboxes":
      return list(values, name as IntakeField);
    case "date":
      return value;
    case "number": {
      const number = value.replace(",", ".");
      return number === "" ? null : Number(number);
    }
    case "yes-no":
      return value === yesNo(true) ? true : value === yesNo(false) ? false : undefined;
    case "person":
      return Object.fromEntries(
        Object.entries(question.parts).map(([part, field]) => [
          part,
          text(values, field.form as IntakeField),
        ]),
      );
  }
}

/** The API body for the form's values; what does not fit the contract is left for zod to report. */
export function intakePayload(values: IntakeValues): IntakeDraft {
  return {
    idempotency_key: text(values, "idempotency_key"),
    type: text(values, "type"),
    provider_slug: orNull(text(values, "provider_slug")),
    hold_id: orNull(text(values, "hold_id")),
    intake: Object.fromEntries(
      intakeQuestions().map(([name, question]) => [name, answerOf(name, question, values)]),
    ),
    consents: Object.fromEntries(
      CONSENTS.map((consent) => [consent.api, text(values, consent.name) === "on"]),
    ),
  };
}

/** The form field an API path (`intake.dependent.first_name`) belongs to. */
export function fieldOfPath(path: readonly PropertyKey[]): IntakeField | "type" | null {
  const [head, second, third] = path.map(String);
  if (head === "type") return "type";
  if (head === "consents") {
    return CONSENTS.find((consent) => consent.api === second)?.name ?? "consent_financial";
  }
  if (head !== "intake" || second === undefined || !Object.hasOwn(INTAKE_QUESTIONS, second)) return null;
  const question: IntakeQuestion = INTAKE_QUESTIONS[second as IntakeQuestionName];
  if (question.kind !== "person") return second as IntakeField;
  // A person's problem is on its part's field; one about the whole person, on its first.
  const parts = Object.entries(question.parts);
  return ((parts.find(([part]) => part === third) ?? parts[0])?.[1].form ?? null) as IntakeField | null;
}

const OWN_MESSAGES: Partial<Record<IntakeField, FormMessage>> = {
  symptoms: { key: "consultation.form.errors.symptoms" },
  symptoms_started_on: { key: "consultation.form.errors.startedOn" },
  temperature_f: { key: "consultation.form.errors.temperature" },
  temperature_location: { key: "consultation.form.errors.temperatureLocation" },
  recent_travel: { key: "consultation.form.errors.recentTravel" },
  transport: { key: "consultation.form.errors.transport" },
  dependent_date_of_birth: { key: "consultation.form.errors.dateOfBirth" },
  consent_informed: { key: "consultation.form.errors.consent" },
  consent_recording: { key: "consultation.form.errors.consent" },
  consent_financial: { key: "consultation.form.errors.consent" },
  patient: { key: "consultation.form.errors.patient" },
};

/** Validates against the API's own contract; field errors in the visitor's language, or the body. */
export function validateIntake(
  values: IntakeValues,
): { ok: true; payload: CreateConsultationRequest } | { ok: false; fieldErrors: FieldErrors<string> } {
  const payload = intakePayload(values);
  const parsed = createConsultationRequest.safeParse(payload);
  if (parsed.success) return { ok: true, payload: parsed.data };
  const fieldErrors: FieldErrors<string> = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOfPath(issue.path);
    if (!field || fieldErrors[field]) continue;
    const raw = values[field];
    const empty = raw === undefined || (Array.isArray(raw) ? raw.length === 0 : raw.trim() === "");
    fieldErrors[field] =
      (field !== "type" ? OWN_MESSAGES[field] : undefined) ??
      (empty ? { key: "forms.errors.required" } : { key: "forms.errors.invalid" });
  }
  if (Object.keys(fieldErrors).length === 0) fieldErrors.patient = { key: "forms.errors.invalid" };
  return { ok: false, fieldErrors };
}
