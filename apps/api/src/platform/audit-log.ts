import type { AuditAction, AuditResource } from "@ambercare/contracts/consultation-limits";
import type { Executor } from "@ambercare/db/client";
import { auditLog, clinicians, providers } from "@ambercare/db/schema";
import { count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from "fastify";
import type { Clock } from "#api/platform/clock.ts";

export type AuditEvent = {
  /** The patient whose health data was read or written. */
  userId: string;
  actorUserId: string;
  /**
   * "clinician": a clinician's account (its provider names it in the patient's access log);
   * "operator": one of the clinic's operators (ADR 065).
   */
  actorKind: "patient" | "provider" | "clinician" | "operator" | "system";
  action: AuditAction;
  resourceType: AuditResource;
  resourceId: string | null;
  ip: string | null;
  at: Date;
};

/** A request for another patient's data that was refused: whose data it was, and which piece. */
export type RefusedAccess = { ownerUserId: string; resourceType: AuditResource; resourceId: string | null };

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A route that reads or writes the caller's own data: every successful call by a patient is
     * logged with this action (the service account acts for nobody, so its calls are not).
     */
    audit?: { action: AuditAction; resource: AuditResource };
  }
  interface FastifyInstance {
    /** A patient's repeated own reads, counted in memory and written in batches (ADR 072). */
    ownReads: OwnReadCounter;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Refusals of one actor on one piece of one patient's data within this long of the row that counts
 * them add to its `count` instead of writing a row each: 300 refused call signals in a second are one
 * entry "refused, 300 times", and a flood that lasts is one entry a minute. A patient's own repeated
 * reads of one thing from one address are counted the same way (every page that lists the visits,
 * `/call-ended` among them, reads them again): their log shows "read, 4 times", not four rows.
 */
export const REFUSAL_BURST_MS = 60_000;

/** A patient reading their own data (a `.read` or `.list`), which repeats with every page view. */
const isOwnRead = (event: AuditEvent) =>
  event.actorKind === "patient" &&
  event.actorUserId === event.userId &&
  (event.action.endsWith(".read") || event.action.endsWith(".list"));

const chains = new Map<string, Promise<unknown>>();

/** Runs `work` after the previous work of `key` in this process has settled. */
function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = chains.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  chains.set(key, settled);
  void settled.then(() => {
    if (chains.get(key) === settled) chains.delete(key);
  });
  return next;
}

/** The row that counts a patient's own reads or an actor's refusals: its id and when it was written. */
type CountingRow = { id: string; atMs: number };

/**
 * Adds one to the `count` of the newest row of the same actor, action and piece of a patient's data
 * written within REFUSAL_BURST_MS of `event.at` (and matching `also`); null when there is none.
 */
async function countOnRecentRow(
  db: Executor,
  event: Pick<AuditEvent, "userId" | "actorUserId" | "action" | "resourceType" | "resourceId" | "at">,
  also: SQL = sql``,
): Promise<CountingRow | null> {
  const since = new Date(event.at.getTime() - REFUSAL_BURST_MS).toISOString();
  const counted = await db.execute<{ id: string; at_ms: string | number }>(sql`
    update audit_log set count = count + 1
    where id = (
      select id from audit_log
      where user_id = ${event.userId}::uuid and actor_user_id = ${event.actorUserId}::uuid
        and action = ${event.action} and resource_type = ${event.resourceType}
        and resource_id is not distinct from ${event.resourceId}::uuid and at > ${since}::timestamptz
        ${also}
      order by at desc limit 1)
    returning id, (extract(epoch from at) * 1000)::float8 as at_ms`);
  const row = counted.rows[0];
  return row ? { id: row.id, atMs: Number(row.at_ms) } : null;
}

/**
 * Logs a patient's own read synchronously: one more on the row of the same read from the same
 * address within REFUSAL_BURST_MS, or a new row. Answers the row that holds it.
 */
function recordOwnRead(db: Executor, event: AuditEvent): Promise<CountingRow> {
  const resourceId = event.resourceId?.toLowerCase() ?? null;
  return serialized(ownReadKey(event), async () => {
    const counted = await countOnRecentRow(
      db,
      { ...event, resourceId },
      sql`and ip is not distinct from ${event.ip}`,
    );
    if (counted) return counted;
    const [row] = await db.insert(auditLog).values(event).returning({ id: auditLog.id });
    if (!row) throw new Error("the audit log row was not written");
    return { id: row.id, atMs: event.at.getTime() };
  });
}

const ownReadKey = (event: AuditEvent) =>
  `own|${event.userId}|${event.action}|${event.resourceId?.toLowerCase() ?? null}|${event.ip}`;

