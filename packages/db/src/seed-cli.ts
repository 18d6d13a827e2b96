import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "./client.ts";
import { runMigrations } from "./migrate.ts";
import { seedDemoData } from "./seed.ts";

/**
 * `npm run seed -w @ambercare/db` (or `npm run seed` at the root): migrates and seeds the database
 * the API would use — PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR.
 * npm runs workspace scripts inside the workspace folder, so a relative DATA_DIR is resolved from
 * the repository root, as the API and `npm start` do.
 */
const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = resolve(repositoryRoot, process.env.DATA_DIR || "./.data");

const handle = await createDb({ databaseUrl, dataDir });
try {
  await runMigrations(handle);
  const result = await seedDemoData(handle);
  const target = handle.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`;
  console.log(
    `Seeded ${target}: ${result.specializations} specializations, ${result.conditions} conditions and ${result.demoPatients} demo patient written.`,
  );
} catch (error) {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
