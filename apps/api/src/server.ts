import { EnvError } from "@ambercare/contracts/server-env";
import { createDb, type DbHandle } from "@ambercare/db/client";
import { type App, buildApp } from "#api/app.ts";
import { prepareDatabase } from "#api/database-setup.ts";
import { type ApiConfig, loadConfig } from "#api/platform/config.ts";

/**
 * Starts the API: config, database (migrated; seeded when empty; the service account made to match
 * the environment), app, listen, graceful stop.
 */

const SHUTDOWN_GRACE_MS = 10_000;

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
    onError: (error) => app?.log.warn({ err: error }, "a database connection failed"),
  });
  await prepareDatabase(db, config);
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

// Due jobs (renewals, expiries, sweeps; ADR 060) are looked for every JOBS_POLL_SECONDS from now on.
app?.jobs.start();

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  app?.log.info(`${signal} received, shutting down`);
  // If a connection refuses to drain, leave anyway rather than hang the deploy.
  setTimeout(() => {
    console.error("Shutdown took too long; exiting.");
    process.exit(1);
  }, SHUTDOWN_GRACE_MS).unref();
  try {
    // The job under way finishes first; no new one starts (closing the app would stop it as well).
    await app?.jobs.stop();
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
