#!/usr/bin/env node
// `npm test`: every suite, on a fresh machine, with nothing the README does not say.
//   1. unit + DB/API suites on PGlite (Vitest), with the TURN test against a local coturn
//   2. the DB/API suites PostgreSQL can change (project db-postgres, vitest.config.ts) on
//      PostgreSQL: TEST_DATABASE_URL, or a throwaway cluster on a loopback port when the server
//      binaries are installed; in a whole run, beside stage 3
//   3. browser journeys in Chromium against the built app (e2e/)
// `npm test -- --only unit|pg|e2e` runs one stage. A run that could not test everything it was asked
// to (no PostgreSQL, no coturn) fails, unless `--partial` accepts that; its summary then says so.
// `npm run test:fast` is `--only unit --partial`.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium } from "./lib/chromium.mjs";
import { startThrowawayCoturn } from "./lib/coturn.mjs";
import { startThrowawayPostgres } from "./lib/postgres.mjs";
import { buildWeb, ROOT } from "./lib/stack.mjs";

const argv = process.argv.slice(2);
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : null;
const partial = argv.includes("--partial");
const wants = (stage) => only === null || only === stage;

const reportDir = mkdtempSync(join(tmpdir(), "ambercare-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** What could not be tested: a failure, or with --partial a note in the summary. */
const missing = [];

const vitestArgs = (args, report) => [
  "vitest",
  "run",
  ...args,
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
];
const reportOf = (label) => join(reportDir, `${label.replace(/\W+/g, "-")}.json`);

function vitest(label, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const started = Date.now();
  const report = reportOf(label);
  const result = spawnSync("npx", vitestArgs(args, report), {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  count(label, report, result.status, started);
}

/**
 * The same, in the background while the next stage runs: its output goes to a file (the next stage
 * blocks this process's event loop, so a pipe would fill up and stall it) and is printed when it is
 * awaited.
 */
function vitestInBackground(label, args, env = {}) {
  console.log(`\n=== ${label}: started beside the next stage, its output follows it ===`);
  const started = Date.now();
  const report = reportOf(label);
  const logFile = join(reportDir, `${label.replace(/\W+/g, "-")}.log`);
  const fd = openSync(logFile, "w");
  const child = spawn("npx", vitestArgs(args, report), {
    cwd: ROOT,
    stdio: ["ignore", fd, fd],
    env: { ...process.env, ...env },
  });
  closeSync(fd);
  const exited = new Promise((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  return async () => {
    const status = await exited;
    console.log(`\n=== ${label} ===`);
    process.stdout.write(readFileSync(logFile, "utf8"));
    count(label, report, status, started);
  };
}

function count(label, report, status, started) {
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += json.numPendingTests + json.numTodoTests;
    if (json.numTotalTests === 0) failures.push(`${label}: no test ran`);
  } catch {
    failures.push(`${label}: no report (the run crashed)`);
  }
  if (status !== 0) failures.push(`${label}: exit ${status}`);
  console.log(`=== ${label}: ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
}

try {
  if (wants("unit")) {
    // TURN_TEST_URL given (.ci/run starts a coturn), or a coturn of our own when it is installed.
    let coturn = null;
    if (!process.env.TURN_TEST_URL || !process.env.TURN_TEST_SECRET) coturn = await startThrowawayCoturn();
    if (!coturn && (!process.env.TURN_TEST_URL || !process.env.TURN_TEST_SECRET)) {
      missing.push(
        "coturn: not installed and TURN_TEST_URL/TURN_TEST_SECRET unset, so the TURN test was skipped (apt-get install -y coturn)",
      );
    }
    try {
      // On PGlite whatever the environment says (empty is unset): the PostgreSQL pass is stage 2.
      vitest("unit and DB suites on PGlite", [], { TEST_DATABASE_URL: "", ...coturn?.env });
    } finally {
      coturn?.stop();
    }
  }

  // The PostgreSQL pass waits on its database more than it computes: in a whole run it goes on
  // beside the build and the first journeys instead of before them.
  let postgresPass = async () => undefined;
  if (wants("pg")) {
    let cluster = null;
    let url = process.env.TEST_DATABASE_URL;
    if (!url) {
      cluster = await startThrowawayPostgres();
      url = cluster?.url;
    }
    if (url) {
      const label = "DB suites PostgreSQL can change, on PostgreSQL";
      const args = ["--project", "db-postgres"];
      const env = { TEST_DATABASE_URL: url };
      if (wants("e2e")) {
        const finish = vitestInBackground(label, args, env);
        postgresPass = () => finish().finally(() => cluster?.stop());
      } else {
        try {
          vitest(label, args, env);
        } finally {
          cluster?.stop();
        }
      }
    } else {
      missing.push(
        "PostgreSQL: no server binaries and no TEST_DATABASE_URL, so the PostgreSQL pass did not run (apt-get install -y postgresql, or set TEST_DATABASE_URL=postgres://…)",
      );
    }
  }

  if (wants("e2e")) {
    try {
      const chromium = ensureChromium();
      console.log(`\n=== building the web app for the browser journeys (Chromium: ${chromium}) ===`);
      await buildWeb();
      vitest("browser journeys in Chromium", ["--config", "e2e/vitest.config.ts"], { CHROME_PATH: chromium });
    } finally {
      await postgresPass();
    }
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}

console.log("");
if (partial) for (const gap of missing) console.log(`NOT TESTED: ${gap}`);
else for (const gap of missing) failures.push(`${gap}; \`npm test -- --partial\` accepts a partial run`);
for (const failure of failures) console.log(`FAILED: ${failure}`);
const counts = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
console.log(partial ? `${counts} (partial run)` : counts);
process.exit(failures.length === 0 && totals.failed === 0 ? 0 : 1);
