#!/usr/bin/env node
// Lighthouse (mobile) on the built app, plus the gzip size of each page's initial JS and CSS.
// Prints figures; it gates nothing.
// Usage: npm run lighthouse -w @ambercare/bench -- [/path …] [--runs 3] [--vs URL [--vs-pages /a,/b]]
// Each page is measured `--runs` times (3), each run in a fresh Chromium, and the median and range
// of each figure are printed. `--vs URL` measures a second site in the same run, page after page
// (its pages by the same paths, or those `--vs-pages` lists, matched to ours in order), so both
// meet the same machine load.
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, ensureChromium } from "../scripts/lib/chromium.mjs";
import { buildWeb, freePort, startStack, webBuildExists } from "../scripts/lib/stack.mjs";

const DEFAULT_PAGES = ["/", "/find-a-doctor", "/membership", "/login", "/pricing-options"];
const { values: options, positionals } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    vs: { type: "string" },
    "vs-pages": { type: "string" },
  },
  allowPositionals: true,
});
const RUNS = Number(options.runs);
if (!(Number.isInteger(RUNS) && RUNS >= 1))
  throw new Error(`--runs takes a whole number ≥ 1, not "${options.runs}"`);
const pages = positionals.length > 0 ? positionals : DEFAULT_PAGES;
const vsPages = options["vs-pages"] ? options["vs-pages"].split(",").map((page) => page.trim()) : pages;
if (options.vs && vsPages.length !== pages.length && options["vs-pages"]) {
  console.log(
    `--vs-pages names ${vsPages.length} pages for ${pages.length} of ours: matched in order, the rest alone`,
  );
}

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

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** "median (min–max)" of one figure over the runs. */
const spread = (values, format) =>
  values.length === 1
    ? format(values[0])
    : `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const millis = (ms) => `${Math.round(ms)} ms`;
const whole = (n) => String(Math.round(n));

/** One Lighthouse run of `url` in a Chromium of its own, closed afterwards. */
async function lighthouseRun(url) {
  const chrome = await chromeLauncher.launch({
    chromePath: ensureChromium(),
    chromeFlags: [...CHROMIUM_FLAGS],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      formFactor: "mobile",
      screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false },
    });
    const lhr = result.lhr;
    // A run that could not measure (no paint seen, a page error, a trace Chromium cut short) has
    // no figures; say why rather than printing a silent NaN.
    const problems = [
      ...(lhr.runtimeError ? [`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`] : []),
      ...Object.values(lhr.audits)
        .filter((a) => a.errorMessage)
        .map((a) => `${a.id}: ${a.errorMessage}`),
    ];
    if (problems.length > 0) {
      console.error(`lighthouse: ${url}: ${problems.slice(0, 3).join("; ")}`);
    }
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const measured =
      !lhr.runtimeError &&
      lhr.categories.performance?.score != null &&
      ["largest-contentful-paint", "total-blocking-time"].every((id) => Number.isFinite(numeric(id)));
    return {
      measured,
      performance: score("performance"),
      accessibility: score("accessibility"),
      "best-practices": score("best-practices"),
      seo: score("seo"),
      lcp: numeric("largest-contentful-paint"),
      tbt: numeric("total-blocking-time"),
      cls: numeric("cumulative-layout-shift"),
      mainThread: numeric("mainthread-work-breakdown"),
      bootup: numeric("bootup-time"),
      longTasks: lhr.audits["long-tasks"]?.details?.items?.length ?? Number.NaN,
      failing: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
        .map((a) => a.id),
    };
  } finally {
    await chrome.kill();
  }
}

/** Runs on top of `RUNS` that replace runs without figures, before a page is summed up with fewer. */
const SPARE_RUNS = 2;

/**
 * `RUNS` measured runs of one page, summed up as one row. A run without figures (Lighthouse's own
 * advice for a trace it could not read, NO_NAVSTART and the like, is to run it again) is repeated,
 * at most `SPARE_RUNS` times, and left out of the medians.
 */
async function measurePage(site, url, path) {
  const runs = [];
  let unmeasured = 0;
  while (runs.length < RUNS && runs.length + unmeasured < RUNS + SPARE_RUNS) {
    const run = await lighthouseRun(url).catch((error) => {
      console.error(`lighthouse: ${url}: ${error.message}`);
      return { measured: false };
    });
    if (run.measured) runs.push(run);
    else unmeasured += 1;
  }
  if (unmeasured > 0)
    console.log(`${site} ${path}: ${unmeasured} run(s) without figures left out, ${runs.length} measured`);
  if (runs.length === 0) return { site, page: path, performance: "no run measured" };
  const of = (key) => runs.map((run) => run[key]);
  const failing = [...new Set(runs.flatMap((run) => run.failing))];
  if (failing.length > 0) console.log(`${site} ${path}: audits not passed: ${failing.join(", ")}`);
  const sizes = await initialAssetSizes(url).catch(() => null);
  return {
    site,
    page: path,
    performance: spread(of("performance"), whole),
    accessibility: spread(of("accessibility"), whole),
    "best-practices": spread(of("best-practices"), whole),
    seo: spread(of("seo"), whole),
    LCP: spread(of("lcp"), seconds),
    TBT: spread(of("tbt"), millis),
    CLS: spread(of("cls"), (n) => n.toFixed(3)),
    "main thread": spread(of("mainThread"), seconds),
    "script start-up": spread(of("bootup"), seconds),
    "long tasks": spread(of("longTasks"), whole),
    "JS gzip": sizes ? kb(sizes.jsGzip) : "–",
    "CSS gzip": sizes ? kb(sizes.cssGzip) : "–",
  };
}

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
const loadBefore = loadavg()[0];
const rows = [];
try {
  for (const [index, path] of pages.entries()) {
    rows.push(await measurePage("Ambercare", `${stack.webUrl}${path}`, path));
    const theirs = options.vs ? vsPages[index] : undefined;
    if (theirs !== undefined)
      rows.push(await measurePage(new URL(options.vs).host, new URL(theirs, options.vs).href, theirs));
  }
  if (options.vs) {
    for (const theirs of vsPages.slice(pages.length)) {
      rows.push(await measurePage(new URL(options.vs).host, new URL(theirs, options.vs).href, theirs));
    }
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `lighthouse ${new Date().toISOString()}: Lighthouse mobile, ${RUNS} run(s) per page, each in a fresh Chromium; median (min–max); load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
);
console.table(rows);
