import routeTree from "virtual:ambercare/route-tree";
import { matchRoutes, type RouteObject } from "react-router";
import type { Locale, Translations } from "#app/lib/i18n.tsx";
import type { RootData } from "#app/lib/root-data.ts";

/**
 * Each page carries only the strings its routes use (ADR 042): the root loader sends the strings of
 * the routes the URL matches (page-strings.server.ts), and the browser keeps every language's strings
 * it has received, so a client-side navigation asks the server again (with the next page's data)
 * only when the next page uses a route whose strings it does not have yet.
 */

/**
 * The answers for paths matched so far: React Router's `matchRoutes` flattens and ranks the whole
 * route tree on every call (a few hundred routes), which was the largest cost of the root loader.
 * Paths are unbounded (ids in them), so the map is emptied when it reaches its bound.
 */
const matched = new Map<string, readonly string[]>();
const MATCHED_KEPT = 2_000;

/** The ids of the routes a path shows (the root first), as both sides match it. */
export function routeIdsOf(pathname: string): string[] {
  let ids = matched.get(pathname);
  if (!ids) {
    // Every node of the tree has an id (vite-plugin-route-strings.ts): the cast only widens the type.
    const matches = matchRoutes(routeTree as RouteObject[], pathname) ?? [];
    ids = Object.freeze(["root", ...matches.map((match) => match.route.id ?? "")]);
    if (matched.size >= MATCHED_KEPT) matched.clear();
    matched.set(pathname, ids);
  }
  return [...ids];
}

/**
 * The root loader sends the strings as one JSON text (`RootData.strings`), not as an object: the
 * stream React Router writes into the page flattens an object into one entry per node and key,
 * which is larger (before and after compression) and costs more to write on every answer than one
 * string. Each text is parsed once; the server's are the objects it built them from.
 */
const parsed = new Map<string, Translations>();
/** In the browser: the texts of the answers of one page's life, a few; on the server: one per subset. */
export function rememberStrings(json: string, translations: Translations): void {
  parsed.set(json, translations);
}

/** The strings a root loader's JSON text holds. */
export function stringsOf(json: string): Translations {
  let translations = parsed.get(json);
  if (!translations) {
    translations = JSON.parse(json) as Translations;
    parsed.set(json, translations);
  }
  return translations;
}

type Received = { answers: Set<string>; routes: Set<string>; translations: Translations };
/** In the browser only: what this page has received so far, per language (never on the server). */
const received = new Map<Locale, Received>();
const inBrowser = typeof document !== "undefined";

function merge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const existing = result[key];
    result[key] =
      value !== null && typeof value === "object" && existing !== null && typeof existing === "object"
        ? merge(existing as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}

/**
 * The strings to render with: the root loader's on the server; in the browser, those merged with
 * the same language's strings received before (a page reached without asking the root loader
 * again uses strings an earlier answer brought).
 */
export function pageTranslations(root: Pick<RootData, "locale" | "strings" | "stringRoutes">): Translations {
  const translations = stringsOf(root.strings);
  if (!inBrowser) return translations;
  const known = received.get(root.locale);
  if (known?.answers.has(root.strings)) return known.translations;
  const next: Received = known
    ? {
        answers: known.answers,
        routes: new Set([...known.routes, ...(root.stringRoutes ?? [])]),
        translations: merge(
          known.translations as Record<string, unknown>,
          translations as Record<string, unknown>,
        ) as Translations,
      }
    : { answers: new Set(), routes: new Set(root.stringRoutes ?? []), translations };
  next.answers.add(root.strings);
  received.set(root.locale, next);
  return next.translations;
}

/** Whether the browser has the strings of every route `pathname` shows, in `locale`. */
export function hasStringsFor(locale: Locale | undefined, pathname: string): boolean {
  if (!locale) return false;
  const known = received.get(locale);
  return known !== undefined && routeIdsOf(pathname).every((id) => known.routes.has(id));
}