/** The append-only audit log (who, what, when, from where); never the health data itself. */
export function createAuditRepository(db: Executor) {
  return {
    async record(event: AuditEvent): Promise<void> {
      if (!isOwnRead(event)) await db.insert(auditLog).values(event);
      else await (ownReadCounters.get(db)?.record(event) ?? recordOwnRead(db, event));
    },

    /**
     * Logs a refused attempt in the log of the patient it targeted. An id that names no account
     * (a guess) has no patient to tell, so nothing is written for it.
     */
    async recordRefusal(event: Omit<AuditEvent, "action">): Promise<void> {
      if (!UUID.test(event.userId)) return;
      const userId = event.userId.toLowerCase();
      const resourceId =
        event.resourceId && UUID.test(event.resourceId) ? event.resourceId.toLowerCase() : null;
      const key = `${userId}|${event.actorUserId}|${event.resourceType}|${resourceId}`;
      // One refusal at a time per actor and target in this process, so a burst finds its own row.
      await serialized(key, async () => {
        // A burst of refusals of one actor on one piece of a patient's data is one row with a count
        // (REFUSAL_BURST_MS): a flood never buries the patient's log.
        const refusal = { ...event, userId, resourceId, action: "access.refused" as const };
        if (await countOnRecentRow(db, refusal)) return;
        await db.execute(sql`
          insert into audit_log (user_id, actor_user_id, actor_kind, action, resource_type, resource_id, ip, at)
          select id, ${event.actorUserId}::uuid, ${event.actorKind}, ${"access.refused" satisfies AuditAction},
            ${event.resourceType}, ${resourceId}::uuid, ${event.ip}, ${event.at.toISOString()}::timestamptz
          from users where id = ${userId}::uuid`);
      });
    },

    /**
     * A page of the patient's log, newest first. `actorName` is the provider's name for a row a
     * clinician wrote ("Ann Lee, MD"), null otherwise: a patient sees who of the care team acted.
     */
    async page(userId: string, page: number, perPage: number) {
      const rows = await db
        .select({
          id: auditLog.id,
          userId: auditLog.userId,
          actorUserId: auditLog.actorUserId,
          actorKind: auditLog.actorKind,
          action: auditLog.action,
          resourceType: auditLog.resourceType,
          resourceId: auditLog.resourceId,
          ip: auditLog.ip,
          count: auditLog.count,
          at: auditLog.at,
          actorName: sql<string | null>`case when ${auditLog.actorKind} = 'clinician' then
            ${providers.firstName} || ' ' || ${providers.lastName} || ', ' || ${providers.credentials} end`,
        })
        .from(auditLog)
        .leftJoin(clinicians, eq(clinicians.userId, auditLog.actorUserId))
        .leftJoin(providers, eq(providers.id, clinicians.providerId))
        .where(eq(auditLog.userId, userId))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(perPage)
        .offset((page - 1) * perPage);
      const [total] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.userId, userId));
      return { rows, total: total?.n ?? 0 };
    },
  };
}

/** The account behind the request's token, as the audit log names it; null when anonymous. */
function actorOf(request: FastifyRequest): { userId: string; kind: AuditEvent["actorKind"] } | null {
  const auth = request.auth;
  if (!auth) return null;
  if (auth.isServiceAccount) return { userId: auth.userId, kind: "system" };
  return { userId: auth.userId, kind: auth.role === "patient" ? "patient" : auth.role };
}

/**
 * Records that the clinician behind `request` (a route behind `guards.clinician`) read or wrote a
 * patient's data: the row lands in that patient's access log with the clinician's name. Call it in
 * the same transaction (`db`) as the read or write when there is one, before the answer leaves.
 */
export async function auditClinicianAccess(
  request: FastifyRequest,
  access: { patientUserId: string; action: AuditAction; resource: AuditResource; resourceId?: string | null },
  db: Executor = request.server.db.db,
): Promise<void> {
  const actor = actorOf(request);
  if (actor?.kind !== "clinician") throw new Error("auditClinicianAccess needs a clinician's request");
  await createAuditRepository(db).record({
    userId: access.patientUserId,
    actorUserId: actor.userId,
    actorKind: "clinician",
    action: access.action,
    resourceType: access.resource,
    resourceId: access.resourceId ?? null,
    ip: request.ip,
    at: request.server.clock.now(),
  });
}

/** Writes a refused attempt on another patient's data (see AppError's `refusedAccess`). */
export async function auditRefusal(request: FastifyRequest, refusal: RefusedAccess): Promise<void> {
  const actor = actorOf(request);
  if (!actor) return;
  await createAuditRepository(request.server.db.db).recordRefusal({
    userId: refusal.ownerUserId,
    actorUserId: actor.userId,
    actorKind: actor.kind,
    resourceType: refusal.resourceType,
    resourceId: refusal.resourceId,
    ip: request.ip,
    at: request.server.clock.now(),
  });
}

/** How often the counts of repeated own reads held in memory are written (ADR 072). */
export const OWN_READ_FLUSH_MS = 5_000;
/** How many rows an API process counts own reads on in memory at most (ADR 072). */
export const OWN_READ_MAX_ROWS = 10_000;

/** A row this process wrote or counted a patient's own read on, and the reads not yet written to it. */
type HeldRow = CountingRow & { userId: string; pending: number };

export type OwnReadCounter = ReturnType<typeof createOwnReadCounter>;

/**
 * The counter of an app's own database handle: a patient's own read logged through it (outside a
 * transaction) is counted there; one logged in a transaction is written with the transaction.
 */
