import { describe, expect, it } from "vitest";
import { textareaRows } from "#app/components/forms.tsx";
import {
  fieldOfPath,
  intakePayload,
  readIntake,
  validateIntake,
} from "#app/features/consultations/intake-form.server.ts";
import type { IntakeValues } from "#app/features/consultations/intake-form.ts";
import { optionKey } from "#app/features/consultations/intake-form.ts";

const filled: IntakeValues = {
  idempotency_key: "0b5c3f9e-8d7a-4f21-9c1e-2a3b4c5d6e7f",
  type: "video",
  provider_slug: "",
  patient: "dependent",
  relationship: "Son",
  dependent_first_name: " Leo ",
  dependent_last_name: "Doe",
  dependent_date_of_birth: "2018-04-01",
  gender: "male",
  race: "Asian",
  ethnicity: "Unknown",
  state: "TX",
  symptoms: ["Fever", "Cough"],
  symptoms_other: "",
  symptoms_started_on: "2026-01-02",
  temperature_f: "100,4",
  temperature_location: "Ear",
  recent_travel: "no",
  travel_destination: "Paris",
  transport: ["Flight"],
  medications: "",
  allergies: "Peanuts",
  consent_informed: "on",
  consent_recording: "on",
  consent_financial: "on",
};

function formDataOf(values: IntakeValues): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    for (const one of Array.isArray(value) ? value : [value ?? ""]) form.append(name, one);
  }
  return form;
}

describe("the intake form", () => {
  it("turns the form's fields into the API's body", () => {
    const result = validateIntake(filled);
    expect(result.ok).toBe(true);
    const payload = intakePayload(filled);
    expect(payload.provider_slug).toBeNull();
    expect(payload.intake).toMatchObject({
      dependent: { relationship: "Son", first_name: "Leo", last_name: "Doe", date_of_birth: "2018-04-01" },
      temperature_f: 100.4,
      recent_travel: false,
      // Travel details of a "no" answer are dropped, not sent.
      travel_destination: null,
      transport: [],
      medications: null,
    });
  });

  it("carries a held time to the API, and none when the form has none", () => {
    const hold = "6f1c2a4e-8b7d-4c3e-9a1f-2b3c4d5e6f70";
    const held = validateIntake({ ...filled, hold_id: hold });
    expect(held.ok && held.payload.hold_id).toBe(hold);
    const plain = validateIntake(filled);
    expect(plain.ok && plain.payload.hold_id).toBeNull();
    const readBack = readIntake(
      formDataOf({ ...filled, hold_id: hold, hold_start: "2026-12-01T15:30:00.000Z" }),
    );
    expect(readBack.hold_id).toBe(hold);
    expect(readBack.hold_start).toBe("2026-12-01T15:30:00.000Z");
  });

  it("reports each problem on its own field", () => {
    const result = validateIntake({
      ...filled,
      symptoms: [],
      relationship: "Cousin",
      consent_recording: "",
      recent_travel: "",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fieldErrors).sort()).toEqual(
      ["consent_recording", "recent_travel", "relationship", "symptoms"].sort(),
    );
    expect(result.fieldErrors.symptoms).toEqual({ key: "consultation.form.errors.symptoms" });
    expect(result.fieldErrors.relationship).toEqual({ key: "forms.errors.invalid" });
  });

  it("asks for where the temperature was measured once the rest is right", () => {
    const result = validateIntake({ ...filled, temperature_location: "" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      temperature_location: { key: "consultation.form.errors.temperatureLocation" },
    });
  });

  it("maps API paths to form fields", () => {
    expect(fieldOfPath(["intake", "dependent", "date_of_birth"])).toBe("dependent_date_of_birth");
    expect(fieldOfPath(["consents", "financial_communications"])).toBe("consent_financial");
    expect(fieldOfPath(["intake", "state"])).toBe("state");
    expect(fieldOfPath(["idempotency_key"])).toBeNull();
  });

  it("makes translation keys of option values", () => {
    expect(optionKey("Cold & Flu")).toBe("cold_flu");
    expect(optionKey("Prefer Not to Answer")).toBe("prefer_not_to_answer");
    expect(optionKey("consultation.create")).toBe("consultation_create");
  });
});

describe("textareaRows (numeric rows and max rows, default 5)", () => {
  it("accepts positive whole numbers, as numbers or numeric strings", () => {
    expect(textareaRows(3, 5)).toBe(3);
    expect(textareaRows("8", 5)).toBe(8);
  });
  it("falls back on anything else", () => {
    for (const value of [undefined, "", "abc", 0, -2, 2.5, Number.NaN])
      expect(textareaRows(value, 5)).toBe(5);
  });
});
