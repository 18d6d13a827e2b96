import routeStrings from "virtual:ambercare/route-strings";
import type { Locale, Translations } from "#app/lib/i18n.tsx";
import { getTranslations } from "#app/lib/locale.server.ts";
import { routeIdsOf } from "#app/lib/page-strings.ts";

/** The strings of a set of routes, per language: built once per set, then shared by every answer. */
const subsets = new Map<string, Translations>();

/** The parts of `table` the key paths name; a path inside another one adds nothing. */
function pick(table: unknown, paths: Iterable<string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const kept: string[] = [];
  for (const path of [...paths].sort((a, b) => a.length - b.length)) {
    if (kept.some((outer) => path.startsWith(`${outer}.`))) continue;
    kept.push(path);
    const parts = path.split(".");
    let source: unknown = table;
    let target = result;
    for (const [index, part] of parts.entries()) {
      if (source === null || typeof source !== "object") break;
      source = (source as Record<string, unknown>)[part];
      if (source === undefined) break;
      if (index === parts.length - 1) target[part] = source;
      else {
        target[part] ??= {};
        target = target[part] as Record<string, unknown>;
      }
    }
  }
  return result;
}

/** The strings (in `locale`) of the routes `pathname` shows, and those routes' ids. */
export function stringsForPath(
  locale: Locale,
  pathname: string,
): { routes: string[]; translations: Translations } {
  const routes = routeIdsOf(pathname);
  const cacheKey = `${locale} ${routes.join(" ")}`;
  let translations = subsets.get(cacheKey);
  if (!translations) {
    const paths = new Set(routes.flatMap((id) => routeStrings[id] ?? []));
    translations = pick(getTranslations(locale), paths) as Translations;
    subsets.set(cacheKey, translations);
  }
  return { routes, translations };
}
