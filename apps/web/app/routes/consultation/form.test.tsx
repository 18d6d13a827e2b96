import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import {
  fieldKey,
  INTAKE_FIELD_STEPS,
  INTAKE_FIELDS,
  INTAKE_STEPS,
} from "#app/features/consultations/intake-form.ts";
import { fieldId } from "#app/lib/forms.ts";
import { createI18n, I18nProvider, lookup, type TFunction } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";
import ConsultationFormPage from "#app/routes/consultation/form.tsx";

/**
 * /consultation/form is drawn from the intake's one declaration (packages/contracts/src/intake.ts,
 * ADR 057): every field on its own step, labelled, in both languages. Rendered as the server sends it
 * (before hydration every step shows).
 */

const LOCALES = { en, bg } as const;
type Locale = keyof typeof LOCALES;

/** Keys the page asked for that its language does not have (the browser reports them as errors). */
const missing: string[] = [];

/** The locale's translator, noting each key it does not have. */
function i18nOf(locale: Locale) {
  const i18n = createI18n(locale, LOCALES[locale]);
  const t: TFunction = (key, values) => {
    if (lookup(LOCALES[locale], key) === undefined && lookup(LOCALES[locale], `${key}_other`) === undefined) {
      missing.push(`${locale}: ${key}`);
    }
    return i18n.t(key, values);
  };
  return { ...i18n, t };
}

function renderPage(locale: Locale, actionData: unknown = null, loaded: object = {}): string {
  const router = createMemoryRouter([{ id: "form", path: "*", Component: ConsultationFormPage }], {
    hydrationData: {
      loaderData: {
        form: {
          type: "video",
          provider: null,
          state: null,
          profile: { gender: null, state: null },
          idempotencyKey: "0b5c3f9e-8d7a-4f21-9c1e-2a3b4c5d6e7f",
          today: "2026-03-10",
          ...loaded,
        },
      },
      actionData: actionData ? { form: actionData } : null,
    },
  });
  return renderToString(
    <I18nProvider i18n={i18nOf(locale)}>
      <RouterProvider router={router} />
    </I18nProvider>,
  ).replace(/<!-- -->/g, "");
}

describe("the intake form", () => {
  it("shows each field on its own step, labelled, in both languages (every step at once without JavaScript)", () => {
    for (const locale of ["en", "bg"] as const) {
      const html = renderPage(locale);
      const t = createI18n(locale, LOCALES[locale]).t as (key: string) => string;
      expect(html).not.toMatch(/consultation\.(form|options)\./);
      expect(missing).toEqual([]);
      const legends = INTAKE_STEPS.map((step) => {
        const at = html.indexOf(`text-2xl text-ink">${t(`consultation.form.steps.${step}`)}</legend>`);
        expect(at, `${locale}: ${step}`).toBeGreaterThan(0);
        return at;
      });
      expect([...legends].sort((a, b) => a - b)).toEqual(legends);
      for (const field of INTAKE_FIELDS) {
        const step = INTAKE_STEPS.indexOf(INTAKE_FIELD_STEPS[field]);
        const at = html.indexOf(`name="${field}"`);
        expect(at, `${locale}: ${field}`).toBeGreaterThan(legends[step]!);
        expect(at, `${locale}: ${field}`).toBeLessThan(legends[step + 1] ?? html.length);
        expect(html, `${locale}: ${field}`).toContain(`id="${fieldId("intake", field)}"`);
        if (INTAKE_FIELD_STEPS[field] !== "consents") {
          expect(html, `${locale}: ${field}`).toContain(t(`consultation.form.fields.${fieldKey(field)}`));
        }
      }
    }
  });

  it("shows an answer's problem next to its field and names it in the summary", () => {
    const html = renderPage("bg", {
      values: { patient: "dependent", recent_travel: "yes", transport: [] },
      fieldErrors: {
        dependent_last_name: { key: "forms.errors.required" },
        transport: { key: "consultation.form.errors.transport" },
      },
    });
    expect(html).toContain('id="intake-dependent-last-name-error"');
    expect(html).toContain('aria-describedby="intake-transport-error"');
    expect(html).toContain(bg.consultation.form.errors.transport);
    expect(missing).toEqual([]);
    // The summary links each problem to its field, in the form's order.
    expect(html.indexOf('href="#intake-dependent-last-name"')).toBeGreaterThan(0);
    expect(html.indexOf('href="#intake-transport"')).toBeGreaterThan(
      html.indexOf('href="#intake-dependent-last-name"'),
    );
  });

  it("keeps what was typed when the held time is gone, and offers the nearest times as buttons of the form", () => {
    const nearest = ["2026-03-12T17:20:00.000Z", "2026-03-12T17:40:00.000Z"];
    const html = renderPage(
      "bg",
      {
        values: { allergies: "Penicillin", hold_id: "6f1c2a4e-8b7d-4c3e-9a1f-2b3c4d5e6f70" },
        fieldErrors: {},
        formError: { key: "apiErrors.slotTaken" },
        nearest: nearest.map((start) => ({
          start,
          end: new Date(Date.parse(start) + 20 * 60_000).toISOString(),
          type: "video",
        })),
      },
      {
        provider: { slug: "casey-carter", name: "Casey Carter, MD", takingVisits: true },
        state: "CA",
        hold: {
          id: "6f1c2a4e-8b7d-4c3e-9a1f-2b3c4d5e6f70",
          start: "2026-03-12T17:00:00.000Z",
          until: "2026-03-10T12:10:00.000Z",
        },
      },
    );
    expect(missing).toEqual([]);
    // The refusal is said in the page's language; the answers are as typed.
    expect(html).toContain(bg.apiErrors.slotTaken);
    expect(html).toContain("Penicillin");
    expect(html).toContain(bg.booking.otherTimes);
    // Each nearest time is a submit button of the intake form itself: one click holds and books it.
    const form = html.slice(html.indexOf("<form"), html.indexOf("</form>"));
    for (const start of nearest) {
      expect(form).toMatch(new RegExp(`<button type="submit" value="${start}"[^>]* name="rehold"`));
    }
    expect(form).toContain('name="hold_start" value="2026-03-12T17:00:00.000Z"');
    expect(html).toContain('href="/consultation/book?type=video&amp;provider=casey-carter&amp;state=CA"');
  });
});
