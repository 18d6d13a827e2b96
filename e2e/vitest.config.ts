import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Two journey files at a time, each worker on a stack of its own (global-setup.ts, journey-stack.ts):
 * a journey spends most of its time waiting on the browser, the servers and the network, so one file
 * at a time left a two-core machine more than half idle. A stack given by E2E_BASE_URL is one: its
 * journeys run one at a time, as they share its database and its API's clock.
 */
const WORKERS = process.env.E2E_BASE_URL ? 1 : Number(process.env.E2E_WORKERS ?? 2);

/**
 * Journeys that take longest while computing little (calls waiting for media and ICE, a stack of
 * their own), started first so that no worker is left with one of them at the end. Without the
 * durations of an earlier run, Vitest starts the largest files first, and this is a small one.
 * The operations journey starts first on the other worker: its operator follows the e-mailed
 * set-password link, which must still be valid, so it runs before any journey on its stack moves
 * the API's clock by days.
 */
const START_FIRST = ["video-visit.e2e.ts", "operations.e2e.ts"];

class StartFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (file: TestSpecification) => START_FIRST.some((name) => file.moduleId.endsWith(`/${name}`));
    return [...sorted.filter(first), ...sorted.filter((file) => !first(file))];
  }
}

/** Browser journeys in real Chromium against the built app, started by global-setup.ts. */
export default defineConfig({
  test: {
    name: "e2e",
    root: import.meta.dirname,
    include: ["**/*.e2e.ts"],
    globalSetup: ["./global-setup.ts"],
    // After every test: no unexpected console error in any page it opened (browser.ts).
    setupFiles: ["./console-check.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits one second by default: too short for a client navigation on a busy machine.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    maxWorkers: WORKERS,
    sequence: { sequencer: StartFirst },
  },
});
