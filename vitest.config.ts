import { defineConfig } from "vitest/config";

/**
 * One Vitest run for everything but the browser journeys (e2e/ has its own config).
 * - unit: pure code beside its source.
 * - db: anything that opens a database (packages/db, apps/api through `inject`). It runs on PGlite,
 *   and `scripts/test.mjs` runs it a second time on PostgreSQL with TEST_DATABASE_URL set.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/contracts/src/**/*.test.ts", "apps/web/app/**/*.test.{ts,tsx}"],
          environment: "node",
        },
      },
      {
        test: {
          name: "db",
          include: ["packages/db/src/**/*.test.ts", "apps/api/src/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
