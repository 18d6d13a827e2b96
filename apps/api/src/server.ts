import { EnvError } from "@ambercare/contracts/server-env";
import { createDb, type DbHandle } from "@ambercare/db/client";
import { retryWhileUnavailable } from "@ambercare/db/unavailable";
import { type App, buildApp } from "#api/app.ts";
import { prepareDatabase } from "#api/database-setup.ts";
import { type ApiConfig, loadConfig } from "#api/platform/config.ts";

/**
 * Starts the API: config, database (migrated; seeded when empty; the service account made to match
 * the environment), app, listen, graceful stop.
 */

const SHUTDOWN_GRACE_MS = 10_000;
/**
 * How long a starting process waits for a database it cannot reach (down, restarting, still starting
 * up) before it gives up. A process started while the database restarts, such as the second of
 * several started while an operator restarts PostgreSQL, would otherwise stop, and the cluster
 * launcher takes a process that stops before it listens for a wrong setting and stops them all.
 */
const DATABASE_WAIT_MS = 60_000;

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

/**
 * The driver's own words under Drizzle's wrapper (whose message quotes the query and its
 * parameters), or the first address's when a host with several refused them all.
 */
function innermost(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause !== undefined) current = current.cause;
  if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
  return current instanceof Error ? current.message : String(current);
}

let app: App | undefined;
let db: DbHandle | undefined;
try {
  db = await createDb({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    onError: (error) => app?.log.warn({ err: error }, "a database connection failed"),
  });
  const handle = db;
  await retryWhileUnavailable(() => prepareDatabase(handle, config, (line) => console.log(line)), {
    waitMs: DATABASE_WAIT_MS,
    // Trying once a second costs a refused connection; it serves within a second of the database.
    maxDelayMs: 1_000,
    onWait: (error, delayMs) =>
      console.error(
        `The database cannot be reached yet (${innermost(error)}); trying again in ${delayMs} ms`,
      ),
  });
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

// The providers' photos an earlier version kept on this host's disk are copied into the database,
// where every host finds them (ADR 070); a photo asked for before is copied in when asked for.
app?.providerPhotos.importFromDisk().then(
  ({ imported, refused }) => {
    if (imported > 0) app?.log.info(`${imported} provider photo(s) copied from DATA_DIR into the database`);
    if (refused.length > 0)
      app?.log.warn(`provider-photos files left out (not a photo this API wrote): ${refused.join(", ")}`);
  },
  (error: unknown) => app?.log.warn({ err: error }, "copying the provider photos into the database failed"),
);

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
  // Closed: leave now. Under the cluster launcher the channel to its primary would otherwise keep
  // the process alive until the grace period above ended it as too slow.
  process.exit();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, (received) => void shutdown(received));
}
