import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { pickStrings } from "./app/lib/pick-strings.ts";

/**
 * Which strings each route's page can show, found at build time from its source (ADR 042).
 *
 * `app/locales/{en,bg}.json` stay the one place where strings are written. For every route of
 * app/routes.ts this walks the files its module imports (statically, lazily, on either side of the
 * server boundary: a loader may hand a key to its component) and keeps every string literal that
 * names a node of en.json:
 * - `"nav.findADoctor"` keeps that string (and its `_one`/`_other`… forms);
 * - `"auth.errors."` (a literal ending with a dot, as in `"auth.errors." + code`) and the fixed head
 *   of a template literal (`` `consultation.types.${type}` ``) keep the whole subtree;
 * - the head `pages.` is the exception: each page names itself (`pageMeta(args, "about")`), so it
 *   keeps `pages.<name>` for every identifier-like literal of the same files that names a page.
 * A key built any other way is not found: the browser journeys fail on the missing string
 * (i18n.tsx reports it), and the page-strings journey checks every page in both languages.
 *
 * A part loaded on demand (the support panel, the consent banner, the idle warning, the membership
 * offer) can carry its own strings instead: a module that imports `virtual:ambercare/own-strings`
 * gets, in every language, the strings of its own module graph, and the routes' walks stop at it.
 * Its strings then arrive with its chunk, when it is needed, not in every page's HTML
 * (`withOwnStrings`, i18n.tsx).
 */
export const ROUTE_STRINGS_MODULE_ID = "virtual:ambercare/route-strings";
export const ROUTE_TREE_MODULE_ID = "virtual:ambercare/route-tree";
export const OWN_STRINGS_MODULE_ID = "virtual:ambercare/own-strings";

const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "app");

/** A route as app/routes.ts declares it (React Router's RouteConfigEntry, the fields read here). */
export type RouteConfigLike = {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteConfigLike[];
};

/** The route tree both sides match a URL against (React Router's `matchRoutes`). */
export type RouteTreeNode = { id: string; path?: string; index?: boolean; children?: RouteTreeNode[] };

type Scan = {
  keys: Set<string>;
  prefixes: Set<string>;
  names: Set<string>;
  imports: string[];
  /** The module imports its own strings (OWN_STRINGS_MODULE_ID): another module's walk stops here. */
  ownStrings: boolean;
};

/**
 * The fields of a page's node (`pages.<name>.<field>`) that only the page itself shows: its meta
 * description and its heading's lead. A page named anywhere else in a module graph (a link in the
 * footer, a list of pages) needs its title only; the page's own module names itself.
 */
const OWN_PAGE_FIELDS = new Set(["description"]);

/**
 * The page table (lib/pages.ts) names every page, and nearly every module reaches it (through the
 * session's access check, the SEO of every page's head): its names count only for a route whose own
 * module imports it, the page that lists the pages (/sitemap), not for every route that reaches it.
 */
const PAGE_TABLE = resolve(APP_DIR, "lib/pages.ts");

/** Namespaces whose children are named by a literal elsewhere (the page's own name). */
const NAMED_BY_LITERAL = new Set(["pages"]);

