import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { inject } from "vitest";
import { createDb, type DbHandle, MEMORY_URL, PGLITE_OPTIONS, pgliteHandle } from "./client.ts";
import { MIGRATIONS_FOLDER } from "./migrate.ts";
import { databaseUrl, dropDatabase, prepare, type TestTemplates, withAdminClient } from "./test-templates.ts";

export type TestDb = DbHandle & {
  /** On PostgreSQL, the URL of this test file's database (for a command run on it); else undefined. */
  url?: string | undefined;
  /** Closes the handle and, on PostgreSQL, drops the database created for this test file. */
  cleanup(): Promise<void>;
};

declare module "vitest" {
  export interface ProvidedContext {
    /** What test-templates.ts built for this run (absent when it did not run). */
    testTemplates: TestTemplates | undefined;
  }
}

/**
 * A migrated database of its own for one test file (by default with every migration); with
 * `seeded`, also holding what `seedDemoData` writes.
 * - default: in-memory PGlite (nothing on disk, nothing to drop);
 * - with `TEST_DATABASE_URL` (a PostgreSQL server URL): a new database `ambercare_test_<random>` on
 *   that server, so test files running in parallel never see each other's rows.
 * Migrating and seeding happen once per run (test-templates.ts, Vitest's global setup): each test
 * database is a copy of the result, a PostgreSQL `create database … template …` or a PGlite data
 * directory loaded from a snapshot. A `migrationsFolder` of its own (a migration test) is applied
 * to an empty database, as before any template existed.
 */
export async function createTestDb(
  options: {
    migrationsFolder?: string;
    seeded?: boolean;
    /**
     * On PGlite, its files in `${dataDir}/pglite` as the API keeps them, for a test that hands the
     * database to another process (a command); in memory otherwise. Ignored on PostgreSQL.
     */
    dataDir?: string;
  } = {},
): Promise<TestDb> {
  const { migrationsFolder = MIGRATIONS_FOLDER, seeded = false, dataDir } = options;
  const templates = migrationsFolder === MIGRATIONS_FOLDER ? providedTemplates() : undefined;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const snapshot = templates?.pglite?.[seeded ? "seeded" : "migrated"];
    if (snapshot && dataDir !== undefined) {
      const handle = await createDb({ dataDir, restoreFrom: snapshotBlob(snapshot) });
      return { ...handle, cleanup: () => handle.close() };
    }
    if (snapshot) {
      const client = await PGlite.create({
        ...PGLITE_OPTIONS,
        ...TEST_PGLITE_OPTIONS,
        loadDataDir: snapshotBlob(snapshot),
      });
      const handle = pgliteHandle(client);
      return { ...handle, cleanup: () => handle.close() };
    }
    const handle = await createDb(dataDir === undefined ? { databaseUrl: MEMORY_URL } : { dataDir });
    await prepare(handle, migrationsFolder, seeded);
    return { ...handle, cleanup: () => handle.close() };
  }

  const name = `ambercare_test_${randomBytes(6).toString("hex")}`;
  const template = templates?.postgres?.[seeded ? "seeded" : "migrated"];
  await withAdminClient(serverUrl, (admin) =>
    admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  const handle = await createDb({ databaseUrl: databaseUrl(serverUrl, name), maxConnections: 4 });
  try {
    if (!template) await prepare(handle, migrationsFolder, seeded);
  } catch (error) {
    await handle.close();
    await dropDatabase(serverUrl, name);
    throw error;
  }
  return {
    ...handle,
    url: databaseUrl(serverUrl, name),
    async cleanup() {
      await handle.close();
      await dropDatabase(serverUrl, name);
    },
  };
}

/** Outside Vitest, or in a project without the global setup, every database is built from scratch. */
function providedTemplates(): TestTemplates | undefined {
  try {
    return inject("testTemplates");
  } catch {
    return undefined;
  }
}

/**
 * A test database's PostgreSQL settings: shared buffers of 32 MB, not the default 128 MB, which
 * PostgreSQL allocates and initialises at every start (a test database starts from a snapshot,
 * some 30 MB, so its pages still all fit). A test database started about a fifth sooner in CPU.
 */
const TEST_PGLITE_OPTIONS = {
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"],
} satisfies PGliteOptions;

/**
 * Read once per worker (the DB suites share a module graph per worker): a snapshot is some 13 MB.
 * PGlite reads the Blob into an ArrayBuffer at every load, in 64 kB chunks joined one by one; this
 * one hands it a copy of the bytes read from the file instead, in one piece.
 */
const snapshots = new Map<string, Blob>();

function snapshotBlob(path: string): Blob {
  let blob = snapshots.get(path);
  if (!blob) {
    const bytes = readFileSync(path);
    const snapshot = new Blob([bytes]);
    // PGlite unpacks the bytes into its own files; each load gets a copy all the same.
    snapshot.arrayBuffer = async () =>
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    blob = snapshot;
    snapshots.set(path, blob);
  }
  return blob;
}
