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
 * their own), started first so that no worker is left with one of them at the end.
 * The operations journey starts first on the other worker: its operator follows the e-mailed
 * set-password link, which must still be valid, so it runs before any journey on its stack moves
 * the API's clock by days.
 */
const START_FIRST = ["video-visit.e2e.ts", "operations.e2e.ts"];

/**
 * The other journeys, longest first (their durations on two workers in a full run), so that each
 * worker takes the next one when it is free and both end within a short journey of each other.
 * Vitest alone starts the largest files first when it has no durations of an earlier run (a fresh
 * checkout, as in CI), and some small files are long journeys: a worker then ran half a minute
 * after the other had finished. A journey missing here runs after START_FIRST, largest first.
 */
const LONGEST_FIRST = [
  "content.e2e.ts",
  "communications.e2e.ts",
  "membership.e2e.ts",
  "consultations.e2e.ts",
  "platform.e2e.ts",
  "directory.e2e.ts",
  "accounts.e2e.ts",
  "routes.e2e.ts",
  "accessibility.e2e.ts",
  "booking-video.e2e.ts",
  "rate-limited-visit.e2e.ts",
  "care-visit.e2e.ts",
  "page-strings.e2e.ts",
  "booking.e2e.ts",
  "video-device.e2e.ts",
  "time-zone.e2e.ts",
  "notifications.e2e.ts",
  "console-hours.e2e.ts",
  "care-team.e2e.ts",
  "visit-chat.e2e.ts",
  "cross-site.e2e.ts",
];

class StartFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const name = file.moduleId.split("/").at(-1) ?? "";
      if (START_FIRST.includes(name)) return START_FIRST.indexOf(name) - START_FIRST.length - 1;
      return LONGEST_FIRST.indexOf(name);
    };
    // A stable sort: the journeys missing from both lists (rank -1) keep Vitest's order among them.
    return sorted.sort((a, b) => rank(a) - rank(b));
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
