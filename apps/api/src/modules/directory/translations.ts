import { DEFAULT_LOCALE, type Locale } from "@ambercare/contracts/locales";
import type { Translations } from "@ambercare/db/schema";

/**
 * One field of a directory row in `locale`: the default language's text lives in the row's own
 * column (`defaultText`), every other language in its `translations` document (ADR 028). A language
 * missing there reads as the default, so a new language shows English until its texts are added.
 */
export function translated<Field extends string>(
  translations: Translations<Field>,
  field: Field,
  defaultText: string,
  locale: Locale,
): string {
  if (locale === DEFAULT_LOCALE) return defaultText;
  return translations[locale]?.[field] ?? defaultText;
}
