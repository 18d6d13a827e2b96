/**
 * The page's JavaScript starts loading only once the first content has been painted (ADR 013).
 *
 * React Router's `<Scripts>` emits a `<link rel="modulepreload">` for every module the first render
 * needs (~106 KB gzip of React and React Router) and an inline module script that imports the
 * route modules statically, then the client entry. Those requests start with the HTML, at High
 * priority, and compete with the stylesheet for a slow mobile connection. This module rewrites the
 * inline script so that it
 *   1. waits for the first (largest) contentful paint,
 *   2. then adds the same modulepreload links (so the modules still download in parallel),
 *   3. then imports the route modules in their original order and the client entry, exactly as
 *      React Router would have.
 * The rest of React Router's script (the manifest, `window.__reactRouterRouteModules`, the entry
 * import) is kept as it is.
 */

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
/** React Router's script sets these globals after its imports; only the part before is rewritten. */
const GLOBALS_START = "window.__reactRouter";

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
  const preload = hrefs.length
    ? `const modulePreloads = ${JSON.stringify(hrefs).replaceAll("<", "\\u003c")};
for (const href of modulePreloads) {
  const link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = href;
  document.head.append(link);
}
`
    : "";
  return `${AWAIT_FIRST_PAINT}\n${preload}${rewritten}${rest}`;
}
