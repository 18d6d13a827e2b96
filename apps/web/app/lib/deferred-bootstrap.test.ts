import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deferModuleBootstrap, PAINT_WAIT_FALLBACK_MS } from "#app/lib/deferred-bootstrap.ts";

// React Router 7.18's inline module script for a page of three routes (lazy route discovery), as
// `<Scripts>` writes it.
const ROUTER_SCRIPT = `;
import * as route0 from "/assets/root-A1.js";
import * as route1 from "/assets/main-B2.js";
import * as route2 from "/assets/home-C3.js";
  window.__reactRouterManifest = {
  "entry": { "module": "/assets/entry.client-E0.js", "imports": ["/assets/chunk-R.js"], "css": [] },
  "routes": { "root": { "id": "root", "module": "/assets/root-A1.js" } },
  "url": "/assets/manifest-1.js",
  "version": "1"
};
  window.__reactRouterRouteModules = {"root":route0,"routes/layouts/main":route1,"routes/home":route2};

import("/assets/entry.client-E0.js");`;

const PRELOADS = [
  "/assets/entry.client-E0.js",
  "/assets/chunk-R.js",
  "/assets/root-A1.js",
  "/assets/chunk-R.js",
];

type Observer = { callback: () => void; options: { type: string; buffered: boolean } };

/**
 * Runs a rewritten script with stand-ins for the browser: `import()` records the URL, the
 * PerformanceObserver is fired by the test, links are collected from `document.head.append`.
 */
function run(script: string, { hidden = false, entryTypes = ["paint", "largest-contentful-paint"] } = {}) {
  const imported: string[] = [];
  const preloaded: { rel: string; href: string }[] = [];
  const observers: Observer[] = [];
  const events: string[] = [];
  const window: Record<string, unknown> = {};
  const document = {
    visibilityState: hidden ? "hidden" : "visible",
    createElement: () => ({ rel: "", href: "" }),
    head: {
      append: (link: { rel: string; href: string }) => {
        preloaded.push(link);
        events.push(`preload ${link.href}`);
      },
    },
  };
  class FakePerformanceObserver {
    static supportedEntryTypes = entryTypes;
    constructor(private readonly callback: (list: unknown, observer: { disconnect(): void }) => void) {}
    observe(options: { type: string; buffered: boolean }) {
      observers.push({ callback: () => this.callback({}, { disconnect: () => {} }), options });
    }
  }
  const load = (url: string) => {
    imported.push(url);
    events.push(`import ${url}`);
    return Promise.resolve({ url });
  };
  const wait = (callback: () => void, ms: number) => {
    events.push(`timer ${ms}`);
    return setTimeout(callback, ms);
  };
  // `import(` is syntax, not a function: the test swaps it for one it can watch.
  const body = script.replaceAll("import(", "load(");
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const done = new AsyncFunction(
    "window",
    "document",
    "PerformanceObserver",
    "requestAnimationFrame",
    "load",
    "setTimeout",
    body,
  )(window, document, FakePerformanceObserver, (cb: () => void) => setTimeout(cb, 16), load, wait);
  return { imported, preloaded, observers, events, window, done };
}

