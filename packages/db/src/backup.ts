import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { createDb, DatabaseInUseError, type DbHandle, type DbKind } from "./client.ts";
import { MIGRATIONS_FOLDER, runMigrations } from "./migrate.ts";

/**
 * Backups of a deployment: the database (one consistent snapshot) plus what the database points at
 * outside itself, the medical documents' bytes in `$DATA_DIR/uploads`, and the generated secrets
 * in `$DATA_DIR/dev-secrets.json` that its data needs (SECOND_FACTOR_KEY encrypts the TOTP secrets).
 * One backup is one directory: `manifest.json`, the database file, `uploads/`, `secrets/`.
 * ADR 054 says why it is built this way.
 */

export const BACKUP_FORMAT = "ambercare-backup";
export const BACKUP_FORMAT_VERSION = 1;
/** `ambercare-backup-2026-11-27T03-00-00Z`: sorts by time, which retention relies on. */
export const BACKUP_NAME = /^ambercare-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/;
/**
 * The secrets whose loss makes restored data unreadable, its sent links dead or its stored push
 * subscriptions silent (a browser's subscription is bound to the VAPID public key it was made with).
 */
const DATA_SECRETS = [
  "SECOND_FACTOR_KEY",
  "LIST_TOKEN_SECRET",
  "VAPID_PUBLIC_KEY",
  "VAPID_PRIVATE_KEY",
] as const;
const SECRETS_FILE = "dev-secrets.json";

export type BackupFile = { path: string; size: number; sha256: string };

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_FORMAT_VERSION;
  createdAt: string;
  database: BackupFile & {
    kind: DbKind;
    /** How many of the migrations in packages/db/drizzle the database had, and the last one's tag. */
    migrations: { applied: number; latest: string | null };
    /** Rows per table (`schema.table`) in the snapshot: a restore checks it gets the same. */
    rows: Record<string, number>;
  };
  /** Every other file of the backup (`uploads/<storage key>`, `secrets/dev-secrets.json`). */
  files: BackupFile[];
  /** Documents whose row is in the snapshot but whose file was not found in `$DATA_DIR/uploads`. */
  missingUploads: string[];
  secrets: { included: string[]; notIncluded: string[] };
};

/** The command cannot do what was asked; the message says why (exit code 1). */
export class BackupRefusal extends Error {}

export type BackupOptions = {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** The directory the backup is created in. */
  outDir: string;
  /** The environment the secrets may come from instead of dev-secrets.json. */
  env?: Record<string, string | undefined>;
  /** Where pg_dump and pg_restore are; else they are looked up on PATH. */
  pgBin?: string | undefined;
  now?: Date;
};

type Snapshot = {
  migrations: BackupManifest["database"]["migrations"];
  rows: Record<string, number>;
  documents: Array<{ storageKey: string; sha256: string }>;
};

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function stampOf(now: Date): string {
  return `${now.toISOString().slice(0, 19).replaceAll(":", "-")}Z`;
}

