import {
  DEPENDENT_NAME_MAX_LENGTH,
  INTAKE_TEXT_MAX_LENGTH,
  PATIENT_KINDS,
  SYMPTOMS_OTHER_MAX_LENGTH,
  TEMPERATURE_F_MAX,
  TEMPERATURE_F_MIN,
  TRAVEL_DESTINATION_MAX_LENGTH,
} from "./consultation-limits.ts";
import { ETHNICITIES, GENDERS, RACES, RELATIONSHIPS, TEMPERATURE_LOCATIONS, TRANSPORTS } from "./options.ts";
import { SYMPTOMS } from "./symptoms.ts";
import { US_STATE_CODES } from "./us-states.ts";

/**
 * The consultation intake, declared once (docs/decisions/057-one-intake-schema.md): every question,
 * the version that first asked it, the step of the form it is on, its kind and its limits. From this
 * table come the API's request schema, the stored record and its reader, the answer both the
 * patient's records and the care console show (intake-schemas.ts), and the web form's fields and
 * steps. No zod here: the intake form (browser code) reads it without pulling zod into the page.
 *
 * A new question is one entry here with `since: INTAKE_VERSION + 1` (and the version raised), plus
 * its label in the web's locale files. Intakes stored before it read as "not asked" for it.
 */

/**
 * The version of the intake new consultations are stored with (`consultations.intake_version`).
 * Raise it with every change of the questions; a change of an answer's shape also needs its step in
 * INTAKE_UPGRADES.
 */
export const INTAKE_VERSION = 1;

/** The steps of the form that ask the intake questions, in order (the web adds its consents step). */
export const INTAKE_STEPS = Object.freeze(["patient", "symptoms", "history"] as const);
export type IntakeStep = (typeof INTAKE_STEPS)[number];

/**
 * A question shown only when an earlier answer is `is`; otherwise its answer must be empty. The
 * messages are the API's refusals: `missing` when it is shown but not answered (a question that may
 * be left empty has none), `unexpected` when it is answered but not shown, reported on `at`.
 */
export type ShownWhen = {
  question: string;
  is: string | boolean;
  missing?: string;
  unexpected: { at: "self" | "condition"; message: string };
};

type Asked = {
  /** The intake version that first asked it: older intakes read as "not asked". */
  since: number;
  step: IntakeStep;
  shownWhen?: ShownWhen;
  /**
   * Another question answered together with this one, both or neither (a temperature and where it
   * was measured): `message` is reported on the one left empty.
   */
  together?: { question: string; message: string };
};

/** One input of a question made of several (a dependent's relationship, names, date of birth). */
export type IntakePart =
  | { form: string; kind: "select"; options: readonly string[] }
  | { form: string; kind: "text"; maxLength: number }
  | { form: string; kind: "date"; notAfterToday?: boolean };

/**
 * What a question asks, and so the control the form shows and the shape of its answer:
 * - `radio`, `select`: one of `options`;
 * - `checkboxes`: several of `options`, each once, at least `min` (`once` is the refusal of a repeat);
 * - `text` (one line), `textarea`: trimmed text of at most `maxLength` characters;
 * - `date`: "YYYY-MM-DD", not after today with `notAfterToday`;
 * - `number`: between `min` and `max`;
 * - `yes-no`: a boolean;
 * - `person`: someone else, one answer made of `parts` (each a form field of its own).
 * `optional`: the answer may be left empty (stored as null).
 */
export type IntakeQuestion =
  | IntakeFieldQuestion
  | (Asked & { kind: "person"; parts: Readonly<Record<string, IntakePart>> });
/** A question answered in one form field of its own name: every kind but a person. */
export type IntakeFieldQuestion = Asked &
  (
    | { kind: "radio" | "select"; options: readonly string[]; optional: boolean }
    | { kind: "checkboxes"; options: readonly string[]; min: number; once: string }
    | { kind: "text" | "textarea"; maxLength: number; optional: boolean }
    | { kind: "date"; notAfterToday?: boolean }
    | { kind: "number"; min: number; max: number; optional: boolean }
    | { kind: "yes-no" }
  );
export type IntakeQuestionKind = IntakeQuestion["kind"];

