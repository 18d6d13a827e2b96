import { readFileSync } from "node:fs";
import { LOCALES, type Locale } from "@ambercare/contracts/locales";
import type en from "./locales/en.json";

/**
 * The words of every e-mail the API sends, one catalogue per language in `locales/<locale>.json`, in
 * the web's format (nested keys, `{{name}}` placeholders; apps/web/app/locales). The code that
 * renders an e-mail keeps its layout and picks which strings and which values; every sentence,
 * subject and button label is read here. English is the reference: its file types the keys, so a
 * wrong key is a compile error, and mail-copy.test.ts fails when another language lacks a key,
 * has one too many or names other placeholders. Nothing falls back to English.
 */

/** The shape of a catalogue: `en.json` is the reference, every other language must match it. */
export type MailCatalogue = typeof en;

type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every string of the catalogue, as a dotted key checked at compile time: `"common.greeting"`. */
export type MailKey = Leaves<MailCatalogue>;
export type MailValues = Readonly<Record<string, string | number>>;
/** A translator for one language: the string at `key` with its placeholders filled from `values`. */
export type MailT = (key: MailKey, values?: MailValues) => string;

/** The catalogue file of a language (what a new language adds: one file beside en.json). */
export const catalogueFile = (locale: Locale): URL => new URL(`./locales/${locale}.json`, import.meta.url);

// Read from disk rather than imported, so that a language added to LOCALES needs nothing here but
// its file; all of them are read at startup, so a language without a file stops the API at once
// instead of at its first e-mail.
const CATALOGUES = new Map<Locale, unknown>(
  LOCALES.map((locale) => [locale, JSON.parse(readFileSync(catalogueFile(locale), "utf8"))]),
);

function lookup(catalogue: unknown, key: string): string | undefined {
  let node = catalogue;
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/**
 * Replaces `{{name}}` with `values.name` as the web's `interpolate` does (one pass: a value that
 * contains braces stays as written). A placeholder without a value throws: an e-mail must not reach
 * a patient with `{{firstName}}` in it, and every e-mail is rendered in every language by the tests.
 */
export function fill(text: string, values: MailValues = {}): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_match, name: string) => {
    if (!Object.hasOwn(values, name)) throw new Error(`no value for {{${name}}} in "${text}"`);
    return String(values[name]);
  });
}

/**
 * The translator of `locale`. `shared` values (the product's name, in nearly every string) are
 * filled in every string; a call's own `values` come on top.
 */
export function mailT(locale: Locale, shared: MailValues = {}): MailT {
  const catalogue = CATALOGUES.get(locale);
  return (key, values) => {
    const text = lookup(catalogue, key);
    // Unreachable while mail-copy.test.ts passes; an exception beats a silent English sentence.
    if (text === undefined) throw new Error(`the ${locale} e-mail catalogue has no "${key}"`);
    return fill(text, values ? { ...shared, ...values } : shared);
  };
}

/** "Hello Ana," or, without a first name, "Hello,". */
export function greeting(t: MailT, firstName: string | null): string {
  return firstName ? t("common.greeting", { firstName }) : t("common.greetingWithoutName");
}

/** "Monday, June 7, 2027 at 1:00 PM PDT" in the patient's language and zone. */
export function visitTime(at: Date, locale: Locale, timeZone: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(at);
}
