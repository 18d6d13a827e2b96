import { readdirSync, readFileSync } from "node:fs";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "@ambercare/contracts/locales";
import { describe, expect, it } from "vitest";
import { catalogueFile, fill, mailT } from "#api/platform/mail/mail-copy.ts";

/**
 * The e-mail catalogues: every language says everything English says, with the same placeholders,
 * so no e-mail falls back to English or shows a `{{name}}`.
 */

type Tree = { [key: string]: unknown };

/** Every leaf as [dotted key, value]; a value that is neither a string nor an object is reported. */
function leaves(tree: Tree, prefix = ""): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? leaves(value as Tree, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

const catalogues = Object.fromEntries(
  LOCALES.map((locale) => [locale, new Map(leaves(JSON.parse(readFileSync(catalogueFile(locale), "utf8"))))]),
) as Record<Locale, Map<string, unknown>>;
const english = catalogues[DEFAULT_LOCALE];
const translations = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? "").sort();

describe("e-mail catalogues", () => {
  it("has a file for every language and none for a language Ambercare does not speak", () => {
    const files = readdirSync(new URL(".", catalogueFile(DEFAULT_LOCALE))).sort();
    expect(files).toEqual(LOCALES.map((locale) => `${locale}.json`).sort());
  });

  it.each(translations)("has every English key in %s", (locale) => {
    const missing = [...english.keys()].filter((key) => !catalogues[locale].has(key));
    expect(missing, `keys in en.json but not in ${locale}.json`).toEqual([]);
  });

  it.each(translations)("has no key in %s that English lacks", (locale) => {
    const extra = [...catalogues[locale].keys()].filter((key) => !english.has(key));
    expect(extra, `keys in ${locale}.json but not in en.json`).toEqual([]);
  });

  it.each(LOCALES)("has only non-empty strings in %s", (locale) => {
    const bad = [...catalogues[locale]].filter(
      ([, value]) => typeof value !== "string" || value.trim() === "",
    );
    expect(bad.map(([key]) => key)).toEqual([]);
  });

  it.each(translations)("uses the same {{placeholders}} in %s as in English", (locale) => {
    const mismatched = [...english].filter(
      ([key, value]) =>
        JSON.stringify(placeholders(value)) !== JSON.stringify(placeholders(catalogues[locale].get(key))),
    );
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  it.each(translations)("really translates: no %s string is a copy of an English sentence", (locale) => {
    const words = (text: unknown) => String(text).replace(/\{\{[^}]*\}\}/g, "");
    const copied = [...english].filter(
      ([key, value]) => /[a-z]{3,}\s+[a-z]{3,}/i.test(words(value)) && catalogues[locale].get(key) === value,
    );
    expect(copied.map(([key]) => key)).toEqual([]);
  });
});

describe("fill", () => {
  it("fills every placeholder once, and leaves braces inside a value as they are", () => {
    expect(fill("Hello {{firstName}}, {{ firstName }}", { firstName: "{{x}} $& Ana" })).toBe(
      "Hello {{x}} $& Ana, {{x}} $& Ana",
    );
  });

  it("throws on a placeholder without a value rather than mail it", () => {
    expect(() => fill("Hello {{firstName}},", {})).toThrow(/firstName/);
    expect(() => mailT("en")("common.signature")).toThrow(/productName/);
  });
});
