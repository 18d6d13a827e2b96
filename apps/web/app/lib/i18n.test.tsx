import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  createI18n,
  type DeepPartial,
  I18nProvider,
  interpolate,
  isLocale,
  lookup,
  OwnStrings,
  type Translations,
  useTranslation,
  withOwnStrings,
} from "#app/lib/i18n.tsx";

function Greeting() {
  const { t, i18n } = useTranslation();
  return <p lang={i18n.language}>{t("nav.findADoctor")}</p>;
}

describe("the translation runtime", () => {
  // Plural forms (`results_one`) are keys of their own beside the typed ones.
  const strings: DeepPartial<Translations> & Record<string, unknown> = {
    nav: { findADoctor: "Find a doctor" },
    home: { heroLead: "{{product}} connects you", featuresHeading: "How {{ product }} works" },
    results_one: "{{count}} result",
    results_other: "{{count}} results",
  };

  it("looks nested keys up and interpolates values", () => {
    const { t, language } = createI18n("en", strings);
    expect(language).toBe("en");
    expect(t("nav.findADoctor")).toBe("Find a doctor");
    expect(t("home.heroLead", { product: "Ambercare" })).toBe("Ambercare connects you");
    expect(t("home.featuresHeading", { product: "Ambercare" })).toBe("How Ambercare works");
  });

  it("returns the key for a missing string and leaves unknown placeholders", () => {
    const { t } = createI18n("bg", {});
    expect(t("nav.findADoctor")).toBe("nav.findADoctor");
    expect(interpolate("Hi {{name}} {{other}}", { name: "Ana" })).toBe("Hi Ana {{other}}");
  });

  it("picks plural forms by the locale's rules", () => {
    const { t } = createI18n("en", strings);
    const plural = t as unknown as (key: string, values: Record<string, number>) => string;
    expect(plural("results", { count: 1 })).toBe("1 result");
    expect(plural("results", { count: 3 })).toBe("3 results");
  });

  it("only accepts the two locales", () => {
    expect(isLocale("bg")).toBe(true);
    expect(isLocale("en")).toBe(true);
    expect(isLocale("de")).toBe(false);
    expect(isLocale(undefined)).toBe(false);
    expect(lookup({ a: { b: "c" } }, "a")).toBeUndefined();
  });

  it("looks a nested key up part by part", () => {
    const strings = { a: { b: { c: "deep" }, "": "empty part" }, top: "top", "": { x: "under empty" } };
    expect(lookup(strings, "a.b.c")).toBe("deep");
    expect(lookup(strings, "top")).toBe("top");
    expect(lookup(strings, "a.")).toBe("empty part");
    expect(lookup(strings, ".x")).toBe("under empty");
    expect(lookup(strings, "a.b")).toBeUndefined();
    expect(lookup(strings, "a.b.c.d")).toBeUndefined();
    expect(lookup(strings, "top.x")).toBeUndefined();
    expect(lookup(strings, "missing.b")).toBeUndefined();
    expect(lookup(null, "a")).toBeUndefined();
  });

  it("provides the translator to components", () => {
    const html = renderToString(
      <I18nProvider i18n={createI18n("bg", { nav: { findADoctor: "Намерете лекар" } })}>
        <Greeting />
      </I18nProvider>,
    );
    expect(html).toBe('<p lang="bg">Намерете лекар</p>');
  });

  it("renders a part loaded on demand with its own strings in the page's language, the rest from the page", () => {
    function Panel() {
      const { t } = useTranslation();
      return (
        <p>
          {t("supportWidget.send")} · {t("nav.findADoctor")}
        </p>
      );
    }
    const own = { en: { supportWidget: { send: "Send" } }, bg: { supportWidget: { send: "Изпрати" } } };
    const html = renderToString(
      <I18nProvider i18n={createI18n("bg", { nav: { findADoctor: "Намерете лекар" } })}>
        <OwnStrings strings={own}>
          <Panel />
        </OwnStrings>
      </I18nProvider>,
    );
    expect(html).toBe("<p>Изпрати<!-- --> · <!-- -->Намерете лекар</p>");
    const Wrapped = withOwnStrings(own, Panel);
    expect(
      renderToString(
        <I18nProvider i18n={createI18n("bg", { nav: { findADoctor: "Намерете лекар" } })}>
          <Wrapped />
        </I18nProvider>,
      ),
    ).toBe(html);
    const fallback = createI18n("en", {}, (key) => `page:${key}`);
    expect(fallback.t("nav.findADoctor")).toBe("page:nav.findADoctor");
  });
});