/** Writes one backup into `outDir`; answers its path, manifest and what the operator should know. */
export async function createBackup(
  options: BackupOptions,
): Promise<{ path: string; manifest: BackupManifest; warnings: string[] }> {
  const now = options.now ?? new Date();
  const name = `ambercare-backup-${stampOf(now)}`;
  const target = join(options.outDir, name);
  if (existsSync(target)) throw new BackupRefusal(`${target} already exists`);
  // Written under another name and renamed at the end, so a backup that failed halfway never looks
  // like one that can be restored.
  const partial = join(options.outDir, `.${name}.partial`);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true, mode: 0o700 });
  const warnings: string[] = [];
  try {
    const databaseUrl = options.databaseUrl || undefined;
    const kind: DbKind = databaseUrl ? "postgres" : "pglite";
    const databaseFile = kind === "postgres" ? "database.dump" : "database.tar.gz";
    const snapshot =
      kind === "postgres"
        ? await dumpPostgres(databaseUrl!, join(partial, databaseFile), options.pgBin)
        : await dumpPglite(options.dataDir, join(partial, databaseFile));
    const databaseBytes = await readFile(join(partial, databaseFile));

    const files: BackupFile[] = [];
    const missingUploads: string[] = [];
    if (snapshot.documents.length > 0) await mkdir(join(partial, "uploads"), { mode: 0o700 });
    for (const document of snapshot.documents) {
      const source = join(options.dataDir, "uploads", document.storageKey);
      let bytes: Buffer;
      try {
        bytes = await readFile(source);
      } catch {
        // Deleted between the snapshot and now (its row is gone too by then), or lost before.
        missingUploads.push(document.storageKey);
        continue;
      }
      const path = `uploads/${document.storageKey}`;
      const digest = sha256(bytes);
      if (digest !== document.sha256) {
        warnings.push(`${source} does not match the checksum its database row records; it is kept as it is`);
      }
      await writeFile(join(partial, path), bytes, { mode: 0o600 });
      files.push({ path, size: bytes.length, sha256: digest });
    }
    if (missingUploads.length > 0) {
      warnings.push(
        `${missingUploads.length} document(s) have a row but no file in ${join(options.dataDir, "uploads")}: ${missingUploads.join(", ")}`,
      );
    }

    const secrets = await copySecrets(options, partial, files);
    if (secrets.notIncluded.length > 0) {
      warnings.push(
        `${secrets.notIncluded.join(", ")} come(s) from the environment, not from ${SECRETS_FILE}, and are not in the backup: keep them with it (without SECOND_FACTOR_KEY nobody's two-step login works after a restore; without LIST_TOKEN_SECRET the unsubscribe links of sent e-mails stop working; without the VAPID pair no browser that turned notifications on receives them until it turns them on again)`,
      );
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_FORMAT_VERSION,
      createdAt: now.toISOString(),
      database: {
        kind,
        path: databaseFile,
        size: databaseBytes.length,
        sha256: sha256(databaseBytes),
        migrations: snapshot.migrations,
        rows: snapshot.rows,
      },
      files,
      missingUploads,
      secrets,
    };
    await writeFile(join(partial, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    await rename(partial, target);
    return { path: target, manifest, warnings };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw error;
  }
}

async function copySecrets(
  options: BackupOptions,
  partial: string,
  files: BackupFile[],
): Promise<BackupManifest["secrets"]> {
  const env = options.env ?? {};
  let stored: Record<string, unknown> = {};
  const source = join(options.dataDir, SECRETS_FILE);
  if (existsSync(source)) {
    const bytes = await readFile(source);
    stored = JSON.parse(bytes.toString("utf8")) as Record<string, unknown>;
    await mkdir(join(partial, "secrets"), { mode: 0o700 });
    const path = `secrets/${SECRETS_FILE}`;
    await writeFile(join(partial, path), bytes, { mode: 0o600 });
    files.push({ path, size: bytes.length, sha256: sha256(bytes) });
  }
  // A secret set in the environment wins over the file (apps/api/src/platform/config.ts), so the
  // file's copy of it, if any, is not the one the data was written with.
  const notIncluded = DATA_SECRETS.filter((key) => env[key]);
  return { included: Object.keys(stored).filter((key) => !env[key]), notIncluded: [...notIncluded] };
}

/** The journal's tags in order: the migration version a count of applied migrations stands for. */
async function migrationTags(): Promise<string[]> {
  const journal = JSON.parse(await readFile(join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  return journal.entries.map((entry) => entry.tag);
}

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/** What the backup records of a database, read in the same snapshot as the dump. */
async function readSnapshot(query: Query): Promise<Snapshot> {
  const tables = await query(
    `select schemaname, tablename from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const rows: Record<string, number> = {};
  for (const table of tables) {
    const [count] = await query(
      `select count(*)::int as n from ${quoteIdent(String(table.schemaname))}.${quoteIdent(String(table.tablename))}`,
    );
    rows[`${table.schemaname}.${table.tablename}`] = Number(count!.n);
  }
  const applied = rows["drizzle.__drizzle_migrations"] ?? 0;
  const tags = await migrationTags();
  const documents =
    "public.medical_documents" in rows
      ? (await query(`select storage_key, sha256 from medical_documents order by storage_key`)).map(
          (row) => ({
            storageKey: String(row.storage_key),
            sha256: String(row.sha256),
          }),
        )
      : [];
  return { migrations: { applied, latest: tags[applied - 1] ?? null }, rows, documents };
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function dumpPglite(dataDir: string, file: string): Promise<Snapshot> {
  if (!existsSync(join(dataDir, "pglite", "PG_VERSION"))) {
    throw new BackupRefusal(
      `There is no embedded database in ${join(dataDir, "pglite")} (DATA_DIR) to back up`,
    );
  }
  const handle = await openPglite(dataDir);
  try {
    if (handle.driver.kind !== "pglite") throw new Error("expected PGlite");
    const client = handle.driver.client;
    // Nothing else writes: this process holds the files. A checkpoint first writes every change
    // into the data files, so the copy starts without replaying the write-ahead log.
    await client.exec("checkpoint");
    const snapshot = await readSnapshot(
      async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    );
    const tarball = await client.dumpDataDir("gzip");
    await writeFile(file, new Uint8Array(await tarball.arrayBuffer()), { mode: 0o600 });
    return snapshot;
  } finally {
    await handle.close();
  }
}

async function openPglite(dataDir: string, restoreFrom?: Blob): Promise<DbHandle> {
  try {
    return await createDb({ dataDir, ...(restoreFrom ? { restoreFrom } : {}) });
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      throw new BackupRefusal(
        `${error.message} Stop the API (\`npm start\` holds the embedded database for as long as it runs), then run this again; or move to PostgreSQL (DATABASE_URL), which is backed up while it runs.`,
      );
    }
    throw error;
  }
}

/**
 * pg_dump in the custom format, in a snapshot this connection exported: the dump, the row counts
 * and the list of documents whose files are copied are all of the same instant.
 */
async function dumpPostgres(databaseUrl: string, file: string, pgBin: string | undefined): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "ambercare-backup" });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ id: string }>("select pg_export_snapshot() as id");
    const snapshot = await readSnapshot(async (text) => (await client.query(text)).rows);
    await runPgTool(pgBin, "pg_dump", databaseUrl, [
      "--format=custom",
      `--snapshot=${rows[0]!.id}`,
      `--file=${file}`,
    ]);
    await client.query("commit");
    return snapshot;
  } finally {
    await client.end();
  }
}

