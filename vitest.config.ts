import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import routes from "./apps/web/app/routes.ts";
import { ambercareContent } from "./apps/web/vite-plugin-content.ts";
import { ambercareRouteStrings } from "./apps/web/vite-plugin-route-strings.ts";

/**
 * The database suites whose outcome PostgreSQL can change, run a second time on it by
 * `scripts/test.mjs` (project `db-postgres`). PGlite is PostgreSQL itself, compiled to WebAssembly,
 * so SQL answers the same on both; what differs is around it. A file belongs here when it tests
 * - the database layer: migrations, seeding, the client and its driver;
 * - a repository's SQL called directly, or answering a search on its own;
 * - concurrency: requests racing for one row, a unique key or a counter (PGlite has one connection
 *   and runs one query at a time; node-postgres has a pool, real locks and real races);
 * - live events between API instances (LISTEN/NOTIFY; PGlite signals in process);
 * - the database going away, and the health check naming the driver;
 * - every route at once (the API fuzz test), for the driver's row parsing behind each.
 * The other route tests send one request at a time through SQL that PGlite runs as PostgreSQL does.
 */
const POSTGRES_SUITES = [
  // The database layer.
  "packages/db/src/db.test.ts",
  "packages/db/src/migrations.test.ts",
  "packages/db/src/seed-providers.test.ts",
  "packages/db/src/scheduling-schema.test.ts",
  // Repositories called directly.
  "apps/api/src/modules/accounts/login-throttle.test.ts",
  "apps/api/src/modules/accounts/service-account.test.ts",
  "apps/api/src/modules/directory/provider-routes.test.ts",
  "apps/api/src/modules/membership/subscription-states.test.ts",
  "apps/api/src/modules/consultations/visit-type-matching.test.ts",
  // Concurrent requests: row locks, unique keys, counters.
  "apps/api/src/modules/accounts/main-auth-routes.test.ts",
  "apps/api/src/modules/care-console/care-console-routes.test.ts",
  "apps/api/src/modules/consultations/consultation-routes.test.ts",
  "apps/api/src/modules/visit-chat/visit-chat-routes.test.ts",
  "apps/api/src/modules/consultations/visit-service.test.ts",
  "apps/api/src/modules/directory/rating-routes.test.ts",
  "apps/api/src/modules/membership/membership-routes.test.ts",
  // Wrong confirmation codes sent at once each counted (attempts under a real pool).
  "apps/api/src/modules/notifications/text-message-routes.test.ts",
  // A chat message's notification decided in its transaction: one read the driver parses.
  "apps/api/src/modules/notifications/notification-routes.test.ts",
  // Holds racing for one slot: the exclusion constraint under a real pool.
  "apps/api/src/modules/scheduling/booking-routes.test.ts",
  // Durable jobs: runners on separate pools racing for due rows (FOR UPDATE SKIP LOCKED, leases).
  "apps/api/src/platform/jobs.test.ts",
  // A patient's repeated reads counted by two API processes, added to one row (ADR 072).
  "apps/api/src/platform/audit-log.test.ts",
  // The operations console's figures: percentiles, filtered counts and date series in SQL.
  "apps/api/src/modules/operations/reports-routes.test.ts",
  "apps/api/src/modules/operations/reports-time-zone.test.ts",
  "apps/api/src/modules/operations/board-routes.test.ts",
  "apps/api/src/modules/operations/clinic-day.test.ts",
  // Several refunds of one payment at once: the invoice's row lock keeps their sum within what was paid.
  "apps/api/src/modules/operations/operations-routes.test.ts",
  // Live events over LISTEN/NOTIFY.
  "apps/api/src/modules/live/live-fanout.test.ts",
  "apps/api/src/modules/live/live-routes.test.ts",
  // The directory editor's changes reach every instance's copy of the directory.
  "apps/api/src/modules/operations/directory-editor-fanout.test.ts",
  // A provider's photo uploaded through one instance, served by another (two pools, one database).
  "apps/api/src/modules/operations/provider-photo-store.test.ts",
  "apps/api/src/modules/video-call/video-call-routes.test.ts",
  // Outages and the driver: a server that ends connections, or shuts down under writers.
  "apps/api/src/platform/database-outage.test.ts",
  "packages/db/src/connection-errors.test.ts",
  "apps/api/src/platform/database-shutdown.test.ts",
  // Backups: pg_dump and pg_restore.
  "apps/api/src/cli/backup-restore.test.ts",
  "apps/api/src/app.test.ts",
  // Every route.
  "apps/api/src/api-fuzz.test.ts",
];

