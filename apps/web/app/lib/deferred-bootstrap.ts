/**
 * The page's JavaScript starts loading only once the first content has been painted (ADR 013).
 *
 * React Router's `<Scripts>` emits a `<link rel="modulepreload">` for every module the first render
 * needs (~106 KB gzip of React and React Router) and an inline module script that imports the
 * route modules statically, then the client entry. Those requests start with the HTML, at High
 * priority, and compete with the stylesheet for a slow mobile connection. This module rewrites the
 * inline script so that it
 *   1. waits for the first (largest) contentful paint,
 *   2. then adds the same modulepreload links (so the modules still download in parallel), a few
 *      per task so that starting ~25 requests is no long task,
 *   3. then runs the preloaded modules one at a time, dependencies first (`evaluationOrder`), so
 *      that no route's modules run in one long task (all but the client entry, which hydrates as it
 *      runs),
 *   4. then imports the route modules in their original order and the client entry, exactly as
 *      React Router would have.
 * The rest of React Router's script (the manifest, `window.__reactRouterRouteModules`, the entry
 * import) is kept as it is.
 */

/**
 * Modulepreload links added per task. Each one starts a request (0.2–1 ms of main thread on a
 * desktop core, several times that on a phone); the ~25 of a page in one task made a long task
 * right after the paint. A hidden tab, whose timers the browser slows down, adds them all at once.
 */
export const PRELOADS_PER_TASK = 4;

/** Longest wait for a paint before the scripts load anyway (a page that never reports one). */
export const PAINT_WAIT_FALLBACK_MS = 3000;

/**
 * Resolves once the browser has reported the first largest-contentful-paint candidate (or the
 * first paint where that entry type is unknown). Hidden tabs do not paint, so they do not wait.
 * Plain ES2020, inlined into the page under the CSP nonce.
 */
const AWAIT_FIRST_PAINT = `await new Promise((go) => {
  if (document.visibilityState === "hidden") return go();
  setTimeout(go, ${PAINT_WAIT_FALLBACK_MS});
  try {
    const types = PerformanceObserver.supportedEntryTypes || [];
    const type = types.includes("largest-contentful-paint") ? "largest-contentful-paint" : "paint";
    new PerformanceObserver((_, observer) => {
      observer.disconnect();
      setTimeout(go, 0);
    }).observe({ type, buffered: true });
  } catch {
    requestAnimationFrame(() => setTimeout(go, 0));
  }
});`;

const IDENTIFIER = String.raw`[A-Za-z_$][\w$]*`;
const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;
/** `import * as route0 from "/assets/root-….js";` */
const NAMESPACE_IMPORT = new RegExp(
  String.raw`import\s*\*\s*as\s+(${IDENTIFIER})\s+from\s*(${STRING})\s*;`,
  "g",
);
/** `import "/assets/manifest-….js";` (and the dev server's HMR runtime). */
const SIDE_EFFECT_IMPORT = new RegExp(String.raw`import\s*(${STRING})\s*;`, "g");
/** `import("/assets/entry.client-….js");`, the last statement: the client entry hydrates as it runs. */
const ENTRY_IMPORT = new RegExp(String.raw`import\((${STRING})\);?\s*$`);
/** React Router's script sets these globals after its imports; only the part before is rewritten. */
const GLOBALS_START = "window.__reactRouter";

/**
 * The order in which to run the preloaded modules one at a time, dependencies first as far as the
 * list tells. React Router lists the entry's imports, then each route's module followed by the
 * modules it imports that are not listed yet, each import before the modules it imports in turn.
 * The entry's imports start with the shared libraries, which depend on nothing, and keep their
 * order; a route's group is run backwards (its imports, last first, then the route module), so a
 * route module no longer brings all of its imports into its own task. The entry is left out: it
 * hydrates as it runs, after React Router has set its globals.
 */
export function evaluationOrder(
  hrefs: readonly string[],
  entry: string,
  routeModules: readonly string[],
): string[] {
  const heads = new Set(routeModules);
  const order: string[] = [];
  let group: string[] = [];
  let head: string | null = null;
  const close = () => {
    if (head === null || head === entry) order.push(...group);
    else order.push(...group.reverse(), head);
  };
  for (const href of hrefs) {
    if (href === entry || heads.has(href)) {
      close();
      group = [];
      head = href;
    } else group.push(href);
  }
  close();
  return order;
}

/**
 * Rewrites React Router's inline module script as described above, or answers null when the script
 * does not have the expected shape (the caller then keeps React Router's own output unchanged).
 * `preloadHrefs` are the modules React Router would have preloaded, in its order.
 */
export function deferModuleBootstrap(source: string, preloadHrefs: readonly string[]): string | null {
  const globalsAt = source.indexOf(GLOBALS_START);
  if (globalsAt < 0 || !source.includes("window.__reactRouterRouteModules")) return null;
  const imports = source.slice(0, globalsAt);
  const rest = source.slice(globalsAt);
  const rewritten = imports
    .replace(NAMESPACE_IMPORT, (_, name: string, path: string) => `const ${name} = await import(${path});`)
    .replace(SIDE_EFFECT_IMPORT, (_, path: string) => `await import(${path});`);
  // Anything else still written as a static import would be fetched before the paint: leave it all.
  if (/\bimport\s*[^\s(]/.test(rewritten)) return null;
  const hrefs = [...new Set(preloadHrefs)];
  const entryLiteral = ENTRY_IMPORT.exec(rest)?.[1];
  const entry = entryLiteral === undefined ? null : (JSON.parse(entryLiteral) as string);
  const preload = hrefs.length
    ? `const modulePreloads = ${JSON.stringify(hrefs).replaceAll("<", "\\u003c")};
for (let i = 0; i < modulePreloads.length; i++) {
  if (i > 0 && i % ${PRELOADS_PER_TASK} === 0 && document.visibilityState !== "hidden") {
    await new Promise((next) => setTimeout(next, 0));
  }
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = modulePreloads[i];
  document.head.append(link);
}
`
    : "";
  // Only a script of route imports alone: anything else before them (the dev server's React
  // refresh preamble, a side-effect import) must run before any route module does.
  const routeImportsOnly = imports.replace(NAMESPACE_IMPORT, "").replace(/[\s;]/g, "") === "";
  const routeModules = [...imports.matchAll(NAMESPACE_IMPORT)].map(
    (match) => JSON.parse(match[2] ?? '""') as string,
  );
  const order = entry !== null && routeImportsOnly ? evaluationOrder(hrefs, entry, routeModules) : [];
  // Each module but the entry is run on its own before React Router's imports, so that each one's
  // top-level code is a task of its own rather than all of a route's modules in one. A failure is
  // left to React Router's import of the same module below, which reports it as before.
  const evaluate = order.length
    ? `for (const i of ${JSON.stringify(order.map((href) => hrefs.indexOf(href)))}) await import(modulePreloads[i]).catch(() => {});
`
    : "";
  return `${AWAIT_FIRST_PAINT}\n${preload}${evaluate}${rewritten}${rest}`;
}
