import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { freePort, ROOT, startStack, webBuildExists } from "../scripts/lib/stack.mjs";
import { activateClinician } from "./clinician-helpers.ts";
import { CLINICIAN_JOURNEYS, type ClinicianPool, type ReadyClinician } from "./clinician-pool.ts";
import { journeyStackEnv } from "./journey-env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiUrl: string;
    dataDir: string;
    /** The journeys' own clinicians (clinician-pool.ts), invited before the API started. */
    clinicians: ClinicianPool<ReadyClinician> | null;
  }
}

/** The API outside production, for its test clock (see below), hashing cheaply. */
const API_ENV = {
  NODE_ENV: "test",
  // Cheap password hashing (production refuses it): journeys sign up and log in many times.
  ARGON2_PARAMS: "m=64,t=1,p=1",
} as const;

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
    { cwd: join(ROOT, "apps/api"), env: { TRUST_PROXY: "false", ...process.env, ...env, ...API_ENV } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ClinicianPool;
}

/**
 * Starts the built app on free loopback ports with a fresh PGlite data directory, unless
 * E2E_BASE_URL points at a running one. `npm test` builds the web app first.
 */
export default async function setup(project: TestProject) {
  if (process.env.E2E_BASE_URL) {
    project.provide("baseUrl", process.env.E2E_BASE_URL);
    project.provide("apiUrl", process.env.E2E_API_URL ?? "http://127.0.0.1:4000");
    project.provide("dataDir", process.env.E2E_DATA_DIR ?? "");
    project.provide("clinicians", null);
    return;
  }
  if (!webBuildExists())
    throw new Error("The web app is not built: run `npm run build` (npm test does it for you).");
  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-e2e-"));
  const [port, apiPort] = [await freePort(), await freePort()];
  const env = journeyStackEnv(port, apiPort, dataDir);
  const clinicians = await inviteClinicians(env).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stack = await startStack({
    quiet: !process.env.E2E_VERBOSE,
    env,
    // The built web app runs as in production; the API runs outside production so that journeys can
    // move its clock (POST /dev/clock/advance: trials ending, renewals, the next second-factor step)
    // instead of waiting days.
    apiEnv: API_ENV,
  });
  project.provide("baseUrl", stack.webUrl);
  project.provide("apiUrl", stack.apiUrl);
  project.provide("dataDir", dataDir);
  // Ready before any journey moves the API's clock (days, for a trial) past the invitation's link.
  const stackInfo = { baseUrl: stack.webUrl, apiUrl: stack.apiUrl, dataDir };
  try {
    const ready = await Promise.all(
      CLINICIAN_JOURNEYS.map(
        async (journey) => [journey, await activateClinician(stackInfo, clinicians[journey])] as const,
      ),
    );
    project.provide("clinicians", Object.fromEntries(ready) as ClinicianPool<ReadyClinician>);
  } catch (error) {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
