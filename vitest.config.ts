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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
