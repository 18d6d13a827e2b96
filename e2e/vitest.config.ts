import { defineConfig } from "vitest/config";

/** Browser journeys in real Chromium against the built app, started once by global-setup.ts. */
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
    // One file at a time: two cores run one Chromium and two servers comfortably, not more.
    fileParallelism: false,
  },
});
