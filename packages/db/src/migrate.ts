import { fileURLToPath } from "node:url";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DbHandle } from "./client.ts";
import { connectionFailure } from "./unavailable.ts";

/** The generated SQL migrations, committed beside this package (`npm run generate`). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle", import.meta.url));

/**
 * Any fixed 64-bit number works; it only has to be the same in every API process so that two
 * processes starting together against one PostgreSQL do not apply the same migration twice.
 */
const MIGRATION_LOCK_ID = 7_305_214_998_061_203n;

/**
 * Applies every pending migration; a no-op when the schema is current. Another folder (a copy holding
 * only the older migrations) lets a test build the schema as it was before a data migration.
 */
export async function runMigrations(handle: DbHandle, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
  const { driver } = handle;
  switch (driver.kind) {
    case "pglite":
      await migratePglite(driver.db, { migrationsFolder });
      return;
    case "postgres": {
      const lock = await driver.pool.connect();
      // A connection that failed is ended, not lent again (its advisory lock died with it).
      let broken: Error | undefined;
      try {
        await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_ID.toString()]);
        try {
          await migrateNodePg(driver.db, { migrationsFolder });
        } finally {
          await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_ID.toString()]);
        }
      } catch (error) {
        broken = connectionFailure(error);
        throw error;
      } finally {
        lock.release(broken);
      }
      return;
    }
  }
}
