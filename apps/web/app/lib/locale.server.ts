import { readCookie, setCookieHeader } from "#app/lib/cookies.server.ts";
import { DEFAULT_LOCALE, isLocale, type Locale, type Translations } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

/** Both languages live on the server only; the browser gets the active one from the root loader. */
const TRANSLATIONS: Readonly<Record<Locale, Translations>> = Object.freeze({ en, bg });

export function getTranslations(locale: Locale): Translations {
  return TRANSLATIONS[locale];
}

/** Re-exported: the language tests read the `lang` cookie through this module. */
export { readCookie };

export const LANG_COOKIE = "lang";
export const LANG_QUERY_PARAM = "lang";
/** The remembered language lasts a year. */
export const LANG_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/**
 * The best supported locale in an Accept-Language header, by q-value then order; `null` when
 * none is supported. `bg-BG` counts as `bg`; `q=0` means "not acceptable".
 */
export function parseAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranges = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((range) => range.q > 0 && range.primary !== "")
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    if (isLocale(range.primary)) return range.primary;
    if (range.primary === "*") return DEFAULT_LOCALE;
  }
  return null;
}

export function langCookie(locale: Locale, { secure }: { secure: boolean }): string {
  // Not HttpOnly: the language is no secret.
  return setCookieHeader(LANG_COOKIE, locale, { maxAge: LANG_COOKIE_MAX_AGE_S, httpOnly: false, secure });
}

export type LocaleChoice = {
  locale: Locale;
  /** A Set-Cookie value when `?lang=` chose (or changed) the remembered language. */
  setCookie: string | null;
};

/**
 * `?lang=bg|en` selects the language and remembers it in the `lang` cookie; otherwise the cookie
 * decides; on a first visit Accept-Language decides; `en` otherwise (architecture "language").
 */
export function chooseLocale(request: Request, { secure }: { secure: boolean }): LocaleChoice {
  const cookieHeader = request.headers.get("Cookie");
  const remembered = readCookie(cookieHeader, LANG_COOKIE);
  const requested = new URL(request.url).searchParams.get(LANG_QUERY_PARAM);
  if (isLocale(requested)) {
    return {
      locale: requested,
      setCookie: requested === remembered ? null : langCookie(requested, { secure }),
    };
  }
  if (isLocale(remembered)) return { locale: remembered, setCookie: null };
  return {
    locale: parseAcceptLanguage(request.headers.get("Accept-Language")) ?? DEFAULT_LOCALE,
    setCookie: null,
  };
}

/** The language a page is shown in, for loaders that pick content by language (the root loader's choice). */
export function requestLocale(request: Request): Locale {
  return chooseLocale(request, { secure: false }).locale;
}