const travelled = {
  question: "recent_travel",
  is: true,
  unexpected: { at: "condition", message: "Travel details need recent_travel true" },
} as const;

/** The intake's questions, in the order of the form. */
export const INTAKE_QUESTIONS = Object.freeze({
  /** Who the visit is for: the account holder, or someone they care for (`dependent`). */
  patient: { since: 1, step: "patient", kind: "radio", options: PATIENT_KINDS, optional: false },
  dependent: {
    since: 1,
    step: "patient",
    kind: "person",
    parts: {
      relationship: { form: "relationship", kind: "select", options: RELATIONSHIPS },
      first_name: { form: "dependent_first_name", kind: "text", maxLength: DEPENDENT_NAME_MAX_LENGTH },
      last_name: { form: "dependent_last_name", kind: "text", maxLength: DEPENDENT_NAME_MAX_LENGTH },
      date_of_birth: { form: "dependent_date_of_birth", kind: "date", notAfterToday: true },
    },
    shownWhen: {
      question: "patient",
      is: "dependent",
      missing: "A dependent needs relationship, name and date of birth",
      unexpected: { at: "self", message: "Leave dependent empty for your own visit" },
    },
  },
  gender: { since: 1, step: "patient", kind: "select", options: GENDERS, optional: false },
  race: { since: 1, step: "patient", kind: "select", options: RACES, optional: false },
  ethnicity: { since: 1, step: "patient", kind: "select", options: ETHNICITIES, optional: false },
  /** Where the patient is now: only providers licensed in this state may take the visit. */
  state: { since: 1, step: "patient", kind: "select", options: US_STATE_CODES, optional: false },
  symptoms: {
    since: 1,
    step: "symptoms",
    kind: "checkboxes",
    options: SYMPTOMS,
    min: 1,
    once: "Each symptom may be chosen once",
  },
  symptoms_other: {
    since: 1,
    step: "symptoms",
    kind: "textarea",
    maxLength: SYMPTOMS_OTHER_MAX_LENGTH,
    optional: true,
  },
  /** The day the symptoms started (not in the future: the service checks against its clock). */
  symptoms_started_on: { since: 1, step: "symptoms", kind: "date", notAfterToday: true },
  /** Degrees Fahrenheit with one decimal, or null when not measured. */
  temperature_f: {
    since: 1,
    step: "symptoms",
    kind: "number",
    min: TEMPERATURE_F_MIN,
    max: TEMPERATURE_F_MAX,
    optional: true,
    together: {
      question: "temperature_location",
      message: "Give the temperature together with where it was measured",
    },
  },
  temperature_location: {
    since: 1,
    step: "symptoms",
    kind: "select",
    options: TEMPERATURE_LOCATIONS,
    optional: true,
  },
  recent_travel: { since: 1, step: "history", kind: "yes-no" },
  travel_destination: {
    since: 1,
    step: "history",
    kind: "text",
    maxLength: TRAVEL_DESTINATION_MAX_LENGTH,
    optional: true,
    shownWhen: travelled,
  },
  transport: {
    since: 1,
    step: "history",
    kind: "checkboxes",
    options: TRANSPORTS,
    min: 0,
    once: "Each means of transport may be chosen once",
    shownWhen: { ...travelled, missing: "Choose how you travelled" },
  },
  medications: {
    since: 1,
    step: "history",
    kind: "textarea",
    maxLength: INTAKE_TEXT_MAX_LENGTH,
    optional: true,
  },
  allergies: {
    since: 1,
    step: "history",
    kind: "textarea",
    maxLength: INTAKE_TEXT_MAX_LENGTH,
    optional: true,
  },
} as const satisfies Record<string, IntakeQuestion>);

type Questions = typeof INTAKE_QUESTIONS;
export type IntakeQuestionName = keyof Questions;
export const INTAKE_QUESTION_NAMES = Object.freeze(Object.keys(INTAKE_QUESTIONS) as IntakeQuestionName[]);

/** The questions as a list of [name, question], in the order of the form. */
export function intakeQuestions(): Array<[IntakeQuestionName, IntakeQuestion]> {
  return INTAKE_QUESTION_NAMES.map((name) => [name, INTAKE_QUESTIONS[name]]);
}

// ---- The answers' types, derived from the table. ----

