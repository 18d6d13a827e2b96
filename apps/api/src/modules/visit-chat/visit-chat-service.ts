import {
  CONSULTATION_ERRORS,
  type MedicalDocument,
  type Message,
  type messageReceiptRequest,
} from "@ambercare/contracts/consultation";
import type { Database, Executor } from "@ambercare/db/client";
import type { z } from "zod";
import type { MedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import {
  type AttachmentRow,
  createVisitChatRepository,
  type ThreadMessageRow,
} from "#api/modules/visit-chat/visit-chat-repository.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sends an event (ids only) to the open pages of the recipients, inside the write's transaction. */
export type VisitEvents = {
  publish(
    recipientUserIds: readonly string[],
    topic: "visit.message" | "visit.receipt",
    payload: Record<string, unknown>,
    tx?: Executor,
    /** The writer: their own pages hear of it, their devices are not notified of it. */
    author?: string,
  ): Promise<unknown>;
};

/** One read or write of the patient's thread, for the patient's audit log. */
export type ChatAccess = {
  patientUserId: string;
  action: "message.list" | "message.create" | "message.retract" | "document.upload" | "document.download";
  resource: "consultation" | "message" | "document";
  resourceId: string;
};

/**
 * Who is reading or writing, as the routes established it: the patient (their own visits) or a
 * clinician (the visits their provider accepted). `audit` writes one access to the patient's log
 * under the viewer's name (the clinician's through `auditClinicianAccess`), in `db`'s transaction.
 */
export type ChatViewer = {
  side: "patient" | "clinician";
  userId: string;
  /** The clinician's provider; null for the patient. */
  providerId: string | null;
  audit(access: ChatAccess, db: Executor): Promise<void>;
};

/** Visits that never took place: their thread is kept but nobody answers in it any more. */
const ENDED_UNHELD: readonly string[] = ["canceled", "expired"];

type Visit = NonNullable<Awaited<ReturnType<ReturnType<typeof createVisitChatRepository>["visit"]>>>;

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
 * The 403 for someone outside a visit (its patient, or the clinician whose provider accepted it),
 * written to the visit patient's log as a refused access.
 */
export function refusedVisit(side: "patient" | "clinician", visit: { id: string; userId: string }): AppError {
  const refusedAccess = {
    ownerUserId: visit.userId,
    resourceType: "consultation" as const,
    resourceId: visit.id,
  };
  if (side === "clinician") {
    return new AppError("CONSULTATION_OTHER_CLINICIAN", 403, CONSULTATION_ERRORS.otherClinician, {
      refusedAccess,
    });
  }
  return new AppError("CONSULTATION_NOT_YOURS", 403, CONSULTATION_ERRORS.notYours, { refusedAccess });
}

/**
 * A visit's chat (ADR 036): the patient and the clinician whose provider accepted the visit write to
 * it; the server numbers the messages; a resend with the same client id finds the stored message;
 * receipts, retractions and files. The thread opens when a clinician accepts the visit, stays open
 * while it is in progress and for VISIT_FOLLOW_UP_DAYS after it was completed; a canceled or expired
 * visit's thread is read-only.
 */
export function createVisitChatService(deps: {
  db: Database;
  clock: Clock;
  followUpDays: number;
  documents: MedicalDocumentService;
  events?: VisitEvents | undefined;
}) {
  /** The visit if `viewer` takes part in it: its patient, or the clinician whose provider accepted it. */
  async function participant(db: Executor, viewer: ChatViewer, id: string, lock = false): Promise<Visit> {
    const visit = await createVisitChatRepository(db).visit(id.toLowerCase(), lock);
    if (!visit) throw new AppError("CONSULTATION_NOT_FOUND", 404, CONSULTATION_ERRORS.notFound);
    if (takesPart(visit, viewer.side, viewer.userId, viewer.providerId)) return visit;
    throw refusedVisit(viewer.side, visit);
  }

  function takesPart(
    visit: Visit,
    side: ChatViewer["side"],
    userId: string,
    providerId: string | null,
  ): boolean {
    if (side === "patient") return visit.userId === userId;
    return providerId !== null && visit.providerId === providerId && visit.acceptedAt !== null;
  }

  /** Why the thread takes no message now, or null while it is open. */
  function closedBecause(visit: Visit): AppError | null {
    if (visit.status === "requested") {
      return new AppError("VISIT_THREAD_NOT_OPEN", 409, CONSULTATION_ERRORS.threadNotOpen);
    }
    if (visit.status === "canceled") {
      return new AppError("CONSULTATION_CANCELED", 409, CONSULTATION_ERRORS.canceled);
    }
    if (ENDED_UNHELD.includes(visit.status)) {
      return new AppError("VISIT_THREAD_READ_ONLY", 409, CONSULTATION_ERRORS.threadReadOnly);
    }
    if (
      visit.status === "completed" &&
      (!visit.completedAt ||
        deps.clock.now().getTime() > visit.completedAt.getTime() + deps.followUpDays * DAY_MS)
    ) {
      return new AppError("VISIT_THREAD_CLOSED", 409, CONSULTATION_ERRORS.threadClosed);
    }
    return null;
  }

  /** 409 unless the thread still takes messages. */
  function assertOpen(visit: Visit): void {
    const closed = closedBecause(visit);
    if (closed) throw closed;
  }

  /** Both sides' accounts: the patient and the accepting provider's clinician (once accepted). */
  function participantsOf(visit: Visit): string[] {
    if (!visit.providerId || visit.acceptedAt === null) return [visit.userId];
    return [visit.userId, ...visit.providerClinicianIds];
  }

  async function withAttachments(db: Executor, rows: ThreadMessageRow[]): Promise<Message[]> {
    const files = await createVisitChatRepository(db).attachmentsOf(rows.map((row) => row.id));
    return rows.map((row) => toMessage(row, files));
  }

  return {
    /** The thread in the server's order, only after sequence number `after` when given (catch-up). */
    async list(viewer: ChatViewer, id: string, after = 0): Promise<Message[]> {
      const visit = await participant(deps.db, viewer, id);
      const rows = await createVisitChatRepository(deps.db).list(visit.id, after);
      await viewer.audit(
        {
          patientUserId: visit.userId,
          action: "message.list",
          resource: "consultation",
          resourceId: visit.id,
        },
        deps.db,
      );
      return withAttachments(deps.db, rows);
    },

    /**
     * Adds a message; `created` is false when this client id was already used by the same author
     * (a resend), and the stored message is returned unchanged.
     */
    async send(
      viewer: ChatViewer,
      id: string,
      input: { body: string; client_id?: string | undefined; attachment_ids?: string[] | undefined },
    ): Promise<{ created: boolean; message: Message }> {
      return deps.db.transaction(async (tx) => {
        const visit = await participant(tx, viewer, id, true);
        const repository = createVisitChatRepository(tx);
        const clientId = input.client_id?.toLowerCase() ?? null;
        if (clientId) {
          const earlier = await repository.byClientId(visit.id, clientId);
          if (earlier) {
            if (earlier.authorUserId !== viewer.userId) {
              throw new AppError("CLIENT_ID_REUSED", 409, CONSULTATION_ERRORS.clientIdReused);
            }
            return { created: false, message: (await withAttachments(tx, [earlier]))[0]! };
          }
        }
        assertOpen(visit);
        const wanted = [...new Set((input.attachment_ids ?? []).map((file) => file.toLowerCase()))];
        const files = await repository.unsentUploads(visit.id, wanted);
        if (files.length !== wanted.length) {
          throw new AppError("ATTACHMENT_NOT_FOUND", 422, CONSULTATION_ERRORS.attachmentNotFound);
        }
        const row = await repository.insertNext({
          consultationId: visit.id,
          clientId,
          author: viewer.side === "patient" ? "patient" : "provider",
          authorUserId: viewer.userId,
          body: input.body,
          createdAt: deps.clock.now(),
        });
        await repository.attach(row.id, files);
        await viewer.audit(
          { patientUserId: visit.userId, action: "message.create", resource: "message", resourceId: row.id },
          tx,
        );
        // Both sides: the other participant, and the writer's other open pages.
        await deps.events?.publish(
          participantsOf(visit),
          "visit.message",
          {
            consultation_id: visit.id,
            message_id: row.id,
            seq: row.seq,
            change: "created",
            // Files are the patient's documents too: the clinician's workspace lists them again.
            ...(files.length > 0 ? { attachments: files.length } : {}),
          },
          tx,
          viewer.userId,
        );
        // A message without files needs no read of them.
        const message = files.length > 0 ? (await withAttachments(tx, [row]))[0]! : toMessage(row, []);
        return { created: true, message };
      });
    },

    /** Stores a file for this visit's thread as one of the visit patient's medical documents. */
    async upload(
      viewer: ChatViewer,
      id: string,
      fileName: string | undefined,
      bytes: Buffer,
    ): Promise<MedicalDocument> {
      const visit = await participant(deps.db, viewer, id);
      assertOpen(visit);
      return deps.documents.store(
        { userId: visit.userId, consultationId: visit.id },
        fileName,
        bytes,
        (documentId) =>
          viewer.audit(
            {
              patientUserId: visit.userId,
              action: "document.upload",
              resource: "document",
              resourceId: documentId,
            },
            deps.db,
          ),
      );
    },

    /** A file sent in this visit's thread, for either participant. */
    async download(viewer: ChatViewer, id: string, documentId: string) {
      const visit = await participant(deps.db, viewer, id);
      const file = await createVisitChatRepository(deps.db).sentAttachment(
        visit.id,
        documentId.toLowerCase(),
      );
      if (!file) throw new AppError("DOCUMENT_NOT_FOUND", 404, CONSULTATION_ERRORS.documentNotFound);
      const bytes = await deps.documents.bytesOf(file.storageKey);
      await viewer.audit(
        {
          patientUserId: visit.userId,
          action: "document.download",
          resource: "document",
          resourceId: file.id,
        },
        deps.db,
      );
      return { fileName: file.fileName, contentType: file.contentType, bytes };
    },

    /** The caller's receipt for the other party's messages up to `up_to_seq`. */
    async acknowledge(viewer: ChatViewer, id: string, input: ReceiptInput) {
      return deps.db.transaction(async (tx) => {
        const visit = await participant(tx, viewer, id);
        const updated = await createVisitChatRepository(tx).acknowledge(
          visit.id,
          viewer.side === "patient" ? "patient" : "provider",
          input.receipt,
          input.up_to_seq,
          deps.clock.now(),
        );
        if (updated > 0) {
          await deps.events?.publish(
            participantsOf(visit),
            "visit.receipt",
            {
              consultation_id: visit.id,
              receipt: input.receipt,
              up_to_seq: input.up_to_seq,
              by: viewer.side,
            },
            tx,
          );
        }
        return { receipt: input.receipt, up_to_seq: input.up_to_seq, updated };
      });
    },

    /** Its author takes a message back: it stays in the thread, text included, marked retracted. */
    async retract(viewer: ChatViewer, id: string, messageId: string): Promise<Message> {
      return deps.db.transaction(async (tx) => {
        const visit = await participant(tx, viewer, id, true);
        const repository = createVisitChatRepository(tx);
        const row = await repository.byId(visit.id, messageId.toLowerCase());
        if (!row) throw new AppError("MESSAGE_NOT_FOUND", 404, CONSULTATION_ERRORS.messageNotFound);
        if (row.authorUserId !== viewer.userId) {
          throw new AppError("MESSAGE_NOT_YOURS", 403, CONSULTATION_ERRORS.messageNotYours);
        }
        if (row.retractedAt) return (await withAttachments(tx, [row]))[0]!;
        assertOpen(visit);
        const retracted = await repository.retract(row.id, deps.clock.now());
        await viewer.audit(
          { patientUserId: visit.userId, action: "message.retract", resource: "message", resourceId: row.id },
          tx,
        );
        await deps.events?.publish(
          participantsOf(visit),
          "visit.message",
          { consultation_id: visit.id, message_id: row.id, seq: row.seq, change: "retracted" },
          tx,
        );
        return (await withAttachments(tx, [retracted]))[0]!;
      });
    },

    /**
     * Where a typing indicator from `userId` about this visit goes: the other participant while the
     * thread is open; nobody when `userId` does not take part or the thread is closed. The
     * indicator is relayed, never stored. `side` is the typist's.
     */
    async typingRecipients(
      userId: string,
      consultationId: string,
    ): Promise<{ side: ChatViewer["side"]; recipients: string[] }> {
      const repository = createVisitChatRepository(deps.db);
      const visit = await repository.visit(consultationId.toLowerCase());
      if (!visit || closedBecause(visit)) return { side: "patient", recipients: [] };
      const side = visit.userId === userId ? "patient" : "clinician";
      const providerId =
        side === "clinician" ? ((await repository.providerOfClinician(userId)) ?? null) : null;
      if (!takesPart(visit, side, userId, providerId)) return { side, recipients: [] };
      const everyone = participantsOf(visit);
      return { side, recipients: everyone.filter((participantId) => participantId !== userId) };
    },
  };
}

export type VisitChatService = ReturnType<typeof createVisitChatService>;
