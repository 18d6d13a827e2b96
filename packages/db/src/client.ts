import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Assume, ExtractTablesWithRelations } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite, type PgliteDatabase } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema.ts";

export type Schema = typeof schema;

/**
 * What both drivers return from `db.execute(sql…)`: PGlite's `Results` and node-postgres's
 * `QueryResult` share `rows` (and an affected-row count under different names, left out).
 */
export interface QueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<Assume<this["row"], Record<string, unknown>>>;
}
export type QueryRows<TRow> = { rows: TRow[] };

/** The Drizzle database every service uses, whichever driver is underneath. */
export type Database = PgDatabase<QueryResultHKT, Schema>;
/** A transaction handle: inside a transaction, use only this (never the outer `db`). */
export type Transaction = PgTransaction<QueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either of the two: repositories accept this so callers can run them inside a transaction. */
export type Executor = Database | Transaction;

export type DbKind = "pglite" | "postgres";

/**
 * Internal driver access for the migrator, which needs the driver-specific Drizzle type.
 * Services never touch this.
 */
export type DriverHandle =
  | { kind: "pglite"; db: PgliteDatabase<Schema>; client: PGlite }
  | { kind: "postgres"; db: NodePgDatabase<Schema>; pool: pg.Pool };

export type DbHandle = {
  db: Database;
  kind: DbKind;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
  /** Closes the connection(s); safe to call more than once. */
  close(): Promise<void>;
  /** @internal for `runMigrations` */
  driver: DriverHandle;
};

export type CreateDbOptions = {
  /**
   * `postgres://…` or `postgresql://…` selects node-postgres; `memory://` selects an in-memory
   * PGlite (tests); unset selects PGlite with files in `${dataDir}/pglite`.
   */
  databaseUrl?: string | undefined;
  /** Required when `databaseUrl` is unset. */
  dataDir?: string | undefined;
  /**
   * Called when an idle pooled connection fails (PostgreSQL only), to log it. The pool always has
   * a listener, because an unhandled pool "error" event would crash the process.
   */
  onError?: (error: Error) => void;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
};

export const MEMORY_URL = "memory://";

export async function createDb(options: CreateDbOptions): Promise<DbHandle> {
  const { databaseUrl } = options;
  if (databaseUrl === undefined || databaseUrl === "" || databaseUrl.startsWith(MEMORY_URL)) {
    let dataDir: string | undefined;
    if (databaseUrl === undefined || databaseUrl === "") {
      if (!options.dataDir) throw new Error("createDb: dataDir is required when databaseUrl is unset");
      dataDir = join(options.dataDir, "pglite");
      mkdirSync(dataDir, { recursive: true });
    }
    return createPgliteHandle(dataDir);
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return createPostgresHandle(databaseUrl, options);
  }
  // Never echo the URL: it may carry a password.
  throw new Error("createDb: databaseUrl must start with postgres://, postgresql:// or memory://");
}

async function createPgliteHandle(dataDir: string | undefined): Promise<DbHandle> {
  return pgliteHandle(await PGlite.create(dataDir === undefined ? {} : { dataDir }));
}

/** The handle of an open PGlite (tests also open one from a snapshot of a data directory). */
export function pgliteHandle(client: PGlite): DbHandle {
  const db = drizzlePglite({ client, schema });
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: "pglite",
    driver: { kind: "pglite", db, client },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close() {
      closed ??= client.closed ? Promise.resolve() : client.close();
      return closed;
    },
  };
}

function createPostgresHandle(connectionString: string, options: CreateDbOptions): DbHandle {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    // A health check or request must fail fast when the server is unreachable, not hang.
    connectionTimeoutMillis: 5_000,
    application_name: "ambercare",
  });
  pool.on("error", (error) => {
    options.onError?.(error);
  });
  const db = drizzleNodePg({ client: pool, schema });
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: "postgres",
    driver: { kind: "postgres", db, pool },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}
