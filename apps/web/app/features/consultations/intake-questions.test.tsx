import { type IntakeQuestion, type IntakeRecord, intakeQuestions } from "@ambercare/contracts/intake";
import { EXAMPLE_INTAKE } from "@ambercare/contracts/intake-example";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IntakeAnswers, laterRows } from "#app/features/consultations/intake-answers.tsx";
import {
  fieldKey,
  INTAKE_FIELD_STEPS,
  INTAKE_FIELDS,
  INTAKE_STEPS,
  isShown,
  isStateList,
  optionKey,
} from "#app/features/consultations/intake-form.ts";
import { createI18n, I18nProvider, lookup, type TFunction } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

/**
 * The intake form and the intake's answers are drawn from the intake's one declaration
 * (packages/contracts/src/intake.ts): every question has its field on its step, in both languages.
 */

const LOCALES = { en, bg } as const;
type Locale = keyof typeof LOCALES;

/** Renders the answers; fails on a key the language does not have (the browser reports them). */
function renderAnswers(locale: Locale, intake: IntakeRecord): string {
  const i18n = createI18n(locale, LOCALES[locale]);
  const t: TFunction = (key, values) => {
    expect(lookup(LOCALES[locale], key), `${locale}: ${key}`).toBeTypeOf("string");
    return i18n.t(key, values);
  };
  return renderToString(
    <I18nProvider i18n={{ ...i18n, t }}>
      <IntakeAnswers intake={intake} />
    </I18nProvider>,
  ).replace(/<!-- -->/g, "");
}

const STORED: IntakeRecord = EXAMPLE_INTAKE;

describe("the intake form, drawn from the declaration", () => {
  it("has every question's strings in both languages: labels, options, notes", () => {
    for (const locale of ["en", "bg"] as const) {
      const has = (key: string) =>
        expect(lookup(LOCALES[locale], key), `${locale}: ${key}`).toBeTypeOf("string");
      for (const step of INTAKE_STEPS) has(`consultation.form.steps.${step}`);
      for (const field of INTAKE_FIELDS.filter((name) => INTAKE_FIELD_STEPS[name] !== "consents")) {
        has(`consultation.form.fields.${fieldKey(field)}`);
      }
      for (const [name, question] of intakeQuestions()) {
        if (question.shownWhen) has(`consultation.form.onlyWhen.${fieldKey(question.shownWhen.question)}`);
        const lists: Array<[string, readonly string[]]> =
          question.kind === "person"
            ? Object.values(question.parts).flatMap((part) =>
                part.kind === "select" ? [[part.form, part.options] as [string, readonly string[]]] : [],
              )
            : "options" in question
              ? [[name, question.options]]
              : [];
        for (const [field, options] of lists) {
          if (isStateList(options)) continue;
          for (const option of options) has(`consultation.options.${fieldKey(field)}.${optionKey(option)}`);
        }
      }
    }
  });

  it("shows a question depending on an earlier answer only once that answer is given", () => {
    const [, dependent] = intakeQuestions().find(([name]) => name === "dependent")!;
    const [, transport] = intakeQuestions().find(([name]) => name === "transport")!;
    const form = (values: Record<string, string>) => (name: string) => values[name] ?? "";
    expect(isShown(dependent, form({ patient: "dependent" }))).toBe(true);
    expect(isShown(dependent, form({ patient: "self" }))).toBe(false);
    expect(isShown(transport, form({ recent_travel: "yes" }))).toBe(true);
    expect(isShown(transport, form({ recent_travel: "no" }))).toBe(false);
    expect(isShown(transport, form({}))).toBe(false);
  });
});

describe("the intake's answers", () => {
  it("lists every answer of a stored intake", () => {
    const html = renderAnswers("en", STORED);
    for (const text of [
      "Daughter",
      "Mia Doe",
      "2019-05-02",
      "Female",
      "California",
      "Fever, Cough",
      "101.3 °F (Mouth)",
      "Penicillin",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).not.toContain("Not asked");
  });

  it("shows as not asked what an intake stored before a question existed does not hold", () => {
    const { race: _race, temperature_f: _temperature, medications: _medications, ...older } = STORED;
    for (const [locale, notAsked] of [
      ["en", "Not asked"],
      ["bg", "Не е попитано"],
    ] as const) {
      expect(lookup(LOCALES[locale], "consultation.answers.notAsked")).toBe(notAsked);
      const html = renderAnswers(locale, older);
      expect(html.split(notAsked)).toHaveLength(4);
      expect(html).toContain(LOCALES[locale].consultation.options.gender.female);
    }
    expect(renderAnswers("en", {})).toContain("Not asked");
  });

  it("draws a question of a later version by its kind", () => {
    const t = createI18n("en", en).t as TFunction;
    const pregnant = { since: 2, step: "history", kind: "yes-no" } as const satisfies IntakeQuestion;
    const chosen = {
      since: 2,
      step: "symptoms",
      kind: "checkboxes",
      options: ["Fever", "Cough"],
      min: 0,
      once: "",
      shownWhen: { question: "recent_travel", is: true, unexpected: { at: "self", message: "" } },
    } as const satisfies IntakeQuestion;
    const rows = (intake: IntakeRecord, question: IntakeQuestion) =>
      laterRows(t, intake, "symptoms", question).map(([, value]) => value);
    expect(rows({ symptoms: true } as never, pregnant)).toEqual(["Yes"]);
    expect(rows({}, pregnant)).toEqual(["Not asked"]);
    expect(rows({ recent_travel: true, symptoms: ["Fever", "Cough"] }, chosen)).toEqual(["Fever, Cough"]);
    expect(rows({ recent_travel: true, symptoms: [] }, chosen)).toEqual(["—"]);
    // Hidden by the earlier answer and empty: no row.
    expect(rows({ recent_travel: false, symptoms: [] }, chosen)).toEqual([]);
  });
});