type Option<Q> = Q extends { options: readonly (infer O)[] } ? O : never;
type Nullable<Q, T> = Q extends { optional: true } ? T | null : T;
type PartAnswer<P> = P extends { kind: "select" } ? Option<P> : string;

type Answer<Q> = Q extends { kind: "radio" | "select" }
  ? Nullable<Q, Option<Q>>
  : Q extends { kind: "checkboxes" }
    ? Option<Q>[]
    : Q extends { kind: "text" | "textarea" }
      ? Nullable<Q, string>
      : Q extends { kind: "date" }
        ? string
        : Q extends { kind: "number" }
          ? Nullable<Q, number>
          : Q extends { kind: "yes-no" }
            ? boolean
            : Q extends { kind: "person"; parts: infer P }
              ? { -readonly [K in keyof P]: PartAnswer<P[K]> } | null
              : never;

/** A question the request may leave out: empty answers, a list that may be empty, a person. */
type MayOmit<Q> = Q extends { optional: true }
  ? true
  : Q extends { kind: "checkboxes"; min: 0 }
    ? true
    : Q extends { kind: "person" }
      ? true
      : false;
type OmittedAnswer<Q> = Q extends { kind: "checkboxes" } ? Answer<Q> : Answer<Q> | null;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** One intake as stored (`consultations.intake` of the current version) and as the request's schema gives it. */
export type Intake = Simplify<{ -readonly [K in IntakeQuestionName]: Answer<Questions[K]> }>;

/** One intake as a client sends it: what may be left empty may be left out. */
export type IntakeInput = Simplify<
  {
    -readonly [K in IntakeQuestionName as MayOmit<Questions[K]> extends true ? never : K]: Answer<
      Questions[K]
    >;
  } & {
    -readonly [K in IntakeQuestionName as MayOmit<Questions[K]> extends true ? K : never]?: OmittedAnswer<
      Questions[K]
    >;
  }
>;

/**
 * A stored intake as the API answers it, whatever its version: each answer it holds; a question it
 * does not hold (asked only by a later version, or not readable any more) is left out, and pages
 * show it as not asked.
 */
export type IntakeRecord = Partial<Intake>;

export type Dependent = NonNullable<Intake["dependent"]>;

// ---- The form's fields. ----

type PartForms<P> = { [K in keyof P]: P[K] extends { form: infer F extends string } ? F : never }[keyof P];
/** The form field(s) of each question: its own name, or one field per part of a person. */
type FormNamesOf<N extends IntakeQuestionName> = Questions[N] extends { parts: infer P } ? PartForms<P> : N;
export type IntakeFormName = { [N in IntakeQuestionName]: FormNamesOf<N> }[IntakeQuestionName];

/** The form fields of a question, in order. */
export function formNamesOf(name: IntakeQuestionName): IntakeFormName[] {
  const question: IntakeQuestion = INTAKE_QUESTIONS[name];
  return question.kind === "person"
    ? Object.values(question.parts).map((part) => part.form as IntakeFormName)
    : [name as IntakeFormName];
}

// ---- Stored intakes of earlier versions. ----

/** One stored intake document, as read from the database before it is checked. */
export type StoredIntakeDocument = Record<string, unknown>;

/**
 * From each version to the next: what turns a stored intake of version n into one of version n + 1
 * (a renamed question, an answer of another shape). A question that is only new needs none: the
 * older intakes simply do not hold it. None yet: version 1 is the first.
 */
export const INTAKE_UPGRADES: Readonly<
  Record<number, (document: StoredIntakeDocument) => StoredIntakeDocument>
> = Object.freeze({});

/** The dates of an intake that may not be after today (the service checks them against its clock). */
export function datesNotAfterToday(intake: IntakeRecord): string[] {
  const dates: unknown[] = [];
  for (const [name, question] of intakeQuestions()) {
    const answer: unknown = intake[name];
    if (question.kind === "date" && question.notAfterToday) dates.push(answer);
    if (question.kind === "person" && typeof answer === "object" && answer !== null) {
      for (const [part, spec] of Object.entries(question.parts)) {
        if (spec.kind === "date" && spec.notAfterToday) dates.push((answer as Record<string, unknown>)[part]);
      }
    }
  }
  return dates.filter((date): date is string => typeof date === "string");
}