const IMPORT_PATTERN = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'\n]+)["']/g;
const DOTTED_LITERAL = /["'`]([A-Za-z][\w-]*(?:\.[\w-]+)*\.?)["'`]/g;
const TEMPLATE_HEAD = /`([A-Za-z][\w-]*(?:\.[\w-]+)*\.)\$\{/g;
const NAME_LITERAL = /["'`]([A-Za-z][\w-]*)["'`]/g;

/** React Router's route id: the file's path under app/ without its extension (`root` for the root). */
export function routeId(file: string): string {
  return file.replace(/\.[jt]sx?$/, "");
}

function scanFile(file: string, cache: Map<string, Scan>): Scan {
  const cached = cache.get(file);
  if (cached) return cached;
  const source = readFileSync(file, "utf8");
  const scan: Scan = {
    keys: new Set(),
    prefixes: new Set(),
    names: new Set(),
    imports: [],
    ownStrings: false,
  };
  cache.set(file, scan);
  for (const [, specifier = ""] of source.matchAll(IMPORT_PATTERN)) {
    if (specifier === OWN_STRINGS_MODULE_ID) scan.ownStrings = true;
    const target = resolveImport(file, specifier);
    if (target) scan.imports.push(target);
  }
  for (const [, literal = ""] of source.matchAll(DOTTED_LITERAL)) {
    if (literal.endsWith(".")) scan.prefixes.add(literal.slice(0, -1));
    else if (literal.includes(".")) scan.keys.add(literal);
  }
  for (const [, head = ""] of source.matchAll(TEMPLATE_HEAD)) scan.prefixes.add(head.slice(0, -1));
  for (const [, name = ""] of source.matchAll(NAME_LITERAL)) scan.names.add(name);
  return scan;
}

/** The app's own modules only: `#app/…` and relative paths; packages carry no keys of the site. */
function resolveImport(from: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith("#app/")) target = resolve(APP_DIR, specifier.slice("#app/".length));
  else if (specifier.startsWith(".")) target = resolve(dirname(from), specifier);
  else return null;
  target = target.replace(/\?.*$/, "");
  if (!/\.[jt]sx?$/.test(target)) return null;
  return existsSync(target) ? target : null;
}

function isServerModule(file: string): boolean {
  return /\.server\.[jt]sx?$/.test(file);
}

function node(table: unknown, path: string): unknown {
  let current: unknown = table;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** `a.b.count` names `a.b.count_one`, `a.b.count_other`… when there is no `a.b.count` itself. */
function pluralForms(table: unknown, key: string): string[] {
  const dot = key.lastIndexOf(".");
  if (dot < 0) return [];
  const parent = node(table, key.slice(0, dot));
  if (parent === null || typeof parent !== "object") return [];
  const base = `${key.slice(dot + 1)}_`;
  return Object.keys(parent)
    .filter((name) => name.startsWith(base))
    .map((name) => `${key.slice(0, dot)}.${name}`);
}

/**
 * The key paths (strings or whole subtrees of `reference`) the module graph from `entry` uses,
 * sorted; `cache` is shared between routes, whose graphs overlap.
 */
export function stringsOfModule(
  entry: string,
  reference: unknown,
  {
    cache = new Map<string, Scan>(),
    serverModules = true,
    listsPages = scanFile(entry, cache).imports.includes(PAGE_TABLE),
  }: { cache?: Map<string, Scan>; serverModules?: boolean; listsPages?: boolean } = {},
): string[] {
  const seen = new Set<string>();
  const pending = [entry];
  const ownNames = scanFile(entry, cache).names;
  const keys = new Set<string>();
  const prefixes = new Set<string>();
  const names = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const scan = scanFile(file, cache);
    // A part with its own strings brings them itself, whoever imports it.
    if (scan.ownStrings && file !== entry) continue;
    for (const key of scan.keys) keys.add(key);
    for (const prefix of scan.prefixes) prefixes.add(prefix);
    if (file !== PAGE_TABLE || listsPages) for (const name of scan.names) names.add(name);
    pending.push(
      ...(serverModules ? scan.imports : scan.imports.filter((target) => !isServerModule(target))),
    );
  }
  const found = new Set<string>();
  for (const key of keys) {
    const value = node(reference, key);
    if (typeof value === "string" || (value !== null && typeof value === "object")) found.add(key);
    else for (const form of pluralForms(reference, key)) found.add(form);
  }
  for (const prefix of prefixes) {
    const value = node(reference, prefix);
    if (value === null || typeof value !== "object") continue;
    if (!NAMED_BY_LITERAL.has(prefix)) {
      found.add(prefix);
      continue;
    }
    for (const name of names) {
      const page = (value as Record<string, unknown>)[name];
      if (!Object.hasOwn(value, name)) continue;
      if (ownNames.has(name) || page === null || typeof page !== "object") found.add(`${prefix}.${name}`);
      else
        for (const field of Object.keys(page))
          if (!OWN_PAGE_FIELDS.has(field)) found.add(`${prefix}.${name}.${field}`);
    }
  }
  return [...found].sort();
}

