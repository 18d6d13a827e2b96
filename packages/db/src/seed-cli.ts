import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "./client.ts";
import { runMigrations } from "./migrate.ts";
import { demoPatientFromEnv, seedDemoData } from "./seed.ts";
import { seedDemoBooking } from "./seed-booking.ts";
import { DEFAULT_PROVIDER_SEED, seedProviders } from "./seed-providers.ts";

/**
 * `npm run seed -w @ambercare/db` (or `npm run seed` at the root): migrates and seeds the database
 * the API would use — PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR.
 * npm runs workspace scripts inside the workspace folder, so a relative DATA_DIR is resolved from
 * the repository root, as the API and `npm start` do.
 *
 * `npm run seed -- --providers 100000 [--seed 1]` also generates that many providers (the first
 * ones are the demo directory's), for benchmarks.
 */
const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = resolve(repositoryRoot, process.env.DATA_DIR || "./.data");

function numberOption(name: string, fallback: number | undefined): number | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`--${name} needs a whole number`);
    process.exit(2);
  }
  return value;
}
const providerCount = numberOption("providers", undefined);
const providerSeed = numberOption("seed", DEFAULT_PROVIDER_SEED) ?? DEFAULT_PROVIDER_SEED;

const handle = await createDb({ databaseUrl, dataDir });
try {
  await runMigrations(handle);
  const demoAccounts = demoPatientFromEnv(process.env);
  const result = await seedDemoData(handle, { demoPatient: demoAccounts });
  const schedules = demoAccounts ? await seedDemoBooking(handle) : 0;
  const target = handle.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`;
  console.log(
    `Seeded ${target}: ${result.specializations} specializations, ${result.conditions} conditions, ${result.providers} providers, ${result.demoPatients} demo patient and ${schedules} demo clinicians' hours written.`,
  );
  if (providerCount !== undefined) {
    const started = Date.now();
    const written = await seedProviders(handle, {
      count: providerCount,
      seed: providerSeed,
      onProgress: (done) => {
        if (done % 10_000 === 0 || done === providerCount)
          console.log(`  ${done} / ${providerCount} providers`);
      },
    });
    console.log(
      `Generated ${providerCount} providers (seed ${providerSeed}): ${written} written in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
  }
} catch (error) {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await handle.close();
}
