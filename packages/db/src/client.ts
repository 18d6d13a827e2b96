import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import type { Assume, ExtractTablesWithRelations } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg, type NodePgDatabase, NodePgSession } from "drizzle-orm/node-postgres";
import { type PgDatabase, PgDialect, type PgQueryResultHKT, type PgTransaction } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite, type PgliteDatabase } from "drizzle-orm/pglite";
import pg from "pg";
import * as schema from "./schema.ts";
import { connectionFailure } from "./unavailable.ts";

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
   * Called when a pooled connection fails (PostgreSQL only), idle or lent out, to log it. The pool
   * and each of its clients always have a listener, because an unhandled "error" event would
   * crash the process.
   */
  onError?: (error: Error) => void;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
  /**
   * PGlite files only: a `dumpDataDir()` tarball (`npm run restore`) to start from, unpacked into
   * `${dataDir}/pglite`, which must hold no database yet.
   */
  restoreFrom?: Blob;
};

/**
 * Makes every transaction on the pool (`db.transaction`, and the migrator's) give its connection
 * back, and end a broken one. Drizzle's own sends `begin` before its try/finally, so a connection
 * that fails right then (the server ended it just as the pool lent it out: a shutdown, a restart,
 * `pg_terminate_backend`) is never released and its pool slot is lost for good; once every slot is
 * lost, each query waits the pool's five seconds and fails, with the database up, and `pool.end()`
 * never finishes. Here the client is borrowed and released around Drizzle's transaction on that
 * client alone: always released, and with the error, so the pool ends it, when the connection failed.
 */
function releaseTransactionClients(db: NodePgDatabase<Schema>, pool: pg.Pool): void {
  // What drizzle() built for the pool's session, for the sessions of the borrowed clients.
  const dialect = new PgDialect();
  const relations = { fullSchema: db._.fullSchema, schema: db._.schema!, tableNamesMap: db._.tableNamesMap };
  const session = db._.session;
  session.transaction = async (run, config) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      return await new NodePgSession<Schema, ExtractTablesWithRelations<Schema>>(
        client,
        dialect,
        relations,
      ).transaction(run, config);
    } catch (error) {
      broken = connectionFailure(error);
      throw error;
    } finally {
      client.release(broken);
    }
  };
}

/** Another process has the PGlite files open (the API, or a command such as a backup). */
export class DatabaseInUseError extends Error {}

export const MEMORY_URL = "memory://";

export async function createDb(options: CreateDbOptions): Promise<DbHandle> {
  const { databaseUrl } = options;
  if (databaseUrl === undefined || databaseUrl === "" || databaseUrl.startsWith(MEMORY_URL)) {
    let dataDir: string | undefined;
    if (databaseUrl === undefined || databaseUrl === "") {
      if (!options.dataDir) throw new Error("createDb: dataDir is required when databaseUrl is unset");
      dataDir = join(options.dataDir, "pglite");
      mkdirSync(dataDir, { recursive: true });
      const unlock = await lockPgliteFiles(join(options.dataDir, "pglite.lock"), dataDir);
      try {
        return await createPgliteHandle(dataDir, options.restoreFrom, unlock);
      } catch (error) {
        await unlock();
        throw error;
      }
    }
    return createPgliteHandle(dataDir, undefined, async () => undefined);
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return createPostgresHandle(databaseUrl, options);
  }
  // Never echo the URL: it may carry a password.
  throw new Error("createDb: databaseUrl must start with postgres://, postgresql:// or memory://");
}

/**
 * PGlite's files are one process's at a time: a second process opening them while the first has
 * them (`npm run care-team` or a backup beside a running API) corrupts them, and PGlite itself does
 * not refuse. The process that opens them therefore listens on a Unix socket beside them. The
 * kernel closes it with the process, so a lock left behind by a crash is known to be stale (nobody
 * answers) and taken over, with no process id to trust. Answers the release.
 */
async function lockPgliteFiles(lockPath: string, dataDir: string): Promise<() => Promise<void>> {
  // A socket path is at most 107 bytes, and Windows has no Unix sockets: there the files go
  // unguarded, as they always were.
  if (process.platform === "win32" || Buffer.byteLength(lockPath) > 100) return async () => undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const server = await listenOn(lockPath);
      return () => new Promise<void>((resolve) => server.close(() => resolve()));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      if (await somebodyAnswers(lockPath)) {
        throw new DatabaseInUseError(
          `The embedded database in ${dataDir} is open in another process (the API, or another command): PGlite's files are one process's at a time. Stop that process first.`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseInUseError(`The embedded database in ${dataDir} could not be locked (${lockPath})`);
}

function listenOn(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      // The lock must not keep a process alive that has nothing else to do.
      server.unref();
      resolve(server);
    });
  });
}

function somebodyAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function createPgliteHandle(
  dataDir: string | undefined,
  restoreFrom: Blob | undefined,
  unlock: () => Promise<void>,
): Promise<DbHandle> {
  if (restoreFrom && dataDir !== undefined && readdirSync(dataDir).length > 0) {
    throw new Error(`createDb: ${dataDir} already holds files; a backup is restored only into an empty one`);
  }
  const client = await PGlite.create({
    ...PGLITE_OPTIONS,
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(restoreFrom ? { loadDataDir: restoreFrom } : {}),
  });
  return pgliteHandle(client, unlock);
}

/**
 * What every PGlite this project opens needs (tests' snapshots too): the btree_gist extension's
 * files, for the bookings' exclusion constraint (ADR 059). PostgreSQL ships them; PGlite loads them
 * when asked, and a data directory that uses them cannot be opened without them.
 */
export const PGLITE_OPTIONS = { extensions: { btree_gist } } as const satisfies PGliteOptions;

/**
 * The handle of an open PGlite (tests also open one from a snapshot of a data directory);
 * `unlock` releases its files' lock once it is closed.
 */
export function pgliteHandle(client: PGlite, unlock: () => Promise<void> = async () => undefined): DbHandle {
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
      closed ??= (client.closed ? Promise.resolve() : client.close()).finally(unlock);
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
  // The pool listens for errors only on its idle clients: it takes its listener off a client it
  // lends out (a transaction, the migration lock). A server that ends connections (a shutdown's
  // 57P01, a restart) while a client is lent but between two queries makes that client emit
  // "error" with nobody listening, which kills the process. Every client therefore keeps a listener
  // of its own for its whole life; the query in flight still fails and is answered 503, and the
  // pool drops the dead client when it is released.
  pool.on("connect", (client) => {
    client.on("error", (error) => {
      options.onError?.(error);
    });
  });
  const db = drizzleNodePg({ client: pool, schema });
  releaseTransactionClients(db, pool);
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