/**
 * Runs pg_dump or pg_restore on `databaseUrl`. The password goes in PGPASSWORD, not in the
 * arguments, where every user of the machine could read it in the process list.
 */
function runPgTool(
  pgBin: string | undefined,
  tool: string,
  databaseUrl: string,
  args: string[],
): Promise<void> {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(pgBin ? join(pgBin, tool) : tool, [...args, `--dbname=${url.toString()}`], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new BackupRefusal(
              `${tool} was not found: install PostgreSQL's client tools (the server's major version or newer) or set PG_BIN to their directory`,
            )
          : error,
      );
    });
    child.once("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`));
    });
  });
}

export type RestoreOptions = {
  backupPath: string;
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Replace a database that is not empty, and files that differ. */
  force?: boolean;
  pgBin?: string | undefined;
  now?: Date;
};

export type RestoreResult = {
  kind: DbKind;
  tables: number;
  rows: number;
  files: number;
  /** Migrations newer than the backup, applied after it was restored. */
  migrationsApplied: number;
  /** Where a database or secrets file that --force replaced was kept. */
  setAside: string[];
};

/** Reads and checks a backup's manifest and every file it lists, before anything is written. */
export async function readBackup(backupPath: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(backupPath, "manifest.json"), "utf8")) as BackupManifest;
  } catch {
    throw new BackupRefusal(`${backupPath} is not a backup: it has no readable manifest.json`);
  }
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_FORMAT_VERSION) {
    throw new BackupRefusal(`${backupPath} is not a backup this version of Ambercare can read`);
  }
  for (const file of [manifest.database, ...manifest.files]) {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(backupPath, file.path));
    } catch {
      throw new BackupRefusal(`The backup is incomplete: ${file.path} is missing`);
    }
    if (bytes.length !== file.size || sha256(bytes) !== file.sha256) {
      throw new BackupRefusal(`The backup is damaged: ${file.path} does not match its checksum`);
    }
  }
  return manifest;
}

