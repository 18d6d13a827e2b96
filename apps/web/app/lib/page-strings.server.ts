import routeStrings from "virtual:ambercare/route-strings";
import type { Locale, Translations } from "#app/lib/i18n.tsx";
import { getTranslations } from "#app/lib/locale.server.ts";
import { rememberStrings, routeIdsOf } from "#app/lib/page-strings.ts";
import { pickStrings } from "#app/lib/pick-strings.ts";

/**
 * The strings of a set of routes, per language, as the JSON text every answer sends: built once
 * per set, then shared by every answer.
 */
const subsets = new Map<string, { json: string; translations: Translations }>();

/**
 * The strings (in `locale`) of the routes `pathname` shows, as JSON text (`json`, what the root
 * loader sends) and as the object it parses to, and those routes' ids.
 */
export function stringsForPath(
  locale: Locale,
  pathname: string,
): { routes: string[]; json: string; translations: Translations } {
  const routes = routeIdsOf(pathname);
  const cacheKey = `${locale} ${routes.join(" ")}`;
  let subset = subsets.get(cacheKey);
  if (!subset) {
    const paths = new Set(routes.flatMap((id) => routeStrings[id] ?? []));
    const translations = pickStrings(getTranslations(locale), paths) as Translations;
    const json = JSON.stringify(translations);
    // The server renders with the object it built: it never parses its own text.
    rememberStrings(json, translations);
    subset = { json, translations };
    subsets.set(cacheKey, subset);
  }
  return { routes, ...subset };
}
