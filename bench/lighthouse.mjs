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

/** Sum of gzip sizes of the scripts and stylesheets the HTML asks for before any interaction. */
async function initialAssetSizes(url) {
  const html = await (await fetch(url)).text();
  const origin = new URL(url).origin;
  const js = new Set();
  const css = new Set();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) js.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) js.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g)) js.add(m[1]);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?["']([^"']+\.js)["']/g)) js.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)) css.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="stylesheet"/g)) css.add(m[1]);
  const size = async (paths) => {
    let total = 0;
    for (const path of paths) {
      const body = Buffer.from(await (await fetch(new URL(path, origin))).arrayBuffer());
      total += gzipSync(body, { level: 9 }).length;
    }
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
  env: { PORT: String(port), API_PORT: String(apiPort), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
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
