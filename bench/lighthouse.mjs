#!/usr/bin/env node
// Lighthouse (mobile) on the built app, plus the gzip size of each page's initial JS and CSS.
// Prints figures; it gates nothing. Usage: npm run lighthouse -w @ambercare/bench [-- /path …]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, ensureChromium } from "../scripts/lib/chromium.mjs";
import { buildWeb, freePort, startStack, webBuildExists } from "../scripts/lib/stack.mjs";

const DEFAULT_PAGES = ["/", "/find-a-doctor", "/membership", "/login"];
const pages = process.argv.slice(2).filter((a) => a.startsWith("/"));

/** Static `import … from "x"`, `import "x"` and `export … from "x"` in a (minified) ES module. */
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{},\s]+?\s*from\s*)?["'`]([^"'`]+\.js)["'`]/g;
/** Module URLs an inline module script loads: static imports and `import("…")` calls. */
const INLINE_IMPORT = /import\s*(?:\(\s*|(?:\*\s*as\s*[\w$]+\s*from\s*)?)["']([^"']+\.js)["']/g;

/**
 * Sum of gzip sizes of the scripts and stylesheets a page needs before any interaction: the module
 * scripts the HTML asks for (script src, modulepreload links, the imports of its inline module
 * scripts, whenever they run) and everything those import statically. Lazy `import()` chunks inside
 * the modules are not counted.
 */
async function initialAssetSizes(url) {
  const html = await (await fetch(url)).text();
  const origin = new URL(url).origin;
  const js = new Set();
  const css = new Set();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) js.add(new URL(m[1], origin).href);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g))
    js.add(new URL(m[1], origin).href);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g))
    js.add(new URL(m[1], origin).href);
  for (const [, script] of html.matchAll(/<script[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g))
    for (const m of script.matchAll(INLINE_IMPORT)) js.add(new URL(m[1], origin).href);
  for (const m of html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g))
    css.add(new URL(m[1], origin).href);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="stylesheet"/g))
    css.add(new URL(m[1], origin).href);
  const bodies = new Map();
  const load = async (href) => {
    if (!bodies.has(href)) bodies.set(href, Buffer.from(await (await fetch(href)).arrayBuffer()));
    return bodies.get(href);
  };
  // Follow the static imports: they load before the importing module runs.
  for (const href of js) {
    const source = (await load(href)).toString("utf8");
    for (const m of source.matchAll(STATIC_IMPORT)) js.add(new URL(m[1], href).href);
  }
  const size = async (hrefs) => {
    let total = 0;
    for (const href of hrefs) total += gzipSync(await load(href), { level: 9 }).length;
    return total;
  };
  return { jsGzip: await size(js), cssGzip: await size(css), jsFiles: js.size, cssFiles: css.size };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (!webBuildExists()) await buildWeb();
const dataDir = mkdtempSync(join(tmpdir(), "ambercare-bench-"));
const [port, apiPort] = [await freePort(), await freePort()];
const stack = await startStack({
  quiet: true,
  env: {
    PORT: String(port),
    API_PORT: String(apiPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    MAIL_TO_FILES: "true",
  },
});
const chrome = await chromeLauncher.launch({
  chromePath: ensureChromium(),
  chromeFlags: [...CHROMIUM_FLAGS],
});
const rows = [];
try {
  for (const path of pages.length > 0 ? pages : DEFAULT_PAGES) {
    const url = `${stack.webUrl}${path}`;
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      formFactor: "mobile",
      screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    });
    const lhr = result.lhr;
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const sizes = await initialAssetSizes(url);
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
      .map((a) => a.id);
    rows.push({
      page: path,
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
      LCP: lhr.audits["largest-contentful-paint"].displayValue,
      TBT: lhr.audits["total-blocking-time"].displayValue,
      CLS: lhr.audits["cumulative-layout-shift"].displayValue,
      "JS gzip": kb(sizes.jsGzip),
      "CSS gzip": kb(sizes.cssGzip),
    });
    if (failing.length > 0) console.log(`${path}: audits not passed: ${failing.join(", ")}`);
  }
} finally {
  await chrome.kill();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.table(rows);
