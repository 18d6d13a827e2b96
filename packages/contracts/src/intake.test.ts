import { describe, expect, it } from "vitest";
import { createConsultationRequest } from "./consultation.ts";
import {
  datesNotAfterToday,
  formNamesOf,
  INTAKE_QUESTION_NAMES,
  INTAKE_QUESTIONS,
  INTAKE_STEPS,
  INTAKE_UPGRADES,
  INTAKE_VERSION,
  type IntakeInput,
  type IntakeQuestion,
  intakeQuestions,
} from "./intake.ts";
import { EXAMPLE_INTAKE } from "./intake-example.ts";
import {
  createIntakeReader,
  createIntakeSchema,
  intakeRecord,
  intakeSchema,
  readStoredIntake,
} from "./intake-schemas.ts";

/** The example as a client sends it: a name to trim, an empty answer, what may be left out left out. */
const {
  symptoms_other: _other,
  travel_destination: _destination,
  transport: _transport,
  ...answered
} = EXAMPLE_INTAKE;
const intake: IntakeInput = {
  ...answered,
  dependent: { ...EXAMPLE_INTAKE.dependent!, first_name: " Mia " },
  recent_travel: false,
  medications: "  ",
};

const issuesOf = (input: unknown) => {
  const parsed = intakeSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]);
};

describe("the intake's one declaration", () => {
  it("fixes the questions of version 1: a new question is declared with a later version", () => {
    expect(INTAKE_QUESTION_NAMES.filter((name) => INTAKE_QUESTIONS[name].since === 1)).toEqual([
      "patient",
      "dependent",
      "gender",
      "race",
      "ethnicity",
      "state",
      "symptoms",
      "symptoms_other",
      "symptoms_started_on",
      "temperature_f",
      "temperature_location",
      "recent_travel",
      "travel_destination",
      "transport",
      "medications",
      "allergies",
    ]);
    for (const [name, question] of intakeQuestions()) {
      expect(question.since, name).toBeGreaterThanOrEqual(1);
      expect(question.since, name).toBeLessThanOrEqual(INTAKE_VERSION);
      expect(INTAKE_STEPS, name).toContain(question.step);
    }
    for (const version of Object.keys(INTAKE_UPGRADES).map(Number)) {
      expect(version).toBeGreaterThanOrEqual(1);
      expect(version).toBeLessThan(INTAKE_VERSION);
    }
  });

  it("names each form field once, and makes each question depend only on an earlier one", () => {
    const fields = INTAKE_QUESTION_NAMES.flatMap(formNamesOf);
    expect(new Set(fields).size).toBe(fields.length);
    expect(formNamesOf("dependent")).toEqual([
      "relationship",
      "dependent_first_name",
      "dependent_last_name",
      "dependent_date_of_birth",
    ]);
    INTAKE_QUESTION_NAMES.forEach((name, index) => {
      const question: IntakeQuestion = INTAKE_QUESTIONS[name];
      if (question.shownWhen) {
        expect(INTAKE_QUESTION_NAMES.indexOf(question.shownWhen.question as never), name).toBeLessThan(index);
        expect(
          INTAKE_QUESTION_NAMES.indexOf(question.shownWhen.question as never),
          name,
        ).toBeGreaterThanOrEqual(0);
      }
      if (question.together) expect(INTAKE_QUESTION_NAMES, name).toContain(question.together.question);
    });
  });

  it("lists the dates that may not be after today, a dependent's birth included", () => {
    expect(datesNotAfterToday(intakeSchema.parse(intake))).toEqual(["2019-05-02", "2026-03-08"]);
    expect(datesNotAfterToday({ symptoms_started_on: "2026-01-01", dependent: null })).toEqual([
      "2026-01-01",
    ]);
  });
});

