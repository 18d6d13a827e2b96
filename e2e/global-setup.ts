import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { freePort, ROOT, startStack, webBuildExists } from "../scripts/lib/stack.mjs";
import { activateClinician } from "./clinician-helpers.ts";
import { CLINICIAN_JOURNEYS, type ClinicianPool, type ReadyClinician } from "./clinician-pool.ts";
import { JOURNEY_API_ENV, journeyStackEnv } from "./journey-env.ts";
import type { JourneyStack } from "./journey-stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** One stack per worker: a test file runs against `stacks[VITEST_POOL_ID - 1]` (journey-stack.ts). */
    stacks: JourneyStack[];
    /**
     * The stacks' files as they were before any of them started (their database migrated, seeded,
     * its clinicians invited), for a journey that starts a stack of its own (ownDataDir); null for
     * E2E_BASE_URL.
     */
    preparedDataDir: string | null;
  }
}

/**
 * Runs e2e/invite-clinicians.ts on the stack's database before its API opens it: the care-team
 * command's invites need the database to themselves (PGlite is one process's at a time).
 */
async function inviteClinicians(env: Record<string, string>): Promise<ClinicianPool> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", join(ROOT, "e2e/invite-clinicians.ts")],
    // The environment the API gets from startStack, so the fixture opens the same database with
    // the same generated secrets and writes links to the same web server.
    {
      cwd: join(ROOT, "apps/api"),
      env: { TRUST_PROXY: "false", ...process.env, ...env, ...JOURNEY_API_ENV },
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ClinicianPool;
}

/**
 * The built app on `dataDir` (its database and clinicians prepared by inviteClinicians) on free
 * loopback ports, the clinicians made ready once it runs. Answers the stack and its stop().
 */
async function startJourneyStack(
  dataDir: string,
  ports: { port: number; apiPort: number },
  invited: ClinicianPool,
): Promise<{ stack: JourneyStack; stop(): Promise<void> }> {
  const stack = await startStack({
    quiet: !process.env.E2E_VERBOSE,
    env: journeyStackEnv(ports.port, ports.apiPort, dataDir),
    // The built web app runs as in production; the API runs outside production so that journeys can
    // move its clock (POST /dev/clock/advance: trials ending, renewals, the next second-factor step)
    // instead of waiting days.
    apiEnv: JOURNEY_API_ENV,
  });
  // Ready before any journey moves the API's clock (days, for a trial) past the invitation's link.
  const stackInfo = { baseUrl: stack.webUrl, apiUrl: stack.apiUrl, dataDir };
  try {
    const ready = await Promise.all(
      CLINICIAN_JOURNEYS.map(
        async (journey) => [journey, await activateClinician(stackInfo, invited[journey])] as const,
      ),
    );
    return {
      stack: { ...stackInfo, clinicians: Object.fromEntries(ready) as ClinicianPool<ReadyClinician> },
      stop: async () => {
        await stack.stop();
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/**
 * Starts one stack per worker (maxWorkers in e2e/vitest.config.ts), unless E2E_BASE_URL points at a
 * running one. The test files of one worker run one after another, so each stack, its database and
 * its API's test clock (which journeys move by days) serve one journey at a time, as a single
 * stack served them all when the files ran one by one. `npm test` builds the web app first.
 */
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) {
    // One worker then (e2e/vitest.config.ts): its journeys share that stack and its clock.
    const external: JourneyStack = {
      baseUrl: process.env.E2E_BASE_URL,
      apiUrl: process.env.E2E_API_URL ?? "http://127.0.0.1:4000",
      dataDir: process.env.E2E_DATA_DIR ?? "",
      clinicians: null,
    };
    project.provide("stacks", [external]);
    project.provide("preparedDataDir", null);
    return;
  }
  if (!webBuildExists())
    throw new Error("The web app is not built: run `npm run build` (npm test does it for you).");
  const dataDirs = Array.from({ length: project.config.maxWorkers }, () =>
    mkdtempSync(join(tmpdir(), "ambercare-e2e-")),
  );
  const preparedDataDir = mkdtempSync(join(tmpdir(), "ambercare-e2e-prepared-"));
  const removeDataDirs = () => {
    for (const dataDir of [...dataDirs, preparedDataDir]) rmSync(dataDir, { recursive: true, force: true });
  };
  const ports: Array<{ port: number; apiPort: number }> = [];
  for (const _ of dataDirs) ports.push({ port: await freePort(), apiPort: await freePort() });
  let invited: ClinicianPool;
  try {
    // One database prepared and its clinicians invited, then copied: every stack starts from the same
    // files (PGlite's, the invitations' e-mails, the generated secrets), as if each had done it.
    invited = await inviteClinicians(journeyStackEnv(ports[0]!.port, ports[0]!.apiPort, dataDirs[0]!));
    for (const dataDir of [...dataDirs.slice(1), preparedDataDir]) {
      // The lock is a socket of the process that had the files open, which has ended.
      cpSync(dataDirs[0]!, dataDir, { recursive: true, filter: (path) => basename(path) !== "pglite.lock" });
    }
  } catch (error) {
    removeDataDirs();
    throw error;
  }
  const started = await Promise.allSettled(
    dataDirs.map((dataDir, index) => startJourneyStack(dataDir, ports[index]!, invited)),
  );
  const stops = started.flatMap((result) => (result.status === "fulfilled" ? [result.value.stop] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.all(stops.map((stop) => stop()));
    removeDataDirs();
  };
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide("preparedDataDir", preparedDataDir);
  project.provide(
    "stacks",
    started.flatMap((result) => (result.status === "fulfilled" ? [result.value.stack] : [])),
  );
  return stopAll;
}
