import type { Executor } from "@ambercare/db/client";
import { clinicianSchedules, consultations, visitCallEvents } from "@ambercare/db/schema";
import { asc, eq } from "drizzle-orm";

/**
 * The reads and writes of a video visit's call: the visit, and the call's history (the clinician
 * accounts are the chat's repository's).
 */
export function createVideoCallRepository(db: Executor) {
  return {
    async visit(id: string) {
      const [row] = await db
        .select({
          id: consultations.id,
          userId: consultations.userId,
          providerId: consultations.providerId,
          type: consultations.type,
          status: consultations.status,
          acceptedAt: consultations.acceptedAt,
          scheduledStart: consultations.scheduledStart,
        })
        .from(consultations)
        .where(eq(consultations.id, id));
      return row;
    },

    /** The zone a clinician's hours are in (their schedule's); undefined without hours. */
    async clinicianTimeZone(clinicianUserId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ timeZone: clinicianSchedules.timeZone })
        .from(clinicianSchedules)
        .where(eq(clinicianSchedules.clinicianUserId, clinicianUserId));
      return row?.timeZone;
    },

    async record(row: typeof visitCallEvents.$inferInsert) {
      const [stored] = await db.insert(visitCallEvents).values(row).returning();
      return stored!;
    },

    /** The call's joins, leaves and reconnects, oldest first. */
    async history(consultationId: string) {
      return db
        .select()
        .from(visitCallEvents)
        .where(eq(visitCallEvents.consultationId, consultationId))
        .orderBy(asc(visitCallEvents.at), asc(visitCallEvents.id));
    },
  };
}
