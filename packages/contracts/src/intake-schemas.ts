import { z } from "zod";
import {
  INTAKE_QUESTIONS,
  INTAKE_UPGRADES,
  INTAKE_VERSION,
  type Intake,
  type IntakeInput,
  type IntakePart,
  type IntakeQuestion,
  type IntakeRecord,
  type StoredIntakeDocument,
} from "./intake.ts";
import { textSchema } from "./text.ts";

/**
 * The intake's schemas, built from its one declaration (intake.ts, docs/decisions/057-one-intake-schema.md):
 * - `intakeSchema`: what `create-consultation` accepts, strictly (the answers' rules, each option
 *   against the spec's lists in options.ts, symptoms.ts and us-states.ts, the rules between answers);
 *   its output is what is stored, with `INTAKE_VERSION`;
 * - `readStoredIntake`: a stored intake of any version, upgraded and read answer by answer, never
 *   refused: what it cannot read is left out;
 * - `intakeRecord`: what the API answers (the patient's records, the care console's workspace).
 */

type Questions = Readonly<Record<string, IntakeQuestion>>;

const enumOf = (options: readonly string[]) => z.enum(options as unknown as [string, ...string[]]);
const isoDate = z.iso.date();
const isEmpty = (answer: unknown) =>
  answer === null || answer === undefined || answer === "" || (Array.isArray(answer) && answer.length === 0);
const unique = (list: readonly unknown[]) => new Set(list).size === list.length;

/** A part of a person as the request gives it: every part is required. */
function partSchema(part: IntakePart): z.ZodType {
  switch (part.kind) {
    case "select":
      return enumOf(part.options);
    case "text":
      return textSchema().trim().min(1).max(part.maxLength);
    case "date":
      return isoDate;
  }
}

/** One answer as the request gives it; empty answers become null, an empty list []. */
function answerSchema(question: IntakeQuestion): z.ZodType {
  switch (question.kind) {
    case "radio":
    case "select": {
      const one = enumOf(question.options);
      return question.optional ? one.nullish().transform((value) => value ?? null) : one;
    }
    case "checkboxes": {
      const list = z.array(enumOf(question.options));
      return question.min > 0
        ? list.min(question.min).max(question.options.length).refine(unique, question.once)
        : list.max(question.options.length).default([]).refine(unique, question.once);
    }
    case "text":
    case "textarea":
      return question.optional
        ? textSchema()
            .trim()
            .max(question.maxLength)
            .nullish()
            .transform((value) => (value ? value : null))
        : textSchema().trim().min(1).max(question.maxLength);
    case "date":
      return isoDate;
    case "number": {
      const number = z.number().min(question.min).max(question.max);
      return question.optional ? number.nullish().transform((value) => value ?? null) : number;
    }
    case "yes-no":
      return z.boolean();
    case "person":
      return z
        .object(
          Object.fromEntries(Object.entries(question.parts).map(([name, part]) => [name, partSchema(part)])),
        )
        .strict()
        .nullish()
        .transform((value) => value ?? null);
  }
}

/** One stored answer as it is read back and answered: its shape, without the request's limits. */
function recordSchema(question: IntakeQuestion): z.ZodType {
  const orNull = (schema: z.ZodType, optional: boolean) => (optional ? schema.nullable() : schema);
  switch (question.kind) {
    case "radio":
    case "select":
      return orNull(enumOf(question.options), question.optional);
    case "checkboxes":
      return z.array(enumOf(question.options));
    case "text":
    case "textarea":
      return orNull(z.string(), question.optional);
    case "date":
      return isoDate;
    case "number":
      return orNull(z.number(), question.optional);
    case "yes-no":
      return z.boolean();
    case "person":
      // Not strict: a part stored by a later version is left out, the person still read.
      return z
        .object(
          Object.fromEntries(
            Object.entries(question.parts).map(([name, part]) => [
              name,
              part.kind === "select" ? enumOf(part.options) : part.kind === "date" ? isoDate : z.string(),
            ]),
          ),
        )
        .nullable();
  }
}