/**
 * The suites `npm run test:fast` leaves out (TEST_FAST=1), the inner loop's slowest by far: each
 * starts processes, builds databases from nothing, sends every route hundreds of requests or waits
 * on a real timer. `npm test` runs them, as every other suite.
 */
const SLOW_SUITES = [
  // Four processes of the backup and restore commands, each opening its own database.
  "apps/api/src/cli/backup-restore.test.ts",
  // Two processes of the care-team command, each loading the API's modules.
  "apps/api/src/cli/care-team-process.test.ts",
  // Every route: fuzzed, and with the database gone.
  "apps/api/src/api-fuzz.test.ts",
  "apps/api/src/platform/database-outage.test.ts",
  // 200 patients behind one address, some 1 500 requests.
  "apps/api/src/platform/rate-limit.test.ts",
  // Databases built from nothing: initdb, every migration, the whole demo catalogue.
  "packages/db/src/db.test.ts",
  "packages/db/src/migrations.test.ts",
  "packages/db/src/seed-providers.test.ts",
  // A keep-alive connection idle for 7 s of real time.
  "apps/web/app/lib/connections.server.test.ts",
];

// A renamed or moved file would silently leave the PostgreSQL pass, or come back into test:fast.
for (const [list, files] of Object.entries({ POSTGRES_SUITES, SLOW_SUITES })) {
  for (const file of files) {
    if (!existsSync(new URL(file, import.meta.url))) throw new Error(`${list}: no file ${file}`);
  }
}
/** What a project leaves out: Vitest's defaults, and the slow suites in `npm run test:fast`. */
const exclude = [...configDefaults.exclude, ...(process.env.TEST_FAST === "1" ? SLOW_SUITES : [])];

/** Where the unit suites are, and how their files are named. */
const UNIT_ROOTS = ["packages/contracts/src", "apps/web/app"];
const UNIT_FILE = /\.test\.tsx?$/;

/**
 * A unit file that changes state shared by the files of a worker (an environment variable, a
 * global, a spy) runs with fresh modules (project unit-fresh): test-fresh-modules.ts restores the
 * environment, globals and spies the worker's previous file left and drops the modules it loaded
 * (vi.resetModules), so the web's modules read this file's environment when it imports them. Its
 * dependencies (React, the router, Fastify, PGlite's WebAssembly) stay loaded in the worker: a
 * process per file, as before, cost these files about 40 % more CPU. A file that replaces a module
 * (vi.mock) still gets a process of its own (unit-isolated). The other unit files share one module
 * graph per worker: React, the router, zod and the contracts are loaded once per worker instead of
 * once per file, which cost about as much CPU as their tests.
 */
