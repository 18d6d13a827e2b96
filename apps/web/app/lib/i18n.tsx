import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import { type ComponentType, createContext, type ReactNode, useContext, useMemo } from "react";
import type en from "#app/locales/en.json";

/**
 * The interface's translations (`en` by default, `bg` complete).
 *
 * The server picks one locale per request (locale.server.ts) and the root loader sends only that
 * language's strings of the routes the page shows (page-strings.ts). Strings live in `app/locales/{en,bg}.json` as nested keys in
 * i18next's format (`{{name}}` interpolation, `_one`/`_other` plural suffixes), read by this small
 * runtime instead of i18next + react-i18next: those two weigh ~18 KB gzip in the browser, which broke
 * the 130 KB initial-JS budget (docs/decisions/007-i18n-runtime.md). `useTranslation()` has
 * react-i18next's shape, so moving back is a change of import.
 */
// The list of languages is packages/contracts' (locales.ts); the web's modules read it through here.
export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "@ambercare/contracts/locales";

/** The shape of a locale file: `en.json` is the reference, `bg.json` must match it (locales.test.ts). */
export type Translations = typeof en;

type PluralSuffix = "zero" | "one" | "two" | "few" | "many" | "other";
type Leaves<T, Prefix extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type WithoutPlural<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;

/** Every translation key, checked at compile time: `t("nav.findADoctor")`. */
export type TranslationKey = WithoutPlural<Leaves<Translations>>;
export type TranslationValues = Record<string, string | number>;
export type TFunction = (key: TranslationKey, values?: TranslationValues) => string;
export type I18n = { language: Locale; t: TFunction };

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Looks a nested key up (`"pages.about.title"`); `undefined` unless it ends on a string. */
export function lookup(translations: unknown, key: string): string | undefined {
  // Walks the key's parts in place: a page's render looks up hundreds of keys, and splitting each
  // into an array was most of this function's cost in a profile of the logged-in pages.
  let node: unknown = translations;
  let start = 0;
  while (true) {
    if (node === null || typeof node !== "object") return undefined;
    const dot = key.indexOf(".", start);
    node = (node as Record<string, unknown>)[dot < 0 ? key.slice(start) : key.slice(start, dot)];
    if (dot < 0) break;
    start = dot + 1;
  }
  return typeof node === "string" ? node : undefined;
}

/** Replaces `{{name}}` with `values.name` (as i18next does; React escapes the result). */
export function interpolate(text: string, values?: TranslationValues): string {
  if (!values) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (match, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}

/**
 * A page carries only the strings its routes use (page-strings.ts): a key its strings lack is a
 * defect of that list, told in the browser's console (where the browser journeys fail on it).
 */
function reportMissing(key: string): void {
  if (typeof document !== "undefined") console.error(`Missing string on this page: ${key}`);
}

/**
 * A translator for one locale. A missing key is asked of `fallback` when there is one, else returns
 * the key itself (the locale parity test keeps that from happening); `values.count` picks the
 * `_one`/`_other`… form by the locale's plural rules.
 */
export function createI18n(
  locale: Locale,
  translations: DeepPartial<Translations>,
  fallback?: TFunction,
): I18n {
  let plurals: Intl.PluralRules | undefined;
  const t: TFunction = (key, values) => {
    let text: string | undefined;
    if (typeof values?.count === "number") {
      plurals ??= new Intl.PluralRules(locale);
      text =
        lookup(translations, `${key}_${plurals.select(values.count)}`) ??
        lookup(translations, `${key}_other`);
    }
    text ??= lookup(translations, key);
    if (text === undefined) {
      if (fallback) return fallback(key, values);
      reportMissing(key);
      return key;
    }
    return interpolate(text, values);
  };
  return { language: locale, t };
}

const I18nContext = createContext<I18n>(createI18n(DEFAULT_LOCALE, {}));

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/** A module's own strings in every language, as `virtual:ambercare/own-strings` gives them. */
export type OwnStringTable = Readonly<Record<string, DeepPartial<Translations>>>;

/**
 * Renders a part loaded on demand with the strings that came in its own chunk (ADR 042): they are
 * not in the page's strings, and every key they lack is the page's.
 */
export function OwnStrings({ strings, children }: { strings: OwnStringTable; children: ReactNode }) {
  const page = useContext(I18nContext);
  const i18n = useMemo(
    () => createI18n(page.language, strings[page.language] ?? {}, page.t),
    [page, strings],
  );
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/** `Component` rendered with its own strings: `export const Panel = withOwnStrings(ownStrings, Dialog)`. */
export function withOwnStrings<Props extends object>(
  strings: OwnStringTable,
  Component: ComponentType<Props>,
): ComponentType<Props> {
  return function WithOwnStrings(props: Props) {
    return (
      <OwnStrings strings={strings}>
        <Component {...props} />
      </OwnStrings>
    );
  };
}

/** `const { t, i18n } = useTranslation()`, as in react-i18next. */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  return { t: i18n.t, i18n };
}
