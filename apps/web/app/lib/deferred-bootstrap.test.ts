import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  deferModuleBootstrap,
  evaluationOrder,
  PAINT_WAIT_FALLBACK_MS,
  PRELOADS_PER_TASK,
} from "#app/lib/deferred-bootstrap.ts";

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
function run(
  script: string,
  { hidden = false, entryTypes = ["paint", "largest-contentful-paint"], failingOnce = [] as string[] } = {},
) {
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
  const failures = new Set(failingOnce);
  const load = (url: string) => {
    imported.push(url);
    events.push(`import ${url}`);
    if (failures.delete(url)) return Promise.reject(new TypeError(`Failed to fetch ${url}`));
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
      // each preloaded module but the entry, one at a time…
      "/assets/chunk-R.js",
      "/assets/root-A1.js",
      // …then React Router's imports, the entry last
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

  it(`adds the preloads ${PRELOADS_PER_TASK} per task, before the first import`, async () => {
    const many = Array.from({ length: 2 * PRELOADS_PER_TASK + 1 }, (_, i) => `/assets/chunk-${i}.js`);
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, many) ?? "");
    page.observers[0]?.callback();
    await vi.runAllTimersAsync();
    await page.done;
    const afterPaint = page.events.slice(page.events.indexOf(`preload ${many[0]}`));
    const tasks = afterPaint
      .slice(
        0,
        afterPaint.findIndex((e) => e.startsWith("import")),
      )
      .join(",")
      .split(",timer 0,")
      .map((task) => task.split(",").length);
    expect(tasks).toEqual([PRELOADS_PER_TASK, PRELOADS_PER_TASK, 1]);
    expect(page.preloaded.map((link) => link.href)).toEqual(many);
    expect(afterPaint.filter((e) => e.startsWith("preload"))).toHaveLength(many.length);
    expect(page.imported).toHaveLength(many.length + 4);
  });

  it("leaves a module that fails to run early to React Router's own import of it", async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "", {
      hidden: true,
      failingOnce: ["/assets/root-A1.js"],
    });
    await vi.runAllTimersAsync();
    await page.done;
    expect(page.imported.filter((url) => url === "/assets/root-A1.js")).toHaveLength(2);
    expect(page.imported.at(-1)).toBe("/assets/entry.client-E0.js");
    expect(page.window.__reactRouterRouteModules).toMatchObject({ root: { url: "/assets/root-A1.js" } });
  });

  it("runs the entry's imports in order and each route's modules backwards, its module last", () => {
    const hrefs = [
      "/entry.js",
      "/react.js",
      "/router.js",
      "/root-data.js",
      "/root.js",
      "/theme.js",
      "/main.js",
      "/footer.js",
      "/newsletter-form.js",
      "/page.js",
      "/plans.js",
      "/format.js",
    ];
    expect(evaluationOrder(hrefs, "/entry.js", ["/root.js", "/main.js", "/page.js"])).toEqual([
      "/react.js",
      "/router.js",
      "/root-data.js",
      "/theme.js",
      "/root.js",
      "/newsletter-form.js",
      "/footer.js",
      "/main.js",
      "/format.js",
      "/plans.js",
      "/page.js",
    ]);
  });

  it("adds every preload in one go in a hidden tab, whose timers the browser slows down", async () => {
    const many = Array.from({ length: 3 * PRELOADS_PER_TASK }, (_, i) => `/assets/chunk-${i}.js`);
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, many) ?? "", { hidden: true });
    await vi.runAllTimersAsync();
    await page.done;
    expect(page.preloaded).toHaveLength(many.length);
    expect(page.events.filter((e) => e.startsWith("timer"))).toEqual([]);
  });

  it("waits for the first paint where largest-contentful-paint is unknown", async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "", { entryTypes: ["paint"] });
    expect(page.observers.map((o) => o.options.type)).toEqual(["paint"]);
    await vi.advanceTimersByTimeAsync(100);
    expect(page.imported).toEqual([]);
    page.observers[0]?.callback();
    await vi.advanceTimersByTimeAsync(0);
    await page.done;
    expect(page.imported).toHaveLength(6);
  });

  it("loads at once in a hidden tab, which does not paint", async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "", { hidden: true });
    await vi.advanceTimersByTimeAsync(0);
    await page.done;
    expect(page.observers).toEqual([]);
    expect(page.imported).toHaveLength(6);
  });

  it(`loads anyway after ${PAINT_WAIT_FALLBACK_MS} ms when no paint is reported`, async () => {
    const page = run(deferModuleBootstrap(ROUTER_SCRIPT, PRELOADS) ?? "");
    await vi.advanceTimersByTimeAsync(PAINT_WAIT_FALLBACK_MS - 1);
    expect(page.imported).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await page.done;
    expect(page.imported).toHaveLength(6);
  });

  it("runs no module early where the script does more than import routes (the dev preamble)", async () => {
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
