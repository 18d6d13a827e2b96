import type { MessageAuthor } from "@ambercare/contracts/consultation-limits";
import type { Executor } from "@ambercare/db/client";
import {
  clinicians,
  consultationMessageAttachments,
  consultationMessages,
  consultations,
  medicalDocuments,
} from "@ambercare/db/schema";
import { and, asc, eq, gt, inArray, isNull, lte, ne, sql } from "drizzle-orm";

export type ThreadMessageRow = typeof consultationMessages.$inferSelect;

export type AttachmentRow = {
  messageId: string;
  id: string;
  fileName: string;
  contentType: (typeof medicalDocuments.$inferSelect)["contentType"];
  sizeBytes: number;
};

/** A visit's thread: messages in the server's order, their receipts, retractions and files. */
export function createVisitChatRepository(db: Executor) {
  return {
    /**
     * What decides who may read and write; locked until the transaction ends when `lock` is set.
     * With it, in the same read, the active clinician accounts of the visit's provider (who hear of
     * every change once it accepted the visit).
     */
    async visit(id: string, lock = false) {
      const query = db
        .select({
          id: consultations.id,
          userId: consultations.userId,
          providerId: consultations.providerId,
          status: consultations.status,
          acceptedAt: consultations.acceptedAt,
          completedAt: consultations.completedAt,
          // Spelled out: in a one-table select the builder leaves columns unqualified, and an
          // unqualified provider_id inside the subquery would be the clinician's own.
          providerClinicianIds: sql<string[]>`array(
            select working.user_id::text from clinicians working
            where working.provider_id = consultations.provider_id and working.disabled_at is null
            order by working.user_id)`,
        })
        .from(consultations)
        .where(eq(consultations.id, id));
      const [row] = lock ? await query.for("update") : await query;
      return row;
    },

    /** The active clinician accounts of a provider (one: a provider has at most one account). */
    async clinicianUserIds(providerId: string): Promise<string[]> {
      const rows = await db
        .select({ userId: clinicians.userId })
        .from(clinicians)
        .where(and(eq(clinicians.providerId, providerId), isNull(clinicians.disabledAt)));
      return rows.map((row) => row.userId);
    },

    /** The provider an active clinician account works as; undefined for anyone else. */
    async providerOfClinician(userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ providerId: clinicians.providerId })
        .from(clinicians)
        .where(and(eq(clinicians.userId, userId), isNull(clinicians.disabledAt)));
      return row?.providerId;
    },

    async byClientId(consultationId: string, clientId: string): Promise<ThreadMessageRow | undefined> {
      const [row] = await db
        .select()
        .from(consultationMessages)
        .where(
          and(
            eq(consultationMessages.consultationId, consultationId),
            eq(consultationMessages.clientId, clientId),
          ),
        );
      return row;
    },

    async byId(consultationId: string, id: string): Promise<ThreadMessageRow | undefined> {
      const [row] = await db
        .select()
        .from(consultationMessages)
        .where(and(eq(consultationMessages.consultationId, consultationId), eq(consultationMessages.id, id)));
      return row;
    },

    /**
     * Adds a message with the thread's next sequence number, computed in the same statement; callers
     * hold the consultation row's lock so two writers queue up.
     */
    async insertNext(
      values: Omit<typeof consultationMessages.$inferInsert, "seq">,
    ): Promise<ThreadMessageRow> {
      const next = sql<number>`(select coalesce(max(${consultationMessages.seq}), 0) + 1 from ${consultationMessages} where ${consultationMessages.consultationId} = ${values.consultationId})`;
      const [row] = await db
        .insert(consultationMessages)
        .values({ ...values, seq: next })
        .returning();
      return row!;
    },

    async list(consultationId: string, after: number): Promise<ThreadMessageRow[]> {
      return db
        .select()
        .from(consultationMessages)
        .where(
          and(eq(consultationMessages.consultationId, consultationId), gt(consultationMessages.seq, after)),
        )
        .orderBy(asc(consultationMessages.seq));
    },

    async attachmentsOf(messageIds: string[]): Promise<AttachmentRow[]> {
      if (messageIds.length === 0) return [];
      return db
        .select({
          messageId: consultationMessageAttachments.messageId,
          id: medicalDocuments.id,
          fileName: medicalDocuments.fileName,
          contentType: medicalDocuments.contentType,
          sizeBytes: medicalDocuments.sizeBytes,
        })
        .from(consultationMessageAttachments)
        .innerJoin(medicalDocuments, eq(medicalDocuments.id, consultationMessageAttachments.documentId))
        .where(inArray(consultationMessageAttachments.messageId, messageIds))
        .orderBy(asc(medicalDocuments.createdAt), asc(medicalDocuments.id));
    },

    /** Of `ids`, the files uploaded to this visit's thread and not yet sent in a message. */
    async unsentUploads(consultationId: string, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select({ id: medicalDocuments.id })
        .from(medicalDocuments)
        .leftJoin(
          consultationMessageAttachments,
          eq(consultationMessageAttachments.documentId, medicalDocuments.id),
        )
        .where(
          and(
            eq(medicalDocuments.consultationId, consultationId),
            inArray(medicalDocuments.id, ids),
            isNull(consultationMessageAttachments.messageId),
          ),
        );
      return rows.map((row) => row.id);
    },

    async attach(messageId: string, documentIds: string[]): Promise<void> {
      if (documentIds.length === 0) return;
      await db
        .insert(consultationMessageAttachments)
        .values(documentIds.map((documentId) => ({ messageId, documentId })));
    },

    /** A file sent in this visit's thread (linked to one of its messages), with where its bytes are. */
    async sentAttachment(consultationId: string, documentId: string) {
      const [row] = await db
        .select({
          id: medicalDocuments.id,
          userId: medicalDocuments.userId,
          fileName: medicalDocuments.fileName,
          contentType: medicalDocuments.contentType,
          sizeBytes: medicalDocuments.sizeBytes,
          sha256: medicalDocuments.sha256,
          storageKey: medicalDocuments.storageKey,
          createdAt: medicalDocuments.createdAt,
        })
        .from(consultationMessageAttachments)
        .innerJoin(medicalDocuments, eq(medicalDocuments.id, consultationMessageAttachments.documentId))
        .innerJoin(
          consultationMessages,
          eq(consultationMessages.id, consultationMessageAttachments.messageId),
        )
        .where(
          and(eq(consultationMessages.consultationId, consultationId), eq(medicalDocuments.id, documentId)),
        );
      return row;
    },

    /**
     * The reader's receipt for what the other party wrote up to `upTo`: "read" implies delivered.
     * Only unset receipts change, so an older or repeated acknowledgement moves nothing back.
     */
    async acknowledge(
      consultationId: string,
      reader: MessageAuthor,
      receipt: "delivered" | "read",
      upTo: number,
      at: Date,
    ): Promise<number> {
      const theirs = and(
        eq(consultationMessages.consultationId, consultationId),
        ne(consultationMessages.author, reader),
        lte(consultationMessages.seq, upTo),
      );
      const delivered = await db
        .update(consultationMessages)
        .set({ deliveredAt: at })
        .where(and(theirs, isNull(consultationMessages.deliveredAt)))
        .returning({ id: consultationMessages.id });
      if (receipt === "delivered") return delivered.length;
      const read = await db
        .update(consultationMessages)
        .set({ readAt: at })
        .where(and(theirs, isNull(consultationMessages.readAt)))
        .returning({ id: consultationMessages.id });
      return read.length;
    },

    async retract(id: string, at: Date): Promise<ThreadMessageRow> {
      const [row] = await db
        .update(consultationMessages)
        .set({
          retractedAt: sql`coalesce(${consultationMessages.retractedAt}, ${at.toISOString()}::timestamptz)`,
        })
        .where(eq(consultationMessages.id, id))
        .returning();
      return row!;
    },
  };
}
