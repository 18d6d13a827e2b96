#!/usr/bin/env node
// `npm run page-weight -w @ambercare/bench -- [--url http://…] [/path …]`
// What the HTML of each page weighs, in both languages, and what in it costs the most: its size,
// gzip (level 9, as one piece), the bytes on the wire as the server sends them (gzip accepted),
// and what each part adds to the gzip size (the page without that part, compressed again: a
// string that also shows in the page costs almost nothing). Parts: the route data React Router
// writes into the page (the strings among it), the script that loads the modules after the first
// paint (with the route manifest), other inline scripts, and the markup. Starts the product unless
// `--url` names a running one. Prints figures; it gates nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { buildWeb, freePort, startStack, webBuildExists } from "../scripts/lib/stack.mjs";

const { values: options, positionals } = parseArgs({
  options: { url: { type: "string" } },
  allowPositionals: true,
});
const DEFAULT_PAGES = ["/", "/find-a-doctor", "/membership", "/login", "/pricing-options"];
const pages = positionals.length > 0 ? positionals : DEFAULT_PAGES;

const gzip = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const ROUTE_DATA =
  /<script[^>]*>window\.__reactRouterContext\.streamController\.enqueue\(("[\s\S]*?")\);<\/script>/;
const BOOTSTRAP = /<script[^>]*type="module"[^>]*>[\s\S]*?<\/script>/g;
const INLINE = /<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g;

/**
 * The route data with the strings (the one JSON object text among its values, page-strings.ts)
 * emptied, written back as React Router wrote it; `same` is the data unchanged, written back the
 * same way (so both differ from the page by the same escaping).
 */
function routeDataWithoutStrings(html) {
  const literal = html.match(ROUTE_DATA)?.[1];
  if (!literal) return null;
  const values = JSON.parse(JSON.parse(literal));
  const index = values.findIndex((value) => typeof value === "string" && value.startsWith('{"'));
  if (index < 0) return null;
  const write = (list) => html.replace(literal, JSON.stringify(JSON.stringify(list)));
  return { same: write(values), without: write(values.with(index, "")) };
}

/** What the page's gzip size loses without each part. */
function costs(html) {
  const whole = gzip(html);
  const without = (pattern) => whole - gzip(html.replace(pattern, ""));
  const strings = routeDataWithoutStrings(html);
  const scriptless = html.replace(INLINE, "");
  return {
    whole,
    routeData: without(ROUTE_DATA),
    strings: strings ? gzip(strings.same) - gzip(strings.without) : 0,
    bootstrap: without(BOOTSTRAP),
    otherScripts: gzip(html.replace(ROUTE_DATA, "").replace(BOOTSTRAP, "")) - gzip(scriptless),
    markup: gzip(scriptless),
  };
}

async function wireBytes(url, language) {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { "accept-encoding": "gzip", "accept-language": language } },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve(bytes));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

let stack;
let dataDir;
if (!options.url) {
  if (!webBuildExists()) await buildWeb();
  dataDir = mkdtempSync(join(tmpdir(), "ambercare-page-weight-"));
  const [port, apiPort] = [await freePort(), await freePort()];
  stack = await startStack({
    quiet: true,
    env: {
      PORT: String(port),
      API_PORT: String(apiPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      MAIL_TO_FILES: "true",
    },
  });
}
const base = options.url ?? stack.webUrl;
const rows = [];
try {
  for (const path of pages) {
    for (const language of ["en", "bg"]) {
      const url = `${base}${path}`;
      const response = await fetch(url, { headers: { "accept-language": language } });
      const html = await response.text();
      const part = costs(html);
      rows.push({
        page: path,
        lang: language,
        status: response.status,
        HTML: kb(Buffer.byteLength(html)),
        gzip: kb(part.whole),
        "on the wire": kb(await wireBytes(url, language)),
        "route data": kb(part.routeData),
        "…its strings": kb(part.strings),
        "module loader": kb(part.bootstrap),
        "other scripts": kb(part.otherScripts),
        markup: kb(part.markup),
      });
    }
  }
} finally {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `page weight ${new Date().toISOString().slice(0, 10)} (gzip level 9; a part's figure is what the page's gzip loses without it)`,
);
console.table(rows);