const CHANGES_SHARED_STATE =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|spyOn)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|globalThis\.\w+\s*=[^=]/;
const REPLACES_A_MODULE = /\bvi\.(mock|doMock)\(/;
const CHANGING_UNIT_SUITES = UNIT_ROOTS.flatMap((root) =>
  readdirSync(new URL(root, import.meta.url), { recursive: true, encoding: "utf8" })
    .filter((file) => UNIT_FILE.test(file) && !file.includes("node_modules"))
    .map((file) => `${root}/${file}`)
    .filter((file) => CHANGES_SHARED_STATE.test(readFileSync(new URL(file, import.meta.url), "utf8"))),
);
const ISOLATED_UNIT_SUITES = CHANGING_UNIT_SUITES.filter((file) =>
  REPLACES_A_MODULE.test(readFileSync(new URL(file, import.meta.url), "utf8")),
);
const FRESH_UNIT_SUITES = CHANGING_UNIT_SUITES.filter((file) => !ISOLATED_UNIT_SUITES.includes(file));

/** Migrates and seeds once per run (createTestDb copies the result). */
const TEST_TEMPLATES = "packages/db/src/test-templates.ts";

/**
 * A project of the unit suites: pure code beside its source, on the web's Vite plugins. `modules`:
 * shared by the worker's files, fresh for each file in a shared worker, or a process per file.
 */
const unitProject = (
  name: string,
  include: string[],
  modules: "shared" | "fresh" | "isolated",
  leaveOut: string[] = [],
) => ({
  // The web's content module (virtual:ambercare/content) and its routes' strings, as its Vite
  // build has them.
  plugins: [ambercareContent(), ambercareRouteStrings(routes)],
  test: {
    name,
    include,
    exclude: [...exclude, ...leaveOut],
    environment: "node" as const,
    isolate: modules === "isolated",
    ...(modules === "fresh" ? { setupFiles: ["apps/web/app/test-fresh-modules.ts"] } : {}),
    // These suites include the web's modules against a real API (createTestApp): their databases
    // are copies of the run's templates too, not migrated and seeded file by file.
    ...(modules === "shared" ? {} : { globalSetup: [TEST_TEMPLATES] }),
  },
});

/** A project of database suites: each test file gets a database of its own. */
const databaseProject = (name: string, include: string[]) => ({
  test: {
    name,
    include,
    exclude,
    environment: "node" as const,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Migrates and seeds once per run; each test file's database is a copy (createTestDb).
    globalSetup: [TEST_TEMPLATES],
    // A worker runs its files one after another in one module graph: each file still builds its
    // own app on its own database, but the API's modules (Fastify, Drizzle, the contracts, PGlite's
    // WebAssembly) are loaded once per worker instead of once per file, which cost about as much
    // CPU as the tests themselves. These suites mock no module and change no environment variable;
    // the API keeps no state at module level beyond caches of constant data.
    isolate: false,
  },
});

/**
 * One Vitest run for everything but the browser journeys (e2e/ has its own config).
 * - unit: pure code beside its source (unit-fresh: those of its files that change an environment
 *   variable, a global or a spy; unit-isolated: those that replace a module).
 * - db: anything that opens a database (packages/db, apps/api through `inject`), on PGlite.
 * - db-postgres, in place of db when TEST_DATABASE_URL names a PostgreSQL server: POSTGRES_SUITES
 *   on it (`scripts/test.mjs` runs it after the PGlite run).
 */
export default defineConfig({
  test: {
    // At least two files at once, also on two cores (Vitest would take one): the DB suites spend
    // much of their time waiting on the database, argon2's threads and sockets, and on a two-core
    // machine two workers finish the whole run about a quarter sooner than one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      unitProject(
        "unit",
        UNIT_ROOTS.map((root) => `${root}/**/*.test.{ts,tsx}`),
        "shared",
        CHANGING_UNIT_SUITES,
      ),
      unitProject("unit-fresh", FRESH_UNIT_SUITES, "fresh"),
      // A project with no file fails the run: this one exists once a file replaces a module.
      ...(ISOLATED_UNIT_SUITES.length > 0
        ? [unitProject("unit-isolated", ISOLATED_UNIT_SUITES, "isolated")]
        : []),
      process.env.TEST_DATABASE_URL
        ? databaseProject("db-postgres", POSTGRES_SUITES)
        : databaseProject("db", ["packages/db/src/**/*.test.ts", "apps/api/src/**/*.test.ts"]),
    ],
  },
});