/**
 * Restores a backup into an empty database (or, with `force`, over one) and `dataDir`, then applies
 * the migrations newer than the backup. Everything that can refuse is checked before anything is
 * written.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const manifest = await readBackup(options.backupPath);
  const databaseUrl = options.databaseUrl || undefined;
  const kind: DbKind = databaseUrl ? "postgres" : "pglite";
  if (manifest.database.kind !== kind) {
    throw new BackupRefusal(
      manifest.database.kind === "pglite"
        ? "This is a backup of the embedded database (PGlite) and DATABASE_URL is set: unset it to restore into DATA_DIR"
        : "This is a backup of PostgreSQL and DATABASE_URL is not set: set it to the (empty) database to restore into",
    );
  }
  const tags = await migrationTags();
  if (manifest.database.migrations.applied > tags.length) {
    throw new BackupRefusal(
      `The backup was made by a newer Ambercare (migration ${manifest.database.migrations.latest}; this one knows ${tags.length} migrations): update it first`,
    );
  }
  const force = options.force ?? false;
  const stamp = stampOf(options.now ?? new Date());
  const uploads = manifest.files.filter((file) => file.path.startsWith("uploads/"));
  await checkFilesFit(options.dataDir, uploads, force);
  const secrets = manifest.files.find((file) => file.path === `secrets/${SECRETS_FILE}`);
  const secretsTarget = join(options.dataDir, SECRETS_FILE);
  const secretsDiffer =
    secrets !== undefined &&
    existsSync(secretsTarget) &&
    sha256(await readFile(secretsTarget)) !== secrets.sha256;
  if (secretsDiffer && !force) {
    throw new BackupRefusal(
      `${secretsTarget} holds other secrets than the backup's: the restored data needs the backup's (SECOND_FACTOR_KEY decrypts the two-step login secrets). Run again with --force to replace it (the present one is kept beside it).`,
    );
  }

  const setAside: string[] = [];
  const databaseFile = join(options.backupPath, manifest.database.path);
  const handle =
    kind === "postgres"
      ? await restorePostgres(databaseUrl!, databaseFile, force, options.pgBin)
      : await restorePglite(options.dataDir, databaseFile, force, stamp, setAside);
  try {
    const restored = await readSnapshot(async (text) => (await handle.db.execute(text)).rows);
    const differing = Object.keys({ ...manifest.database.rows, ...restored.rows }).filter(
      (table) => manifest.database.rows[table] !== restored.rows[table],
    );
    if (differing.length > 0) {
      throw new Error(`The restored database does not have the backup's rows in ${differing.join(", ")}`);
    }

    await mkdir(join(options.dataDir, "uploads"), { recursive: true, mode: 0o700 });
    for (const file of uploads) {
      await copyFile(join(options.backupPath, file.path), join(options.dataDir, file.path));
    }
    if (secrets) {
      if (secretsDiffer) {
        const aside = `${secretsTarget}.before-restore-${stamp}`;
        await rename(secretsTarget, aside);
        setAside.push(aside);
      }
      await copyFile(join(options.backupPath, secrets.path), secretsTarget);
    }

    await runMigrations(handle);
    const [after] = (await handle.db.execute(`select count(*)::int as n from drizzle.__drizzle_migrations`))
      .rows;
    return {
      kind,
      tables: Object.keys(restored.rows).length,
      rows: Object.values(restored.rows).reduce((sum, n) => sum + n, 0),
      files: manifest.files.length,
      migrationsApplied: Number(after!.n) - manifest.database.migrations.applied,
      setAside,
    };
  } finally {
    await handle.close();
  }
}

/** A document file already in `$DATA_DIR/uploads` must be the backup's, unless `force`. */
async function checkFilesFit(dataDir: string, uploads: BackupFile[], force: boolean): Promise<void> {
  if (force || !existsSync(join(dataDir, "uploads"))) return;
  const present = new Set(await readdir(join(dataDir, "uploads")));
  for (const file of uploads) {
    const name = file.path.slice("uploads/".length);
    if (present.has(name) && sha256(await readFile(join(dataDir, file.path))) !== file.sha256) {
      throw new BackupRefusal(
        `${join(dataDir, file.path)} exists with other bytes than the backup's: run again with --force to replace it`,
      );
    }
  }
}

