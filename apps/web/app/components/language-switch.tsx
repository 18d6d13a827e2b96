import { LOCALE_INFO } from "@ambercare/contracts/locales";
import { Link, useLocation } from "react-router";
import { LOCALES, type Locale, useTranslation } from "#app/lib/i18n.tsx";

/** The current page with `?lang=<locale>`: the server switches and remembers the language. */
export function languageHref(
  location: { pathname: string; search: string; hash: string },
  locale: Locale,
): string {
  const params = new URLSearchParams(location.search);
  params.set("lang", locale);
  return `${location.pathname}?${params}${location.hash}`;
}

/** Links to the current page in each language, each labelled in its own language. */
export function LanguageSwitch({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <div className={className}>
      <ul aria-label={t("language.label")} className="flex flex-wrap items-center gap-x-4 gap-y-1">
        {LOCALES.map((locale) => {
          const current = i18n.language === locale;
          return (
            <li key={locale}>
              <Link
                to={languageHref(location, locale)}
                lang={locale}
                hrefLang={locale}
                preventScrollReset
                aria-current={current ? "true" : undefined}
                className={
                  current
                    ? "font-semibold text-ink no-underline"
                    : "text-primary-ink underline underline-offset-2 hover:text-ink"
                }
              >
                {LOCALE_INFO[locale].name}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