/** Every route of the config with its parent's id, depth first (the root is not in the config). */
function flatten(routes: RouteConfigLike[]): RouteConfigLike[] {
  return routes.flatMap((route) => [route, ...flatten(route.children ?? [])]);
}

export function routeTree(routes: RouteConfigLike[]): RouteTreeNode[] {
  return routes.map((route) => ({
    id: route.id ?? routeId(route.file),
    ...(route.path === undefined ? {} : { path: route.path }),
    ...(route.index ? { index: true } : {}),
    ...(route.children?.length ? { children: routeTree(route.children) } : {}),
  }));
}

/**
 * Route id → the key paths its page uses; `root` is the document every page shares. The root and the
 * layouts hand their components no keys from the server, so their server modules are not read
 * (they reach every API error of the site); a page's own loader and action may, so a page's are.
 */
export function routeStrings(
  routes: RouteConfigLike[],
  reference: unknown,
  appDir: string = APP_DIR,
): Record<string, string[]> {
  const cache = new Map<string, Scan>();
  const result: Record<string, string[]> = {
    root: stringsOfModule(resolve(appDir, "root.tsx"), reference, { cache, serverModules: false }),
  };
  for (const route of flatten(routes)) {
    const serverModules = !route.children?.length;
    result[route.id ?? routeId(route.file)] = stringsOfModule(resolve(appDir, route.file), reference, {
      cache,
      serverModules,
    });
  }
  return result;
}

function loadReference(): unknown {
  return JSON.parse(readFileSync(resolve(APP_DIR, "locales/en.json"), "utf8"));
}

/**
 * The strings of `file`'s own module graph in every language of app/locales, as the module
 * `virtual:ambercare/own-strings` gives that file: `{ en: {…}, bg: {…} }`.
 */
export function ownStringsOf(file: string, appDir: string = APP_DIR): Record<string, unknown> {
  const localesDir = resolve(appDir, "locales");
  const tables = Object.fromEntries(
    readdirSync(localesDir)
      .filter((name) => name.endsWith(".json"))
      .map((name) => [
        name.slice(0, -".json".length),
        JSON.parse(readFileSync(resolve(localesDir, name), "utf8")),
      ]),
  );
  // A part loaded on demand lists no pages, even when it reads the page table (the idle warning).
  const paths = stringsOfModule(file, tables.en, { serverModules: false, listsPages: false });
  return Object.fromEntries(
    Object.entries(tables).map(([locale, table]) => [locale, pickStrings(table, paths)]),
  );
}

/**
 * `virtual:ambercare/route-strings` (route id → key paths, for the server),
 * `virtual:ambercare/route-tree` (the routes' ids and paths, for both sides) and
 * `virtual:ambercare/own-strings` (the importing module's own strings, every language).
 */
export function ambercareRouteStrings(routes: RouteConfigLike[]): Plugin {
  const ids = new Map<string, () => unknown>([
    [`\0${ROUTE_STRINGS_MODULE_ID}`, () => routeStrings(routes, loadReference())],
    [`\0${ROUTE_TREE_MODULE_ID}`, () => routeTree(routes)],
  ]);
  return {
    name: "ambercare-route-strings",
    resolveId(id, importer) {
      if (id === OWN_STRINGS_MODULE_ID && importer)
        return `\0${OWN_STRINGS_MODULE_ID}?${importer.replace(/\?.*$/, "")}`;
      return id === ROUTE_STRINGS_MODULE_ID || id === ROUTE_TREE_MODULE_ID ? `\0${id}` : undefined;
    },
    load(id) {
      const ownPrefix = `\0${OWN_STRINGS_MODULE_ID}?`;
      if (id.startsWith(ownPrefix)) {
        return `export default JSON.parse(${JSON.stringify(JSON.stringify(ownStringsOf(id.slice(ownPrefix.length))))});\n`;
      }
      const make = ids.get(id);
      if (!make) return undefined;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(make()))});\n`;
    },
  };
}