const ownReadCounters = new WeakMap<Executor, OwnReadCounter>();

/**
 * A patient's own repeated reads, cheap (ADR 072): the first read of a piece of their data from an
 * address within REFUSAL_BURST_MS is logged before the answer leaves (a row, or one more on the row
 * another process wrote), and the later ones on that row while it is fresh are counted in memory and
 * added to it every `flushMs` (`count = count + n`, so the counts of several processes add up), on
 * `flush`, and on close. A failed write keeps the counts for the next try; at most `maxRows` rows are
 * held, and a read that finds no room is logged synchronously, as any read was before.
 */
export function createOwnReadCounter(
  db: Executor,
  options: { clock: Clock; log: FastifyBaseLogger; flushMs?: number; maxRows?: number },
) {
  const held = new Map<string, HeldRow>();
  const maxRows = options.maxRows ?? OWN_READ_MAX_ROWS;
  let writing: Promise<unknown> = Promise.resolve();

  /** One write at a time, so a count is never taken by two writes. */
  function exclusively(work: () => Promise<void>): Promise<void> {
    const next = writing.then(work, work);
    writing = next.catch(() => undefined);
    return next;
  }

  /** Adds the pending counts of the held rows `which` picks; throws on the first failed write. */
  const write = (which: (row: HeldRow) => boolean) =>
    exclusively(async () => {
      for (const row of held.values()) {
        if (row.pending === 0 || !which(row)) continue;
        const n = row.pending;
        await db.execute(sql`update audit_log set count = count + ${n} where id = ${row.id}::uuid`);
        row.pending -= n;
      }
      // A row past its window takes no more reads; with nothing pending it is let go.
      const now = options.clock.now().getTime();
      for (const [key, row] of held) {
        if (row.pending === 0 && now - row.atMs >= REFUSAL_BURST_MS) held.delete(key);
      }
    });

  /** Room for one more row: stale rows go, then the fresh ones with nothing pending (oldest first). */
  function makeRoom(): boolean {
    const now = options.clock.now().getTime();
    for (const [key, row] of held) {
      if (row.pending === 0 && now - row.atMs >= REFUSAL_BURST_MS) held.delete(key);
    }
    for (const [key, row] of held) {
      if (held.size < maxRows) break;
      if (row.pending === 0) held.delete(key);
    }
    return held.size < maxRows;
  }

  /** Writes all pending counts now; a failure is logged and the counts kept for the next try. */
  async function flush(): Promise<boolean> {
    try {
      await write(() => true);
      return true;
    } catch (error) {
      options.log.warn({ err: error }, "the counts of patients' repeated reads could not be written yet");
      return false;
    }
  }

  const timer = setInterval(() => void flush(), options.flushMs ?? OWN_READ_FLUSH_MS);
  timer.unref();

  return {
    async record(event: AuditEvent): Promise<void> {
      const key = ownReadKey(event);
      const row = held.get(key);
      if (row && event.at.getTime() - row.atMs < REFUSAL_BURST_MS) {
        row.pending += 1;
        return;
      }
      const counted = await recordOwnRead(db, event);
      const before = held.get(key);
      // A read of the same key logged meanwhile already holds this row.
      if (before?.id === counted.id) return;
      // A row past its window keeps its pending counts until they are written.
      if (before && before.pending > 0) held.set(`${key}|${before.id}`, before);
      held.delete(key);
      if (held.size >= maxRows && !makeRoom()) {
        void flush();
        return;
      }
      held.set(key, { ...counted, userId: event.userId, pending: 0 });
    },
    flush,
    /** Writes the pending counts of one patient's rows (before their access log is read); throws on failure. */
    flushPatient: (userId: string) => write((row) => row.userId === userId),
    /** Reads counted in memory, not yet written (for tests and the bench). */
    pending: () => [...held.values()].reduce((sum, row) => sum + row.pending, 0),
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

/**
 * Audits the routes that declare `config.audit`: before a successful answer leaves, the read or
 * write is logged, so no patient's data goes out unrecorded (a failed insert fails the request).
 */
export function registerAuditHooks(app: FastifyInstance): void {
  const ownReads = createOwnReadCounter(app.db.db, { clock: app.clock, log: app.log });
  app.decorate("ownReads", ownReads);
  ownReadCounters.set(app.db.db, ownReads);
  // The counts held in memory are written before the database closes (server.ts closes it after).
  app.addHook("onClose", async () => {
    if (ownReadCounters.get(app.db.db) === ownReads) ownReadCounters.delete(app.db.db);
    await ownReads.close();
  });
  app.addHook("onSend", async (request, reply, payload) => {
    const audit = request.routeOptions.config.audit;
    const actor = actorOf(request);
    if (!audit || !actor || actor.kind !== "patient" || reply.statusCode >= 400) return payload;
    await createAuditRepository(app.db.db).record({
      userId: actor.userId,
      actorUserId: actor.userId,
      actorKind: "patient",
      action: audit.action,
      resourceType: audit.resource,
      resourceId: null,
      ip: request.ip,
      at: app.clock.now(),
    });
    return payload;
  });
}
