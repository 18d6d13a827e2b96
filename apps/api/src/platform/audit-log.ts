import type { AuditAction, AuditResource } from "@ambercare/contracts/consultation-limits";
import type { Executor } from "@ambercare/db/client";
import { auditLog, clinicians, providers } from "@ambercare/db/schema";
import { count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";

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

const chains = new Map<string, Promise<void>>();

/** Runs `work` after the previous work of `key` in this process has settled. */
function serialized(key: string, work: () => Promise<void>): Promise<void> {
  const previous = chains.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  chains.set(key, settled);
  void settled.then(() => {
    if (chains.get(key) === settled) chains.delete(key);
  });
  return next;
}

/**
 * Adds one to the `count` of the newest row of the same actor, action and piece of a patient's data
 * written within REFUSAL_BURST_MS of `event.at` (and matching `also`); false when there is none.
 */
async function countOnRecentRow(
  db: Executor,
  event: Pick<AuditEvent, "userId" | "actorUserId" | "action" | "resourceType" | "resourceId" | "at">,
  also: SQL = sql``,
): Promise<boolean> {
  const since = new Date(event.at.getTime() - REFUSAL_BURST_MS).toISOString();
  const counted = await db.execute(sql`
    update audit_log set count = count + 1
    where id = (
      select id from audit_log
      where user_id = ${event.userId}::uuid and actor_user_id = ${event.actorUserId}::uuid
        and action = ${event.action} and resource_type = ${event.resourceType}
        and resource_id is not distinct from ${event.resourceId}::uuid and at > ${since}::timestamptz
        ${also}
      order by at desc limit 1)
    returning id`);
  return counted.rows.length > 0;
}

/** The append-only audit log (who, what, when, from where); never the health data itself. */
export function createAuditRepository(db: Executor) {
  return {
    async record(event: AuditEvent): Promise<void> {
      if (!isOwnRead(event)) {
        await db.insert(auditLog).values(event);
        return;
      }
      const resourceId = event.resourceId?.toLowerCase() ?? null;
      const key = `own|${event.userId}|${event.action}|${resourceId}|${event.ip}`;
      await serialized(key, async () => {
        const counted = await countOnRecentRow(
          db,
          { ...event, resourceId, action: event.action },
          sql`and ip is not distinct from ${event.ip}`,
        );
        if (!counted) await db.insert(auditLog).values(event);
      });
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

/**
 * Audits the routes that declare `config.audit`: before a successful answer leaves, the read or
 * write is logged, so no patient's data goes out unrecorded (a failed insert fails the request).
 */
export function registerAuditHooks(app: FastifyInstance): void {
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
