import { AUDIT_ACTIONS } from "@ambercare/contracts/consultation-limits";
import { describe, expect, it } from "vitest";
import bg from "./bg.json";
import en from "./en.json";

type Tree = { [key: string]: string | Tree };

/** Every leaf as [dotted key, value]; a value that is neither a string nor an object is reported. */
function leaves(tree: Tree, prefix = ""): Array<[string, unknown]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? leaves(value as Tree, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

const locales = { en: new Map(leaves(en)), bg: new Map(leaves(bg)) };

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.-]+)\s*\}\}/g)].map((m) => m[1] ?? "").sort();
}

describe("locale files", () => {
  it("has every English key in Bulgarian", () => {
    const missing = [...locales.en.keys()].filter((key) => !locales.bg.has(key));
    expect(missing, "keys in en.json but not in bg.json").toEqual([]);
  });

  it("names every access-log action in the patient's record (records.audit.actions)", () => {
    const unnamed = AUDIT_ACTIONS.map(
      (action) => `records.audit.actions.${action.replaceAll(".", "_")}`,
    ).filter((key) => !locales.en.has(key));
    expect(unnamed).toEqual([]);
  });

  it("has every Bulgarian key in English", () => {
    const extra = [...locales.bg.keys()].filter((key) => !locales.en.has(key));
    expect(extra, "keys in bg.json but not in en.json").toEqual([]);
  });

  it.each(Object.entries(locales))("has only non-empty strings in %s", (_name, strings) => {
    const bad = [...strings].filter(([, value]) => typeof value !== "string" || value.trim() === "");
    expect(bad.map(([key]) => key)).toEqual([]);
  });

  it("uses the same {{placeholders}} in both languages", () => {
    const mismatched = [...locales.en].filter(
      ([key, value]) =>
        JSON.stringify(placeholders(String(value))) !==
        JSON.stringify(placeholders(String(locales.bg.get(key) ?? ""))),
    );
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  it("really translates: no Bulgarian string is a copy of an English sentence", () => {
    const copied = [...locales.en].filter(
      ([key, value]) => /[a-z]{3,}\s+[a-z]{3,}/i.test(String(value)) && locales.bg.get(key) === value,
    );
    expect(copied.map(([key]) => key)).toEqual([]);
  });

  it("keeps the spec's English error texts word for word", () => {
    expect(en.errors.notFound.title).toBe("Page Not Found");
    expect(en.errors.notFound.message).toBe("Sorry, the page you are looking for could not be found.");
    expect(en.errors.notFound.homeLink).toBe("Go back home");
    expect(en.errors.serverError.title).toBe("Internal Server Error");
    expect(en.errors.serverError.message).toBe("This page is temporarily unavailable.");
  });
});
