import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import type { ClinicianPool, ReadyClinician } from "./clinician-pool.ts";
import type { Stack } from "./session-fixtures.ts";

/** A stack the journeys run against: the built web app and its API, and the API's DATA_DIR. */
export type JourneyStack = Stack & {
  /** Its journeys' clinicians (clinician-pool.ts), invited before its API started; none for E2E_BASE_URL. */
  clinicians: ClinicianPool<ReadyClinician> | null;
};

/**
 * This test file's stack: global-setup.ts starts one per worker, and a worker's files run one after
 * another, so no other journey uses this stack (or moves its API's clock) while this file runs.
 * VITEST_POOL_ID is the worker's number, 1 to maxWorkers.
 */
export function journeyStack(): JourneyStack {
  const stacks = inject("stacks");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  const stack = stacks[worker - 1];
  if (!stack) throw new Error(`no journey stack for worker ${worker} of ${stacks.length}`);
  return stack;
}

/**
 * A data directory for a stack a journey starts for itself (its own limits or TURN server): a copy
 * of the files every journey stack started from (global-setup.ts), so its API opens a database
 * already migrated and seeded instead of building one (about 5 s and 7 s of CPU fewer per stack);
 * empty against E2E_BASE_URL, where the API builds it as on a first start.
 */
export function ownDataDir(prefix: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const prepared = inject("preparedDataDir");
  if (prepared) cpSync(prepared, dataDir, { recursive: true });
  return dataDir;
}