/**
 * The request's intake: each answer by its question, then the rules between answers in the order
 * of the form (a question shown only after an earlier answer, answers given together).
 */
export function createIntakeSchema(questions: Questions) {
  const entries = Object.entries(questions);
  return z
    .object(Object.fromEntries(entries.map(([name, question]) => [name, answerSchema(question)])))
    .strict()
    .superRefine((intake, ctx) => {
      const reported = new Set<string>();
      const report = (at: string, message: string) => {
        if (reported.has(`${at}\n${message}`)) return;
        reported.add(`${at}\n${message}`);
        ctx.addIssue({ code: "custom", path: [at], message });
      };
      for (const [name, question] of entries) {
        const answer = intake[name];
        const when = question.shownWhen;
        if (when) {
          const shown = intake[when.question] === when.is;
          if (shown && when.missing && isEmpty(answer)) report(name, when.missing);
          if (!shown && !isEmpty(answer)) {
            report(when.unexpected.at === "self" ? name : when.question, when.unexpected.message);
          }
        }
        const together = question.together;
        if (together && isEmpty(answer) !== isEmpty(intake[together.question])) {
          report(isEmpty(answer) ? name : together.question, together.message);
        }
      }
    });
}

/** A stored intake of any version as the answers this version knows; never throws. */
export type IntakeReader = (document: unknown, version: number | null | undefined) => Record<string, unknown>;

/**
 * Reads stored intakes: a document of an older version goes through each upgrade up to `version`,
 * then every known question is read on its own. A question the document does not hold (asked by a
 * later version only, or by none when the row has no intake) is left out; so is an answer that no
 * longer reads (an option since removed); what the document holds beyond the known questions (a
 * later version's) is ignored.
 */
export function createIntakeReader(
  questions: Questions,
  {
    version,
    upgrades,
  }: {
    version: number;
    upgrades: Readonly<Record<number, (document: StoredIntakeDocument) => StoredIntakeDocument>>;
  },
): IntakeReader {
  const readers = Object.entries(questions).map(
    ([name, question]) => [name, recordSchema(question)] as const,
  );
  return (document, storedVersion) => {
    let stored: StoredIntakeDocument =
      typeof document === "object" && document !== null && !Array.isArray(document)
        ? { ...(document as StoredIntakeDocument) }
        : {};
    const from =
      Number.isSafeInteger(storedVersion) && (storedVersion as number) >= 1 ? (storedVersion as number) : 1;
    for (let at = from; at < version; at++) {
      const upgrade = upgrades[at];
      if (!upgrade) continue;
      try {
        stored = upgrade(stored);
      } catch {
        // An upgrade that cannot take this document leaves it as it was: what still reads is shown.
      }
    }
    const record: Record<string, unknown> = {};
    for (const [name, schema] of readers) {
      if (!Object.hasOwn(stored, name)) continue;
      const read = schema.safeParse(stored[name]);
      if (read.success) record[name] = read.data;
    }
    return record;
  };
}

/** What `create-consultation` accepts as the intake; its output is stored with INTAKE_VERSION. */
export const intakeSchema = createIntakeSchema(INTAKE_QUESTIONS) as unknown as z.ZodType<Intake, IntakeInput>;

/** The intake as the API answers it: every answer the stored intake holds; one it does not, left out. */
export const intakeRecord = z
  .object(
    Object.fromEntries(
      Object.entries(INTAKE_QUESTIONS as Questions).map(([name, question]) => [
        name,
        recordSchema(question).optional(),
      ]),
    ),
  )
  .strict() as unknown as z.ZodType<IntakeRecord>;

const readCurrent = createIntakeReader(INTAKE_QUESTIONS, {
  version: INTAKE_VERSION,
  upgrades: INTAKE_UPGRADES,
});

/** A consultation's stored intake (`consultations.intake`, `intake_version`) as the API answers it. */
export function readStoredIntake(document: unknown, version: number | null | undefined): IntakeRecord {
  return readCurrent(document, version) as IntakeRecord;
}