describe("the request's intake", () => {
  it("stores trimmed answers, empty ones as null, an omitted list as []", () => {
    expect(intakeSchema.parse(intake)).toEqual({
      ...intake,
      dependent: { ...intake.dependent, first_name: "Mia" },
      symptoms_other: null,
      travel_destination: null,
      transport: [],
      medications: null,
    });
    expect(intakeRecord.parse(intakeSchema.parse(intake))).toEqual(intakeSchema.parse(intake));
  });

  it("refuses what the spec's lists and the rules between answers refuse, each with its message", () => {
    expect(issuesOf({ ...intake, gender: "Male" })).toEqual([
      [
        "gender",
        'Invalid option: expected one of "male"|"female"|"Unspecified"|"Undisclosed"|"Prefer Not to Answer"',
      ],
    ]);
    expect(issuesOf({ ...intake, pregnant: true })).toEqual([["", 'Unrecognized key: "pregnant"']]);
    expect(issuesOf({ ...intake, symptoms: [] })).toEqual([
      ["symptoms", "Too small: expected array to have >=1 items"],
    ]);
    expect(issuesOf({ ...intake, symptoms: ["Fever", "Fever"] })).toEqual([
      ["symptoms", "Each symptom may be chosen once"],
    ]);
    expect(issuesOf({ ...intake, dependent: null })).toEqual([
      ["dependent", "A dependent needs relationship, name and date of birth"],
    ]);
    expect(issuesOf({ ...intake, patient: "self", temperature_f: null })).toEqual([
      ["dependent", "Leave dependent empty for your own visit"],
      ["temperature_f", "Give the temperature together with where it was measured"],
    ]);
    expect(issuesOf({ ...intake, recent_travel: true })).toEqual([["transport", "Choose how you travelled"]]);
    expect(issuesOf({ ...intake, travel_destination: "Rome", transport: ["Flight"] })).toEqual([
      ["recent_travel", "Travel details need recent_travel true"],
    ]);
    expect(issuesOf({ ...intake, dependent: { ...intake.dependent, first_name: "  " } })).toEqual([
      ["dependent.first_name", "Too small: expected string to have >=1 characters"],
    ]);
    expect(issuesOf({ ...intake, allergies: "\u0000" })).toEqual([
      ["allergies", "must not contain NUL characters or unpaired surrogates"],
    ]);
  });

  it("is the create-consultation request's intake", () => {
    const parsed = createConsultationRequest.safeParse({
      idempotency_key: "0b5c3f9e-8d7a-4f21-9c1e-2a3b4c5d6e7f",
      type: "chat",
      intake: { ...intake, state: "PR" },
      consents: { informed_consent: true, audio_video_recording: true, financial_communications: true },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["intake.state"]);
  });
});

describe("stored intakes", () => {
  const stored = intakeSchema.parse(intake);

  it("read back as stored, and never throw on what cannot be read", () => {
    expect(readStoredIntake(stored, INTAKE_VERSION)).toEqual(stored);
    expect(readStoredIntake(JSON.parse(JSON.stringify(stored)), null)).toEqual(stored);
    for (const document of [null, undefined, "intake", 42, [], [stored], true]) {
      expect(readStoredIntake(document, 1)).toEqual({});
    }
    for (const version of [0, -1, 1.5, Number.NaN, 10 ** 9, null, undefined]) {
      expect(readStoredIntake(stored, version)).toEqual(stored);
    }
  });

  it("leave out, as not asked, the questions the document does not hold or that no longer read", () => {
    const { race: _race, transport: _transport, ...older } = stored;
    expect(readStoredIntake(older, 1)).toEqual(older);
    const odd = {
      ...stored,
      gender: "Martian",
      symptoms: ["Fever", 3],
      temperature_f: "hot",
      extra: { a: 1 },
    };
    const { gender: _gender, symptoms: _symptoms, temperature_f: _temperature, ...readable } = stored;
    expect(readStoredIntake(odd, 1)).toEqual(readable);
    // A part of a person stored by a later version is left out; the person still reads.
    expect(readStoredIntake({ ...stored, dependent: { ...stored.dependent, nickname: "Mimi" } }, 2)).toEqual(
      stored,
    );
    expect(intakeRecord.safeParse(readStoredIntake(odd, 1)).success).toBe(true);
  });

  describe("of an earlier version", () => {
    // Version 2 of a small intake: the start of the symptoms renamed, and a question added.
    const questions = {
      symptoms_started_on: { since: 1, step: "symptoms", kind: "date", notAfterToday: true },
      pregnant: { since: 2, step: "history", kind: "yes-no" },
      began: { since: 2, step: "symptoms", kind: "date" },
    } as const satisfies Record<string, IntakeQuestion>;
    const renamed = ({ symptoms_started_on, ...rest }: Record<string, unknown>) => ({
      ...rest,
      began: symptoms_started_on,
    });

    it("are upgraded one version at a time, and a question added since reads as not asked", () => {
      const read = createIntakeReader(questions, { version: 2, upgrades: { 1: renamed } });
      expect(read({ symptoms_started_on: "2026-01-02" }, 1)).toEqual({ began: "2026-01-02" });
      expect(read({ began: "2026-01-02", pregnant: false }, 2)).toEqual({
        began: "2026-01-02",
        pregnant: false,
      });
      // A later version's document is read as it is, its unknown answers left out.
      expect(read({ began: "2026-01-02", pregnant: true, weight: 70 }, 3)).toEqual({
        began: "2026-01-02",
        pregnant: true,
      });
      // While the same request schema makes the added question required of new requests.
      const request = createIntakeSchema(questions);
      expect(request.safeParse({ symptoms_started_on: "2026-01-02", began: "2026-01-02" }).success).toBe(
        false,
      );
      expect(
        request.safeParse({ symptoms_started_on: "2026-01-02", began: "2026-01-02", pregnant: false })
          .success,
      ).toBe(true);
    });

    it("an upgrade that cannot take a document leaves it as it was", () => {
      const read = createIntakeReader(questions, {
        version: 2,
        upgrades: {
          1: () => {
            throw new Error("not this one");
          },
        },
      });
      expect(read({ symptoms_started_on: "2026-01-02", pregnant: true }, 1)).toEqual({
        symptoms_started_on: "2026-01-02",
        pregnant: true,
      });
    });
  });
});
