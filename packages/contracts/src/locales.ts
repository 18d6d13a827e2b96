/**
 * The languages Ambercare speaks: the interface, the e-mails and the directory's texts. English is
 * the default and every other language is complete (no page or e-mail falls back to English).
 * Everything that depends on the list reads it from here, so adding a language is one entry below,
 * then whatever TypeScript and the locale tests ask for: its interface strings, its e-mail catalogue
 * (apps/api/src/platform/mail/locales/<locale>.json, ADR 053) and its directory texts.
 * No zod here: the browser bundle and the service worker import this module.
 */
export const LOCALES = ["en", "bg"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE = "en" as const satisfies Locale;
/** The languages other than the default: the ones whose texts are translations of the default's. */
export type TranslatedLocale = Exclude<Locale, typeof DEFAULT_LOCALE>;

export type LocaleInfo = {
  /** The BCP 47 tag given to `Intl` (dates, numbers) for this language. */
  intlTag: string;
  /** The language's name in that language: the label of the language switch. */
  name: string;
};

export const LOCALE_INFO: Readonly<Record<Locale, LocaleInfo>> = Object.freeze({
  en: { intlTag: "en-US", name: "English" },
  bg: { intlTag: "bg-BG", name: "Български" },
});

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** A stored or received language code as a locale; anything unknown reads as the default. */
export function toLocale(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** The `Intl` tag of a locale (`"bg"` → `"bg-BG"`). */
export function intlTag(locale: Locale): string {
  return LOCALE_INFO[locale].intlTag;
}
