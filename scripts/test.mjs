#!/usr/bin/env node
// `npm test`: every suite, on a fresh machine, with nothing the README does not say.
//   1. unit + DB/API suites on PGlite (Vitest)
//   2. the DB/API suite again on PostgreSQL: TEST_DATABASE_URL, or a throwaway cluster on a
//      loopback port when the server binaries are installed
//   3. browser journeys in Chromium against the built app (e2e/)
// `npm test -- --only unit|pg|e2e` runs one stage.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium } from "./lib/chromium.mjs";
import { startThrowawayPostgres } from "./lib/postgres.mjs";
import { buildWeb, ROOT } from "./lib/stack.mjs";

const argv = process.argv.slice(2);
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : null;
const wants = (stage) => only === null || only === stage;

const reportDir = mkdtempSync(join(tmpdir(), "ambercare-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function vitest(label, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const report = join(reportDir, `${label.replace(/\W+/g, "-")}.json`);
  const result = spawnSync(
    "npx",
    ["vitest", "run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } },
  );
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
    if (json.numTotalTests === 0) failures.push(`${label}: no test ran`);
  } catch {
    failures.push(`${label}: no report (the run crashed)`);
  }
  if (result.status !== 0) failures.push(`${label}: exit ${result.status}`);
}

try {
  if (wants("unit")) vitest("unit and DB suites on PGlite", []);

  if (wants("pg")) {
    let cluster = null;
    let url = process.env.TEST_DATABASE_URL;
    if (!url) {
      cluster = await startThrowawayPostgres();
      url = cluster?.url;
    }
    if (url) {
      try {
        vitest("DB suite on PostgreSQL", ["--project", "db"], { TEST_DATABASE_URL: url });
      } finally {
        cluster?.stop();
      }
    } else if (process.env.CI) {
      failures.push(
        "PostgreSQL: no server binaries and no TEST_DATABASE_URL (apt-get install -y postgresql)",
      );
    } else {
      console.log(
        "\nPostgreSQL is not installed, so the DB suite ran on PGlite only. To add PostgreSQL:\n" +
          "  sudo apt-get install -y postgresql   (or set TEST_DATABASE_URL=postgres://…)",
      );
    }
  }

  if (wants("e2e")) {
    const chromium = ensureChromium();
    console.log(`\n=== building the web app for the browser journeys (Chromium: ${chromium}) ===`);
    await buildWeb();
    vitest("browser journeys in Chromium", ["--config", "e2e/vitest.config.ts"], { CHROME_PATH: chromium });
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}

console.log("");
for (const failure of failures) console.log(`FAILED: ${failure}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length === 0 && totals.failed === 0 ? 0 : 1);
