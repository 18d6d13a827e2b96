import { createHash, randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDb, type DbHandle, MEMORY_URL } from "./client.ts";
import { MIGRATIONS_FOLDER, runMigrations } from "./migrate.ts";
import { compactSnapshot } from "./pglite-snapshot.ts";
import { seedDemoData } from "./seed.ts";

/** Where each kind of test database is copied from; see createTestDb. */
export type TestTemplates = {
  /** Tar files of PGlite data directories (dumpDataDir), when the run is on PGlite. */
  pglite?: { migrated: string; seeded: string };
  /** Database names on TEST_DATABASE_URL's server, when the run is on PostgreSQL. */
  postgres?: { migrated: string; seeded: string };
};

/**
 * Vitest global setup of the database suites, and of the web's isolated suites that start a real
 * API: migrates (and seeds) once per run what each test file would otherwise migrate for itself (a
 * fresh PGlite spends about 2 s in initdb and migrations; a copy of a snapshot loads in well under
 * one). Each test file still gets a database of its own. The projects of one run share one set of
 * templates (kept on globalThis: each project loads this module anew), removed after the last.
 */
export default async function setup(project: TestProject) {
  const shared = globalThis as { __ambercareTestTemplates?: SharedTemplates };
  shared.__ambercareTestTemplates ??= { built: buildTemplates(), users: 0 };
  const run = shared.__ambercareTestTemplates;
  run.users += 1;
  const { templates, teardown } = await run.built;
  project.provide("testTemplates", templates);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    shared.__ambercareTestTemplates = undefined;
    await teardown();
  };
}

type SharedTemplates = {
  built: Promise<{ templates: TestTemplates; teardown: () => Promise<void> }>;
  /** Projects of the run that have not torn down yet. */
  users: number;
};

async function buildTemplates(): Promise<{ templates: TestTemplates; teardown: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const postgres = await postgresTemplates(serverUrl);
    return {
      templates: { postgres },
      teardown: async () => {
        for (const name of Object.values(postgres)) await dropDatabase(serverUrl, name);
      },
    };
  }
  const key = process.env.TEST_TEMPLATE_CACHE === "0" ? null : snapshotKey();
  const cached = key === null ? null : cachedSnapshots(key);
  if (cached) return { templates: { pglite: cached }, teardown: async () => undefined };
  const directory = mkdtempSync(join(tmpdir(), "ambercare-test-templates-"));
  const pglite = await pgliteSnapshots(directory);
  if (key !== null) keepSnapshots(key, pglite);
  return {
    templates: { pglite },
    teardown: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** The two PGlite snapshot files a run's test databases are loaded from. */
type PgliteSnapshots = NonNullable<TestTemplates["pglite"]>;

/**
 * PGlite snapshots outlive the run in node_modules/.cache (as other tools' caches do), under a key
 * that changes with anything that shapes them: every file of this package (migrations, schema, seed)
 * and of the contracts (the seed's constants), the PGlite and drizzle versions installed, and the
 * day (the seed stamps the demo accounts with the time it ran). A run on an unchanged tree starts
 * its database suites ~5 s sooner (initdb, every migration and the demo catalogue, measured 4.7 s
 * on two cores); a fresh clone or a changed file builds them anew. TEST_TEMPLATE_CACHE=0 always
 * builds them.
 */
const SNAPSHOT_CACHE = fileURLToPath(
  new URL("../../../node_modules/.cache/ambercare-test-templates", import.meta.url),
);

function snapshotKey(): string {
  const hash = createHash("sha256");
  const roots = ["../drizzle", "./", "../../contracts/src"].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );
  for (const root of roots) {
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
      (file) => !file.includes("node_modules") && statSync(join(root, file)).isFile(),
    );
    for (const file of files.sort()) hash.update(`${root}/${file}\0`).update(readFileSync(join(root, file)));
  }
  for (const name of ["@electric-sql/pglite", "drizzle-orm"]) {
    const manifest = fileURLToPath(new URL(`../../../node_modules/${name}/package.json`, import.meta.url));
    hash.update(existsSync(manifest) ? readFileSync(manifest) : name);
  }
  // The seed stamps the demo accounts with the time it ran: a snapshot is kept for its own day only.
  hash.update(new Date().toISOString().slice(0, 10));
  return hash.digest("hex").slice(0, 16);
}

