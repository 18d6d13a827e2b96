/**
 * The intake form of /consultation/form, shared by the page and its action (no server code, no
 * zod: the browser imports it). The form posts flat fields; intake-form.server.ts turns them into
 * the API's `create-consultation` body and its problems back into field errors.
 */

export const INTAKE_STEPS = Object.freeze(["patient", "symptoms", "history", "consents"] as const);
export type IntakeStep = (typeof INTAKE_STEPS)[number];

/** Every field, in the order of the form, with the step it belongs to. */
export const INTAKE_FIELD_STEPS = Object.freeze({
  patient: "patient",
  relationship: "patient",
  dependent_first_name: "patient",
  dependent_last_name: "patient",
  dependent_date_of_birth: "patient",
  gender: "patient",
  race: "patient",
  ethnicity: "patient",
  state: "patient",
  symptoms: "symptoms",
  symptoms_other: "symptoms",
  symptoms_started_on: "symptoms",
  temperature_f: "symptoms",
  temperature_location: "symptoms",
  recent_travel: "history",
  travel_destination: "history",
  transport: "history",
  medications: "history",
  allergies: "history",
  consent_informed: "consents",
  consent_recording: "consents",
  consent_financial: "consents",
} as const satisfies Record<string, IntakeStep>);

export type IntakeField = keyof typeof INTAKE_FIELD_STEPS;
export const INTAKE_FIELDS = Object.freeze(Object.keys(INTAKE_FIELD_STEPS) as IntakeField[]);
/** Fields that may carry several values (checkbox groups). */
export const MULTI_FIELDS: ReadonlySet<string> = new Set(["symptoms", "transport"]);

/** What was typed, as the form holds it: one string per field, a list for checkbox groups. */
export type IntakeValues = Partial<
  Record<IntakeField | "type" | "provider_slug" | "idempotency_key", string | string[]>
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