async function userTableCount(handle: DbHandle): Promise<number> {
  const [row] = (
    await handle.db.execute(
      `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    )
  ).rows;
  return Number(row!.n);
}

const NOT_EMPTY = "Run again with --force to replace it, or restore into an empty database.";

async function restorePglite(
  dataDir: string,
  databaseFile: string,
  force: boolean,
  stamp: string,
  setAside: string[],
): Promise<DbHandle> {
  const files = join(dataDir, "pglite");
  if (existsSync(join(files, "PG_VERSION"))) {
    // Opened first: that refuses while the API has it, and tells an empty database (an API that
    // failed before migrating) from one with data.
    const existing = await openPglite(dataDir);
    const tables = await userTableCount(existing).finally(() => existing.close());
    if (tables > 0 && !force) {
      throw new BackupRefusal(
        `The embedded database in ${files} is not empty (${tables} tables). ${NOT_EMPTY}`,
      );
    }
    // Kept, not deleted: --force must not be the way a database is lost.
    const aside = `${files}.before-restore-${stamp}`;
    await rename(files, aside);
    setAside.push(aside);
  } else if (existsSync(files) && (await readdir(files)).length > 0) {
    throw new BackupRefusal(`${files} holds files that are not a database: move them away first`);
  }
  return openPglite(dataDir, new Blob([new Uint8Array(await readFile(databaseFile))]));
}

async function restorePostgres(
  databaseUrl: string,
  databaseFile: string,
  force: boolean,
  pgBin: string | undefined,
): Promise<DbHandle> {
  const handle = await createDb({ databaseUrl, maxConnections: 2 });
  try {
    const tables = await userTableCount(handle);
    if (tables > 0) {
      if (!force)
        throw new BackupRefusal(`The database of DATABASE_URL is not empty (${tables} tables). ${NOT_EMPTY}`);
      const schemas = (
        await handle.db.execute(
          `select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'`,
        )
      ).rows;
      for (const schema of schemas) {
        await handle.db.execute(`drop schema ${quoteIdent(String(schema.nspname))} cascade`);
      }
      await handle.db.execute("create schema if not exists public");
    }
    // One transaction: a restore that fails leaves the database as empty as it was. Owners and
    // grants are the restoring role's, which need not be the role that made the backup.
    await runPgTool(pgBin, "pg_restore", databaseUrl, [
      "--single-transaction",
      "--exit-on-error",
      "--no-owner",
      "--no-privileges",
      databaseFile,
    ]);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Deletes all but the newest `keep` backups in `outDir` (only directories named as backups). */
export async function pruneBackups(outDir: string, keep: number): Promise<string[]> {
  const names = (await readdir(outDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && BACKUP_NAME.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  const removed = names.slice(0, Math.max(0, names.length - keep)).map((name) => join(outDir, name));
  for (const path of removed) await rm(path, { recursive: true, force: true });
  return removed;
}
