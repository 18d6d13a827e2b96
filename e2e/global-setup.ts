import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, startStack, webBuildExists } from "../scripts/lib/stack.mjs";
import { journeyStackEnv } from "./journey-env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    apiUrl: string;
    dataDir: string;
  }
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
    return;
  }
  if (!webBuildExists())
    throw new Error("The web app is not built: run `npm run build` (npm test does it for you).");
  const dataDir = mkdtempSync(join(tmpdir(), "ambercare-e2e-"));
  const [port, apiPort] = [await freePort(), await freePort()];
  const stack = await startStack({
    quiet: !process.env.E2E_VERBOSE,
    env: journeyStackEnv(port, apiPort, dataDir),
    // The built web app runs as in production; the API runs outside production so that journeys can
    // move its clock (POST /dev/clock/advance: trials ending, renewals) instead of waiting days.
    apiEnv: { NODE_ENV: "test", ARGON2_PARAMS: "m=64,t=1,p=1" /* cheap hashing, refused in production */ },
  });
  project.provide("baseUrl", stack.webUrl);
  project.provide("apiUrl", stack.apiUrl);
  project.provide("dataDir", dataDir);
  return async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
