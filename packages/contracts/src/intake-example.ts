import type { Intake } from "./intake.ts";

const example: Intake = {
  patient: "dependent",
  dependent: { relationship: "Daughter", first_name: "Mia", last_name: "Doe", date_of_birth: "2019-05-02" },
  gender: "female",
  race: "White",
  ethnicity: "Not Hispanic or Latino",
  state: "CA",
  symptoms: ["Fever", "Cough"],
  symptoms_other: "Tired since Sunday",
  symptoms_started_on: "2026-03-08",
  temperature_f: 101.3,
  temperature_location: "Mouth",
  recent_travel: true,
  travel_destination: "Lisbon",
  transport: ["Flight"],
  medications: null,
  allergies: "Penicillin",
};

/**
 * An intake with every question answered, as the current version stores it (a mother asking for her
 * daughter): where tests start from, so a new question is added to one example. Not health data of
 * anyone.
 */
export const EXAMPLE_INTAKE: Readonly<Intake> = Object.freeze(example);
