import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import {
  CONSULTATION_ERRORS,
  type MedicalDocument,
  type Message,
  type messageReceiptRequest,
} from "@ambercare/contracts/consultation";
import type { Database, Executor } from "@ambercare/db/client";
import type { z } from "zod";
import type { Caller } from "#api/modules/consultations/consultation-service.ts";
import type { MedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import {
  type AttachmentRow,
  createVisitChatRepository,
  type ThreadMessageRow,
} from "#api/modules/consultations/visit-chat-repository.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Which provider a clinician account works for, and which accounts work for a provider. Filled by
 * the care team's clinician accounts; without it only the visit's patient takes part.
 */
export type VisitClinicians = {
  providerIdOf(userId: string): Promise<string | null>;
  userIdsOf(providerId: string): Promise<string[]>;
};

/** Sends an event (ids only) to the open pages of the recipients, inside the write's transaction. */
export type VisitEvents = {
  publish(
    recipientUserIds: readonly string[],
    topic: "visit.message" | "visit.receipt",
    payload: Record<string, unknown>,
    tx?: Executor,
  ): Promise<unknown>;
};

/** Statuses in which the visit's clinician has taken it on and may read and write its thread. */
const CLINICIAN_STATUSES: readonly string[] = ["assigned", "accepted", "in_progress", "completed"];
/** Visits that never took place: their thread is kept but nobody answers in it any more. */
const ENDED_UNHELD: readonly string[] = ["canceled", "expired"];

type Visit = NonNullable<Awaited<ReturnType<ReturnType<typeof createVisitChatRepository>["visit"]>>>;
type Participant = { role: "patient" | "provider"; visit: Visit };

export type ReceiptInput = z.output<typeof messageReceiptRequest>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toMessage(row: ThreadMessageRow, attachments: AttachmentRow[]): Message {
  return {
    id: row.id,
    consultation_id: row.consultationId,
    seq: row.seq,
    client_id: row.clientId,
    author: row.author,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    delivered_at: iso(row.deliveredAt),
    read_at: iso(row.readAt),
    retracted_at: iso(row.retractedAt),
    attachments: attachments
      .filter((file) => file.messageId === row.id)
      .map((file) => ({
        id: file.id,
        file_name: file.fileName,
        content_type: file.contentType,
        size: file.sizeBytes,
      })),
  };
}

/**
 * A visit's chat (ADR on visit chat): the patient and the clinician who took the visit on write
 * to it; the server numbers the messages; a resend with the same client id finds the stored
 * message; receipts, retractions and files; the thread closes VISIT_FOLLOW_UP_DAYS after the visit
 * was completed and at once when it was canceled or expired.
 */
export function createVisitChatService(deps: {
  db: Database;
  clock: Clock;
  followUpDays: number;
  documents: MedicalDocumentService;
  clinicians?: VisitClinicians | undefined;
  events?: VisitEvents | undefined;
}) {
  async function participant(db: Executor, caller: Caller, id: string, lock = false): Promise<Participant> {
    if (caller.auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
    const visit = await createVisitChatRepository(db).visit(id.toLowerCase(), lock);
    if (!visit) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    if (visit.userId === caller.auth.userId) return { role: "patient", visit };
    if (
      deps.clinicians &&
      visit.providerId &&
      CLINICIAN_STATUSES.includes(visit.status) &&
      (await deps.clinicians.providerIdOf(caller.auth.userId)) === visit.providerId
    ) {
      return { role: "provider", visit };
    }
    throw new AppError("CONSULTATION_NOT_YOURS", 403, CONSULTATION_ERRORS.notYours, {
      refusedAccess: { ownerUserId: visit.userId, resourceType: "consultation", resourceId: visit.id },
    });
  }

  /** 409 unless the thread still takes messages. */
  function assertOpen(visit: Visit) {
    if (visit.status === "canceled") {
      throw new AppError("CONSULTATION_CANCELED", 409, CONSULTATION_ERRORS.canceled);
    }
    if (ENDED_UNHELD.includes(visit.status)) {
      throw new AppError("VISIT_THREAD_READ_ONLY", 409, CONSULTATION_ERRORS.threadReadOnly);
    }
    if (
      visit.status === "completed" &&
      visit.completedAt &&
      deps.clock.now().getTime() > visit.completedAt.getTime() + deps.followUpDays * DAY_MS
    ) {
      throw new AppError("VISIT_THREAD_CLOSED", 409, CONSULTATION_ERRORS.threadClosed);
    }
  }

  /** The other side of the conversation: the clinicians of the visit's provider, or its patient. */
  async function othersOf(who: Participant): Promise<string[]> {
    if (who.role === "provider") return [who.visit.userId];
    if (!deps.clinicians || !who.visit.providerId || !CLINICIAN_STATUSES.includes(who.visit.status))
      return [];
    return deps.clinicians.userIdsOf(who.visit.providerId);
  }

  const audit = (
    db: Executor,
    caller: Caller,
    who: Participant,
    action: "message.list" | "message.create" | "message.retract" | "document.download",
    resourceType: "consultation" | "message" | "document",
    resourceId: string,
  ) =>
    createAuditRepository(db).record({
      userId: who.visit.userId,
      actorUserId: caller.auth.userId,
      actorKind: who.role,
      action,
      resourceType,
      resourceId,
      ip: caller.ip,
      at: deps.clock.now(),
    });

  async function withAttachments(db: Executor, rows: ThreadMessageRow[]): Promise<Message[]> {
    const files = await createVisitChatRepository(db).attachmentsOf(rows.map((row) => row.id));
    return rows.map((row) => toMessage(row, files));
  }

  return {
    /** The thread in the server's order, only after sequence number `after` when given (catch-up). */
    async list(caller: Caller, id: string, after = 0): Promise<Message[]> {
      const who = await participant(deps.db, caller, id);
      const rows = await createVisitChatRepository(deps.db).list(who.visit.id, after);
      await audit(deps.db, caller, who, "message.list", "consultation", who.visit.id);
      return withAttachments(deps.db, rows);
    },

    /**
     * Adds a message; `created` is false when this client id was already used by the same author
     * (a resend), and the stored message is returned unchanged.
     */
    async send(
      caller: Caller,
      id: string,
      input: { body: string; client_id?: string | undefined; attachment_ids?: string[] | undefined },
    ): Promise<{ created: boolean; message: Message }> {
      return deps.db.transaction(async (tx) => {
        const who = await participant(tx, caller, id, true);
        const repository = createVisitChatRepository(tx);
        const clientId = input.client_id?.toLowerCase() ?? null;
        if (clientId) {
          const earlier = await repository.byClientId(who.visit.id, clientId);
          if (earlier) {
            if (earlier.authorUserId !== caller.auth.userId) {
              throw new AppError("CLIENT_ID_REUSED", 409, CONSULTATION_ERRORS.clientIdReused);
            }
            return { created: false, message: (await withAttachments(tx, [earlier]))[0]! };
          }
        }
        assertOpen(who.visit);
        const wanted = [...new Set((input.attachment_ids ?? []).map((file) => file.toLowerCase()))];
        const files = await repository.unsentUploads(who.visit.id, wanted);
        if (files.length !== wanted.length) {
          throw new AppError("ATTACHMENT_NOT_FOUND", 422, CONSULTATION_ERRORS.attachmentNotFound);
        }
        const row = await repository.insert({
          consultationId: who.visit.id,
          seq: await repository.nextSeq(who.visit.id),
          clientId,
          author: who.role,
          authorUserId: caller.auth.userId,
          body: input.body,
          createdAt: deps.clock.now(),
        });
        await repository.attach(row.id, files);
        await audit(tx, caller, who, "message.create", "message", row.id);
        await deps.events?.publish(
          await othersOf(who),
          "visit.message",
          { consultation_id: who.visit.id, message_id: row.id, seq: row.seq, change: "created" },
          tx,
        );
        return { created: true, message: (await withAttachments(tx, [row]))[0]! };
      });
    },

    /** Stores a file for this visit's thread as one of the visit patient's medical documents. */
    async upload(
      caller: Caller,
      id: string,
      fileName: string | undefined,
      bytes: Buffer,
    ): Promise<MedicalDocument> {
      const who = await participant(deps.db, caller, id);
      assertOpen(who.visit);
      return deps.documents.store(
        { userId: who.visit.userId, consultationId: who.visit.id },
        { userId: caller.auth.userId, kind: who.role, ip: caller.ip },
        fileName,
        bytes,
      );
    },

    /** A file sent in this visit's thread, for either participant. */
    async download(caller: Caller, id: string, documentId: string) {
      const who = await participant(deps.db, caller, id);
      const file = await createVisitChatRepository(deps.db).sentAttachment(
        who.visit.id,
        documentId.toLowerCase(),
      );
      if (!file) throw new AppError("DOCUMENT_NOT_FOUND", 404, CONSULTATION_ERRORS.documentNotFound);
      const bytes = await deps.documents.bytesOf(file.storageKey);
      await audit(deps.db, caller, who, "document.download", "document", file.id);
      return { fileName: file.fileName, contentType: file.contentType, bytes };
    },

    /** The caller's receipt for the other party's messages up to `up_to_seq`. */
    async acknowledge(caller: Caller, id: string, input: ReceiptInput) {
      return deps.db.transaction(async (tx) => {
        const who = await participant(tx, caller, id);
        const updated = await createVisitChatRepository(tx).acknowledge(
          who.visit.id,
          who.role,
          input.receipt,
          input.up_to_seq,
          deps.clock.now(),
        );
        if (updated > 0) {
          await deps.events?.publish(
            await othersOf(who),
            "visit.receipt",
            { consultation_id: who.visit.id, receipt: input.receipt, up_to_seq: input.up_to_seq },
            tx,
          );
        }
        return { receipt: input.receipt, up_to_seq: input.up_to_seq, updated };
      });
    },

    /** Its author takes a message back: it stays in the thread, text included, marked retracted. */
    async retract(caller: Caller, id: string, messageId: string): Promise<Message> {
      return deps.db.transaction(async (tx) => {
        const who = await participant(tx, caller, id, true);
        const repository = createVisitChatRepository(tx);
        const row = await repository.byId(who.visit.id, messageId.toLowerCase());
        if (!row) throw new AppError("MESSAGE_NOT_FOUND", 404, CONSULTATION_ERRORS.messageNotFound);
        if (row.authorUserId !== caller.auth.userId) {
          throw new AppError("MESSAGE_NOT_YOURS", 403, CONSULTATION_ERRORS.messageNotYours);
        }
        if (row.retractedAt) return (await withAttachments(tx, [row]))[0]!;
        assertOpen(who.visit);
        const retracted = await repository.retract(row.id, deps.clock.now());
        await audit(tx, caller, who, "message.retract", "message", row.id);
        await deps.events?.publish(
          await othersOf(who),
          "visit.message",
          { consultation_id: who.visit.id, message_id: row.id, seq: row.seq, change: "retracted" },
          tx,
        );
        return (await withAttachments(tx, [retracted]))[0]!;
      });
    },

    /**
     * Who a `typing` frame from `userId` about this visit goes to: the other participant while the
     * thread is open, nobody otherwise (the frame is relayed, never stored).
     */
    async typingRecipients(userId: string, consultationId: string): Promise<string[]> {
      try {
        const who = await participant(
          deps.db,
          { auth: { userId, isServiceAccount: false } as Caller["auth"], ip: null },
          consultationId,
        );
        assertOpen(who.visit);
        return othersOf(who);
      } catch (error) {
        if (error instanceof AppError) return [];
        throw error;
      }
    },
  };
}

export type VisitChatService = ReturnType<typeof createVisitChatService>;
