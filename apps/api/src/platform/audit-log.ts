import type { AuditAction, AuditResource } from "@ambercare/contracts/consultation-limits";
import type { Executor } from "@ambercare/db/client";
import { auditLog } from "@ambercare/db/schema";
import { count, desc, eq } from "drizzle-orm";

export type AuditEvent = {
  /** The patient whose health data was read or written. */
  userId: string;
  actorUserId: string;
  actorKind: "patient" | "provider" | "system";
  action: AuditAction;
  resourceType: AuditResource;
  resourceId: string | null;
  ip: string | null;
  at: Date;
};

/** The append-only audit log (who, what, when, from where); never the health data itself. */
export function createAuditRepository(db: Executor) {
  return {
    async record(event: AuditEvent): Promise<void> {
      await db.insert(auditLog).values(event);
    },

    async page(userId: string, page: number, perPage: number) {
      const rows = await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.userId, userId))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(perPage)
        .offset((page - 1) * perPage);
      const [total] = await db.select({ n: count() }).from(auditLog).where(eq(auditLog.userId, userId));
      return { rows, total: total?.n ?? 0 };
    },
  };
}