describe("deferModuleBootstrap", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("turns the static imports into imports that run after the paint, keeping the globals and order", () => {
    const script = deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS);
    expect(script).not.toBeNull();
    expect(script).not.toMatch(/import\s*\*/);
    expect(script).toContain('const route0 = await import("/assets/root-A1.js");');
    expect(script).toContain('window.__reactRouterRouteModules = {"root":route0');
    expect(script?.trimEnd().endsWith('import("/assets/entry.client-E0.js");')).toBe(true);
  });

  it("loads nothing before the largest contentful paint, then preloads every module and imports in order", async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "");
    await vi.advanceTimersByTimeAsync(PAINT_WAIT_FALLBACK_MS - 1);
    expect(page.events).toEqual([`timer ${PAINT_WAIT_FALLBACK_MS}`]);
    expect(page.observers.map((o) => o.options)).toEqual([
      { type: "largest-contentful-paint", buffered: true },
    ]);

    page.observers[0]?.callback();
    await vi.advanceTimersByTimeAsync(0);
    await page.done;
    expect(page.preloaded).toEqual([
      { rel: "modulepreload", href: "/assets/entry.client-E0.js" },
      { rel: "modulepreload", href: "/assets/chunk-R.js" },
      { rel: "modulepreload", href: "/assets/root-A1.js" },
    ]);
    expect(page.imported).toEqual([
      // React Router's imports in its order, the entry last
      "/assets/root-A1.js",
      "/assets/main-B2.js",
      "/assets/home-C3.js",
      "/assets/entry.client-E0.js",
    ]);
    // Preloads first, so the modules download in parallel rather than one after another.
    expect(page.events.filter((e) => !e.startsWith("timer")).findIndex((e) => e.startsWith("import"))).toBe(
      3,
    );
    expect(page.window.__reactRouterRouteModules).toEqual({
      root: { url: "/assets/root-A1.js" },
      "routes/layouts/main": { url: "/assets/main-B2.js" },
      "routes/home": { url: "/assets/home-C3.js" },
    });
    expect(page.window.__reactRouterManifest).toMatchObject({ version: "1" });
  });

  it("waits for the first paint where largest-contentful-paint is unknown", async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "", { entryTypes: ["paint"] });
    expect(page.observers.map((o) => o.options.type)).toEqual(["paint"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(page.imported).toEqual([]);
    page.observers[0]?.callback();
    await vi.advanceTimersByTimeAsync(0);
    await page.done;
    expect(page.imported).toHaveLength(4);
  });

  it("loads at once in a hidden tab, which does not paint", async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "", { hidden: true });
    await vi.advanceTimersByTimeAsync(0);
    await page.done;
    expect(page.observers).toEqual([]);
    expect(page.imported).toHaveLength(4);
  });

  it(`loads anyway after ${PAINT_WAIT_FALLBACK_MS} ms when no paint is reported`, async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "");
    await vi.advanceTimersByTimeAsync(PAINT_WAIT_FALLBACK_MS - 1);
    expect(page.imported).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await page.done;
    expect(page.imported).toHaveLength(4);
  });

  it("keeps the dev server's preamble before any route module", async () => {
    // The dev server's script runs its HMR client and React refresh preamble before any route.
    const dev = `import "/@vite/client";
window.__vite_plugin_react_preamble_installed__ = true;
import * as route0 from "/app/root.tsx";
  window.__reactRouterRouteModules = {"root":route0};

import("/app/entry.client.tsx");`;
    const page = run(deferModuleBootstrap(dev, ["/app/root.tsx", "/app/entry.client.tsx"]) ?? "", {
      hidden: true,
    });
    await vi.runAllTimersAsync();
    await page.done;
    expect(page.imported).toEqual(["/@vite/client", "/app/root.tsx", "/app/entry.client.tsx"]);
    expect(page.window.__vite_plugin_react_preamble_installed__).toBe(true);
  });

  it("keeps split route modules merged and side-effect imports in place", async () => {
    const split = `import "/assets/manifest-1.js";
import * as route0_clientLoader from "/assets/root-A1-loader.js";
import * as route0_main from "/assets/root-A1.js";
const route0 = {...route0_clientLoader,...route0_main};
  window.__reactRouterRouteModules = {"root":route0};

import("/assets/entry.client-E0.js");`;
    const page = run(deferModuleBootstrap(split, []) ?? "", { hidden: true });
    await vi.advanceTimersByTimeAsync(0);
    await page.done;
    expect(page.preloaded).toEqual([]);
    expect(page.imported).toEqual([
      "/assets/manifest-1.js",
      "/assets/root-A1-loader.js",
      "/assets/root-A1.js",
      "/assets/entry.client-E0.js",
    ]);
    expect(page.window.__reactRouterRouteModules).toEqual({
      root: { url: "/assets/root-A1.js" },
    });
  });

  it("declines a script of another shape, so React Router's own is kept", () => {
    expect(
      deferModuleBootstrap('import { a } from "/x.js";\nwindow.__reactRouterRouteModules = {};', []),
    ).toBeNull();
    expect(deferModuleBootstrap('import * as route0 from "/x.js";', [])).toBeNull();
    expect(deferModuleBootstrap(" ", [])).toBeNull();
  });
});
