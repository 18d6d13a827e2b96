import { EnvError } from "@ambercare/contracts/server-env";
import { createDb, type DbHandle } from "@ambercare/db/client";
import { runMigrations } from "@ambercare/db/migrate";
import { isDatabaseEmpty, seedDemoData } from "@ambercare/db/seed";
import { type App, buildApp } from "#api/app.ts";
import { createPasswords } from "#api/modules/accounts/passwords.ts";
import { enableDemoClinicianSecondFactor } from "#api/modules/accounts/second-factor-service.ts";
import { ensureServiceAccount } from "#api/modules/accounts/service-account.ts";
import { systemClock } from "#api/platform/clock.ts";
import { type ApiConfig, loadConfig, seedsDemoPatient } from "#api/platform/config.ts";

/**
 * Starts the API: config, database (migrated; seeded when empty; the service account made to match
 * the environment), app, listen, graceful stop.
 */

const SHUTDOWN_GRACE_MS = 10_000;
/** How often due renewals, retries and endings are looked for (every instance may; each is locked). */
const RENEWAL_INTERVAL_MS = 60_000;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let config: ApiConfig;
try {
  config = loadConfig();
} catch (error) {
  // The message names the faulty variables; a stack trace would only bury it.
  if (error instanceof EnvError) fail(error.message);
  throw error;
}

let app: App | undefined;
let db: DbHandle | undefined;
try {
  db = await createDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onError: (error) => app?.log.error({ err: error }, "idle database connection failed"),
  });
  await runMigrations(db);
  // Only a fresh database is seeded: on a live one an operator may have edited the catalogue.
  if (await isDatabaseEmpty(db)) {
    const demoAccounts = seedsDemoPatient(config);
    await seedDemoData(db, { demoPatient: demoAccounts });
    if (demoAccounts)
      await enableDemoClinicianSecondFactor(db.db, config.SECOND_FACTOR_KEY, systemClock.now());
  }
  await ensureServiceAccount(
    db.db,
    systemClock,
    {
      email: config.SERVICE_ACCOUNT_EMAIL,
      password: config.SERVICE_ACCOUNT_PASSWORD,
    },
    createPasswords(config.ARGON2_PARAMS),
  );
  app = await buildApp(config, { db });
  const kind = db.kind;
  await app.listen({
    host: config.API_HOST,
    port: config.API_PORT,
    // Replaces Fastify's own "Server listening" line, so startup prints exactly one line.
    listenTextResolver: (address) =>
      `API listening on ${address} — main API ${address}/api/v1, care API ${address}/, docs ${address}/docs (database: ${kind})`,
  });
} catch (error) {
  await app?.close().catch(() => undefined);
  await db?.close().catch(() => undefined);
  fail(`API failed to start: ${error instanceof Error ? error.message : String(error)}`);
}

const renewals = setInterval(() => {
  app?.membership.runDue().catch((error: unknown) => app?.log.error({ err: error }, "renewal run failed"));
}, RENEWAL_INTERVAL_MS);
renewals.unref();

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(renewals);
  app?.log.info(`${signal} received, shutting down`);
  // If a connection refuses to drain, leave anyway rather than hang the deploy.
  setTimeout(() => {
    console.error("Shutdown took too long; exiting.");
    process.exit(1);
  }, SHUTDOWN_GRACE_MS).unref();
  try {
    await app?.close();
    await db?.close();
  } catch (error) {
    console.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, (received) => void shutdown(received));
}
