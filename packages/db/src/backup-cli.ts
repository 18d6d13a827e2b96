import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { BackupRefusal, createBackup, pruneBackups, restoreBackup } from "./backup.ts";

/**
 * `npm run backup -- [--out <directory>] [--keep <n>]` and `npm run restore -- <backup> [--force]`:
 * on the database the API uses (PostgreSQL with DATABASE_URL, else PGlite under DATA_DIR) and the
 * files in DATA_DIR. Exit codes, as `npm run care-team`: 0 done, 1 refused or failed (the message
 * says why), 2 wrong arguments (the usage is printed).
 */

export const USAGE = `Usage:
  npm run backup -- [--out <directory>] [--keep <n>]
      Write a backup of the database, the medical documents and the generated secrets into a new
      directory ambercare-backup-<time> under --out (default: BACKUP_DIR, else ./backups).
      --keep <n> then deletes all but the newest n backups there.
      On the embedded database (no DATABASE_URL) the API must be stopped first.
  npm run restore -- <backup> [--force]
      Restore a backup into an empty database (DATABASE_URL, else a DATA_DIR without one) and
      DATA_DIR, then apply newer migrations. --force replaces a database that is not empty.
`;

class UsageError extends Error {}

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
/**
 * npm runs a script in the package's folder whichever folder it was typed in, and says where that
 * was in INIT_CWD: paths the operator types are relative to it.
 */
const typedFrom = process.env.INIT_CWD ?? process.cwd();

function parse(args: string[], options: NonNullable<ParseArgsConfig["options"]>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  // As scripts/start.mjs: the same .env the running app reads, without overriding the environment.
  if (existsSync(resolve(repositoryRoot, ".env"))) process.loadEnvFile(resolve(repositoryRoot, ".env"));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // A relative DATA_DIR is relative to the repository root, as for the API.
  const dataDir = resolve(repositoryRoot, process.env.DATA_DIR || "./.data");
  const pgBin = process.env.PG_BIN || undefined;
  try {
    switch (command) {
      case "backup": {
        const { values, positionals } = parse(args, { out: { type: "string" }, keep: { type: "string" } });
        if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
        const keep = values.keep === undefined ? undefined : Number(values.keep);
        if (keep !== undefined && (!Number.isSafeInteger(keep) || keep < 1)) {
          throw new UsageError("--keep needs a whole number of at least 1");
        }
        const outDir = values.out
          ? resolve(typedFrom, String(values.out))
          : resolve(repositoryRoot, process.env.BACKUP_DIR || "./backups");
        const started = Date.now();
        const { path, manifest, warnings } = await createBackup({
          databaseUrl,
          dataDir,
          outDir,
          env: process.env,
          pgBin,
        });
        const rows = Object.values(manifest.database.rows).reduce((sum, n) => sum + n, 0);
        const uploads = manifest.files.filter((file) => file.path.startsWith("uploads/")).length;
        console.log(
          `Backed up ${manifest.database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`} at migration ${manifest.database.migrations.latest}: ${Object.keys(manifest.database.rows).length} tables, ${rows} rows, ${uploads} document file(s), secrets: ${manifest.secrets.included.join(", ") || "none"}; in ${((Date.now() - started) / 1000).toFixed(1)} s.\n${path}`,
        );
        for (const warning of warnings) console.error(`Warning: ${warning}`);
        if (keep !== undefined) {
          for (const removed of await pruneBackups(outDir, keep)) console.log(`Deleted the older ${removed}`);
        }
        return 0;
      }
      case "restore": {
        const { values, positionals } = parse(args, { force: { type: "boolean" } });
        if (positionals.length !== 1) throw new UsageError("restore needs the backup's directory");
        const result = await restoreBackup({
          backupPath: resolve(typedFrom, positionals[0]!),
          databaseUrl,
          dataDir,
          force: values.force === true,
          pgBin,
        });
        console.log(
          `Restored into ${result.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${dataDir}`}: ${result.tables} tables and ${result.rows} rows, the same as the backup's; ${result.files} file(s) checked and written; ${result.migrationsApplied} newer migration(s) applied.`,
        );
        for (const path of result.setAside) console.log(`What --force replaced is kept in ${path}`);
        return 0;
      }
      default:
        throw new UsageError(command ? `Unknown command: ${command}` : "No command given");
    }
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof BackupRefusal) {
      console.error(error.message);
      return 1;
    }
    console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
