#!/usr/bin/env node
// `npm test`: every suite, on a fresh machine, with nothing the README does not say.
//   1. unit + DB/API suites on PGlite (Vitest), with the TURN test against a local coturn
//   2. the DB/API suites PostgreSQL can change (project db-postgres, vitest.config.ts) on
//      PostgreSQL: TEST_DATABASE_URL, or a throwaway cluster on a loopback port when the server
//      binaries are installed
//   3. browser journeys in Chromium against the built app (e2e/)
// The web build for stage 3 runs beside stage 1 (startBuild). Stages 2 and 3 run side by side when
// both are asked for: a journey spends about half its time waiting on the browser, the servers and
// the network, and the PostgreSQL pass fills that time (its output is printed whole when it ends,
// not interleaved with the journeys').
// `npm test -- --only unit|pg|e2e` runs one stage. A run that could not test everything it was asked
// to (no PostgreSQL, no coturn) fails, unless `--partial` accepts that; its summary then says so.
// `--fast` leaves the slowest suites out of stage 1 (SLOW_SUITES in vitest.config.ts).
// `npm run test:fast` is `--only unit --partial --fast`. TEST_REPORT_DIR=<dir> keeps each stage's Vitest JSON
// report (per-file durations) there.
import { spawn } from "node:child_process";
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureChromium, findHeadlessShell } from "./lib/chromium.mjs";
import { startThrowawayCoturn } from "./lib/coturn.mjs";
import { startThrowawayPostgres } from "./lib/postgres.mjs";
import { buildWeb, ROOT } from "./lib/stack.mjs";

const argv = process.argv.slice(2);
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : null;
const partial = argv.includes("--partial");
const fast = argv.includes("--fast");
const wants = (stage) => only === null || only === stage;

const reportDir = process.env.TEST_REPORT_DIR ?? mkdtempSync(join(tmpdir(), "ambercare-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
/** What could not be tested: a failure, or with --partial a note in the summary. */
const missing = [];

/**
 * Runs one Vitest stage and adds its report to the totals. With `log`, its output goes to that file
 * and is printed whole when it ends (a stage run beside another); else straight to this terminal.
 */
async function vitest(label, args, env = {}, log = null) {
  const say = (line) => (log ? log.write(`${line}\n`) : console.log(line));
  say(`\n=== ${label} ===`);
  const started = Date.now();
  const report = join(reportDir, `${label.replace(/\W+/g, "-")}.json`);
  const child = spawn(
    "npx",
    ["vitest", "run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    { cwd: ROOT, stdio: log ? ["ignore", "pipe", "pipe"] : "inherit", env: { ...process.env, ...env } },
  );
  if (log) {
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
  }
  const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
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
  say(`=== ${label}: ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
}

/** A stage's output kept in a file while it runs beside another, printed when both have ended. */
function stageLog(name) {
  const path = join(reportDir, `stage-${name}.log`);
  const stream = createWriteStream(path);
  return {
    stream,
    async print() {
      await new Promise((resolve) => stream.end(resolve));
      process.stdout.write(readFileSync(path, "utf8"));
    },
  };
}

/** The PostgreSQL pass (stage 2), its output to `log` when given. */
async function postgresStage(log) {
  let cluster = null;
  let url = process.env.TEST_DATABASE_URL;
  if (!url) {
    cluster = await startThrowawayPostgres();
    url = cluster?.url;
  }
  if (!url) {
    missing.push(
      "PostgreSQL: no server binaries and no TEST_DATABASE_URL, so the PostgreSQL pass did not run (apt-get install -y postgresql, or set TEST_DATABASE_URL=postgres://…)",
    );
    return;
  }
  try {
    await vitest(
      "DB suites PostgreSQL can change, on PostgreSQL",
      ["--project", "db-postgres"],
      {
        TEST_DATABASE_URL: url,
      },
      log,
    );
  } finally {
    cluster?.stop();
  }
}

/**
 * The web build the journeys run against, started beside stage 1: Vitest leaves a core idle while it
 * starts and while its slowest files wait on timers and processes, and the build needs neither. Its
 * output is kept in a file and printed when the journeys begin; its failure is said then.
 */
function startBuild() {
  const path = join(reportDir, "build.log");
  const fd = openSync(path, "w");
  const done = buildWeb({ stdio: ["ignore", fd, fd] }).finally(() => closeSync(fd));
  done.catch(() => undefined);
  return {
    done,
    async printLog() {
      await done.catch(() => undefined);
      process.stdout.write(readFileSync(path, "utf8"));
    },
  };
}

try {
  const build = wants("e2e") ? startBuild() : null;
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
      await vitest(
        fast ? "unit and DB suites on PGlite, but the slowest" : "unit and DB suites on PGlite",
        [],
        {
          TEST_DATABASE_URL: "",
          TEST_FAST: fast ? "1" : "",
          ...coturn?.env,
        },
      );
    } finally {
      coturn?.stop();
    }
  }

  // Stage 2 beside stage 3 when both run (see above); its output follows the journeys'.
  const pgLog = wants("pg") && wants("e2e") ? stageLog("postgres") : null;
  const pg = wants("pg") ? postgresStage(pgLog?.stream ?? null) : Promise.resolve();
  // Its failure is counted by the stage itself; the journeys go on meanwhile.
  pg.catch((error) => failures.push(error instanceof Error ? error.message : String(error)));

  try {
    if (build) {
      const chromium = ensureChromium();
      // The journeys drive the headless shell where it is installed (ADR 073), full Chromium else.
      const shell = findHeadlessShell();
      const browsers = shell ? `${shell}, and ${chromium} for notifications` : chromium;
      console.log(`\n=== the web build for the browser journeys (Chromium: ${browsers}) ===`);
      if (!shell) {
        console.log(
          "Chromium's headless shell is not installed: the journeys use full Chromium, which costs them about 2.6 times the CPU per page (ADR 073; apt-get install -y chromium-headless-shell).",
        );
      }
      await build.printLog();
      await build.done;
      await vitest("browser journeys in Chromium", ["--config", "e2e/vitest.config.ts"], {
        CHROME_PATH: chromium,
      });
    }
  } finally {
    await pg.catch(() => undefined);
    await pgLog?.print();
  }
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  if (!process.env.TEST_REPORT_DIR) rmSync(reportDir, { recursive: true, force: true });
}

console.log("");
if (fast) console.log("NOT TESTED: the slowest suites (SLOW_SUITES in vitest.config.ts); npm test runs them");
if (partial) for (const gap of missing) console.log(`NOT TESTED: ${gap}`);
else for (const gap of missing) failures.push(`${gap}; \`npm test -- --partial\` accepts a partial run`);
for (const failure of failures) console.log(`FAILED: ${failure}`);
const counts = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
console.log(partial ? `${counts} (partial run)` : counts);
process.exit(failures.length === 0 && totals.failed === 0 ? 0 : 1);
