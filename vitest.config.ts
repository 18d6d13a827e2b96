import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import routes from "./apps/web/app/routes.ts";
import { ambercareContent } from "./apps/web/vite-plugin-content.ts";
import { ambercareRouteStrings } from "./apps/web/vite-plugin-route-strings.ts";

/**
 * One Vitest run for everything but the browser journeys (e2e/ has its own config).
 * - unit: pure code beside its source.
 * - db: anything that opens a database (packages/db, apps/api through `inject`). It runs on PGlite,
 *   and `scripts/test.mjs` runs it a second time on PostgreSQL with TEST_DATABASE_URL set.
 */
export default defineConfig({
  test: {
    // At least two files at once, also on two cores (Vitest would take one): the DB suites spend
    // much of their time waiting on the database, argon2's threads and sockets, and on a two-core
    // machine two workers finish the whole run about a quarter sooner than one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        // The web's content module (virtual:ambercare/content) and its routes' strings, as its Vite
        // build has them.
        plugins: [ambercareContent(), ambercareRouteStrings(routes)],
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
          // Migrates and seeds once per run; each test file's database is a copy (createTestDb).
          globalSetup: ["packages/db/src/test-templates.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
