import type { SaveVisitNotesRequest, VisitNotes } from "@ambercare/contracts/console";
import type { Executor } from "@ambercare/db/client";
import { clinicians, providers, visitNoteAddenda, visitNotes } from "@ambercare/db/schema";
import { and, asc, eq, isNull, sql } from "drizzle-orm";

/**
 * A visit's SOAP notes and their addenda. A save is one conditional write on the version it was
 * based on, so of two saves from the same version only the first lands; signing stamps the row
 * once, and a signed row is never written again.
 */
export function createVisitNotesRepository(db: Executor) {
  return {
    async read(consultationId: string): Promise<VisitNotes> {
      const [row] = await db.select().from(visitNotes).where(eq(visitNotes.consultationId, consultationId));
      const addenda = await db
        .select({
          id: visitNoteAddenda.id,
          body: visitNoteAddenda.body,
          signedAt: visitNoteAddenda.signedAt,
          signedBy: sql<string>`coalesce(${providers.firstName} || ' ' || ${providers.lastName} || ', ' || ${providers.credentials}, '')`,
        })
        .from(visitNoteAddenda)
        .leftJoin(clinicians, eq(clinicians.userId, visitNoteAddenda.authorUserId))
        .leftJoin(providers, eq(providers.id, clinicians.providerId))
        .where(eq(visitNoteAddenda.consultationId, consultationId))
        .orderBy(asc(visitNoteAddenda.signedAt), asc(visitNoteAddenda.id));
      return {
        subjective: row?.subjective ?? "",
        objective: row?.objective ?? "",
        assessment: row?.assessment ?? "",
        plan: row?.plan ?? "",
        version: row?.version ?? 0,
        updated_at: row?.updatedAt.toISOString() ?? null,
        signed_at: row?.signedAt?.toISOString() ?? null,
        addenda: addenda.map((addendum) => ({
          id: addendum.id,
          body: addendum.body,
          signed_by: addendum.signedBy,
          signed_at: addendum.signedAt.toISOString(),
        })),
      };
    },

    /** Writes the text when `version` is still the stored one and the notes are unsigned; false otherwise. */
    async save(consultationId: string, input: SaveVisitNotesRequest, at: Date): Promise<boolean> {
      const text = {
        subjective: input.subjective,
        objective: input.objective,
        assessment: input.assessment,
        plan: input.plan,
      };
      if (input.version === 0) {
        const inserted = await db
          .insert(visitNotes)
          .values({ consultationId, ...text, version: 1, updatedAt: at })
          .onConflictDoNothing()
          .returning({ version: visitNotes.version });
        return inserted.length === 1;
      }
      const updated = await db
        .update(visitNotes)
        .set({ ...text, version: input.version + 1, updatedAt: at })
        .where(
          and(
            eq(visitNotes.consultationId, consultationId),
            eq(visitNotes.version, input.version),
            isNull(visitNotes.signedAt),
          ),
        )
        .returning({ version: visitNotes.version });
      return updated.length === 1;
    },

    /** Locks the notes as they are (an empty row when none was saved); run with the completion. */
    async sign(consultationId: string, userId: string, at: Date): Promise<void> {
      await db
        .insert(visitNotes)
        .values({ consultationId, version: 1, updatedAt: at, signedAt: at, signedBy: userId })
        .onConflictDoUpdate({
          target: visitNotes.consultationId,
          set: { signedAt: at, signedBy: userId },
          setWhere: isNull(visitNotes.signedAt),
        });
    },

    async addAddendum(consultationId: string, userId: string, body: string, at: Date): Promise<void> {
      await db.insert(visitNoteAddenda).values({ consultationId, authorUserId: userId, body, signedAt: at });
    },
  };
}
