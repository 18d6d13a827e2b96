import { type CreateConsultationRequest, createConsultationRequest } from "@ambercare/contracts/consultation";
import {
  INTAKE_FIELDS,
  type IntakeField,
  type IntakeValues,
  MULTI_FIELDS,
} from "#app/features/consultations/intake-form.ts";
import type { FieldErrors, FormMessage } from "#app/lib/forms.ts";

/** The submitted form as IntakeValues: only known fields, files ignored. */
export function readIntake(formData: FormData): IntakeValues {
  const values: IntakeValues = {};
  for (const name of [...INTAKE_FIELDS, "type", "provider_slug", "idempotency_key"] as const) {
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
  intake: Record<string, unknown>;
  consents: Record<string, boolean>;
};

/** The API body for the form's values; what does not fit the contract is left for zod to report. */
export function intakePayload(values: IntakeValues): IntakeDraft {
  const dependent = text(values, "patient") === "dependent";
  const temperature = text(values, "temperature_f").replace(",", ".");
  const travel = text(values, "recent_travel");
  return {
    idempotency_key: text(values, "idempotency_key"),
    type: text(values, "type"),
    provider_slug: orNull(text(values, "provider_slug")),
    intake: {
      patient: text(values, "patient"),
      dependent: dependent
        ? {
            relationship: text(values, "relationship"),
            first_name: text(values, "dependent_first_name"),
            last_name: text(values, "dependent_last_name"),
            date_of_birth: text(values, "dependent_date_of_birth"),
          }
        : null,
      gender: text(values, "gender"),
      race: text(values, "race"),
      ethnicity: text(values, "ethnicity"),
      state: text(values, "state"),
      symptoms: list(values, "symptoms"),
      symptoms_other: orNull(text(values, "symptoms_other")),
      symptoms_started_on: text(values, "symptoms_started_on"),
      temperature_f: temperature === "" ? null : Number(temperature),
      temperature_location: orNull(text(values, "temperature_location")),
      recent_travel: travel === "yes" ? true : travel === "no" ? false : undefined,
      travel_destination: travel === "yes" ? orNull(text(values, "travel_destination")) : null,
      transport: travel === "yes" ? list(values, "transport") : [],
      medications: orNull(text(values, "medications")),
      allergies: orNull(text(values, "allergies")),
    },
    consents: {
      informed_consent: text(values, "consent_informed") === "on",
      audio_video_recording: text(values, "consent_recording") === "on",
      financial_communications: text(values, "consent_financial") === "on",
    },
  };
}

/** The form field an API path (`intake.dependent.first_name`) belongs to. */
export function fieldOfPath(path: readonly PropertyKey[]): IntakeField | "type" | null {
  const [head, second, third] = path.map(String);
  if (head === "type") return "type";
  if (head === "consents") {
    return second === "informed_consent"
      ? "consent_informed"
      : second === "audio_video_recording"
        ? "consent_recording"
        : "consent_financial";
  }
  if (head !== "intake" || second === undefined) return null;
  if (second === "dependent") {
    if (third === "relationship") return "relationship";
    if (third === "date_of_birth") return "dependent_date_of_birth";
    if (third === "last_name") return "dependent_last_name";
    return third === "first_name" ? "dependent_first_name" : "relationship";
  }
  if (second === "temperature_location") return "temperature_location";
  return (INTAKE_FIELDS as readonly string[]).includes(second) ? (second as IntakeField) : null;
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
