import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, type DbHandle, MEMORY_URL } from "./client.ts";
import { MIGRATIONS_FOLDER, runMigrations } from "./migrate.ts";

export type TestDb = DbHandle & {
  /** On PostgreSQL, the URL of this test file's database (for a command run on it); else undefined. */
  url?: string | undefined;
  /** Closes the handle and, on PostgreSQL, drops the database created for this test file. */
  cleanup(): Promise<void>;
};

/**
 * A freshly migrated, empty database for one test file (by default with every migration).
 * - default: in-memory PGlite (nothing on disk, nothing to drop);
 * - with `TEST_DATABASE_URL` (a PostgreSQL server URL): a new database `ambercare_test_<random>` on
 *   that server, so test files running in parallel never see each other's rows.
 */
export async function createTestDb(options: { migrationsFolder?: string } = {}): Promise<TestDb> {
  const { migrationsFolder = MIGRATIONS_FOLDER } = options;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await createDb({ databaseUrl: MEMORY_URL });
    await runMigrations(handle, migrationsFolder);
    return { ...handle, cleanup: () => handle.close() };
  }

  const name = `ambercare_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 4 });
  try {
    await runMigrations(handle, migrationsFolder);
  } catch (error) {
    await handle.close();
    await dropDatabase(serverUrl, name);
    throw error;
  }
  return {
    ...handle,
    url: url.toString(),
    async cleanup() {
      await handle.close();
      await dropDatabase(serverUrl, name);
    },
  };
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  // FORCE (PostgreSQL 13+) ends sessions a failed test may have left open.
  await withAdminClient(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}

async function withAdminClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