function cachedSnapshots(key: string): PgliteSnapshots | null {
  const directory = join(SNAPSHOT_CACHE, key);
  const snapshots = { migrated: join(directory, "migrated.tar"), seeded: join(directory, "seeded.tar") };
  return existsSync(snapshots.migrated) && existsSync(snapshots.seeded) ? snapshots : null;
}

/** Keeps this run's snapshots for the next run, in place of any older ones. */
function keepSnapshots(key: string, snapshots: PgliteSnapshots): void {
  const staging = `${SNAPSHOT_CACHE}-${process.pid}`;
  try {
    rmSync(SNAPSHOT_CACHE, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    copyFileSync(snapshots.migrated, join(staging, "migrated.tar"));
    copyFileSync(snapshots.seeded, join(staging, "seeded.tar"));
    mkdirSync(SNAPSHOT_CACHE, { recursive: true });
    // Renamed whole: a run beside this one sees both files or neither.
    renameSync(staging, join(SNAPSHOT_CACHE, key));
  } catch {
    // A read-only or full disk: the next run builds them again, as without the cache.
    rmSync(staging, { recursive: true, force: true });
  }
}

async function pgliteSnapshots(directory: string): Promise<PgliteSnapshots> {
  const handle = await createDb({ databaseUrl: MEMORY_URL });
  if (handle.driver.kind !== "pglite") throw new Error("memory:// opens PGlite");
  const { client } = handle.driver;
  try {
    const save = async (name: string) => {
      // Uncompressed (gzip makes the file smaller but every load slower), after a checkpoint and
      // with only the WAL a start reads (compactSnapshot).
      const path = join(directory, `${name}.tar`);
      writeFileSync(path, await compactSnapshot(client));
      return path;
    };
    // The template databases are for `create database`, which no PGlite test runs: without them a
    // snapshot holds half as many files, and each test database loads about a fifth sooner.
    await client.exec(
      "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
    );
    await client.exec("drop database template0");
    await client.exec("drop database template1");
    await prepare(handle, MIGRATIONS_FOLDER, false);
    const migrated = await save("migrated");
    await seedDemoData(handle);
    const seeded = await save("seeded");
    return { migrated, seeded };
  } finally {
    await handle.close();
  }
}

/**
 * Two databases on the server, closed once built (two connections: the migration lock holds one): PostgreSQL copies a template only while nobody is
 * connected to it. Their names are unique per run, so runs sharing a server do not collide.
 */
async function postgresTemplates(serverUrl: string): Promise<{ migrated: string; seeded: string }> {
  const run = randomBytes(4).toString("hex");
  const migrated = `ambercare_template_${run}_migrated`;
  const seeded = `ambercare_template_${run}_seeded`;
  await withAdminClient(serverUrl, (admin) => admin.query(`create database ${migrated}`));
  const handle = await createDb({ databaseUrl: databaseUrl(serverUrl, migrated), maxConnections: 2 });
  try {
    await prepare(handle, MIGRATIONS_FOLDER, false);
  } finally {
    await handle.close();
  }
  await withAdminClient(serverUrl, (admin) => admin.query(`create database ${seeded} template ${migrated}`));
  const seededHandle = await createDb({ databaseUrl: databaseUrl(serverUrl, seeded), maxConnections: 2 });
  try {
    await seedDemoData(seededHandle);
  } finally {
    await seededHandle.close();
  }
  return { migrated, seeded };
}

/** What a template holds: the migrations, then (for `seeded`) the demo data. */
export async function prepare(handle: DbHandle, migrationsFolder: string, seeded: boolean): Promise<void> {
  await runMigrations(handle, migrationsFolder);
  if (seeded) await seedDemoData(handle);
}

/** `serverUrl` with another database name. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  // FORCE (PostgreSQL 13+) ends sessions a failed test may have left open.
  await withAdminClient(serverUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
}

export async function withAdminClient<T>(
  serverUrl: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
