import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { CONSULTATION_ERRORS, type MedicalDocument } from "@ambercare/contracts/consultation";
import {
  DOCUMENT_FILE_NAME_MAX_LENGTH,
  DOCUMENT_MAX_BYTES,
  type DocumentContentType,
} from "@ambercare/contracts/consultation-limits";
import type { Database } from "@ambercare/db/client";
import { medicalDocuments } from "@ambercare/db/schema";
import { desc, eq } from "drizzle-orm";
import type { Caller } from "#api/modules/consultations/consultation-service.ts";
import { createAuditRepository } from "#api/platform/audit-log.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/** The content type a file's first bytes prove, or null when it is none of PDF, JPEG and PNG. */
export function detectDocumentType(bytes: Uint8Array): DocumentContentType | null {
  const starts = (signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf"; // "%PDF-"
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  return null;
}

/**
 * A file name fit to store and to send back in Content-Disposition: no path, no control
 * characters, at most DOCUMENT_FILE_NAME_MAX_LENGTH characters. Null when nothing is left.
 */
export function cleanFileName(raw: string): string | null {
  const base = raw.split(/[\\/]/).pop() ?? "";
  // Control characters (below U+0020 and U+007F) and quotes go: they could split a header.
  const cleaned = [...base]
    .filter((char) => char.charCodeAt(0) >= 0x20 && char.charCodeAt(0) !== 0x7f && char !== '"')
    .join("")
    .trim()
    .slice(0, DOCUMENT_FILE_NAME_MAX_LENGTH);
  return cleaned === "" || cleaned === "." || cleaned === ".." ? null : cleaned;
}

type DocumentRow = typeof medicalDocuments.$inferSelect;

export const toDocument = (row: DocumentRow): MedicalDocument => ({
  id: row.id,
  file_name: row.fileName,
  content_type: row.contentType,
  size: row.sizeBytes,
  sha256: row.sha256,
  created_at: row.createdAt.toISOString(),
});

/**
 * Documents a patient uploads to their medical records. The bytes are stored in
 * `${dataDir}/uploads` (never served by the web server) under a random key; only the owner can
 * list, download or delete them, and each of those is audited.
 */
export function createMedicalDocumentService(deps: { db: Database; clock: Clock; dataDir: string }) {
  const uploadDir = join(deps.dataDir, "uploads");
  const pathOf = (storageKey: string) => join(uploadDir, storageKey);

  const patientOnly = (caller: Caller) => {
    if (caller.auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
  };

  const audit = (
    caller: Caller,
    action: "document.upload" | "document.list" | "document.download" | "document.delete",
    id: string | null,
  ) =>
    createAuditRepository(deps.db).record({
      userId: caller.auth.userId,
      actorUserId: caller.auth.userId,
      actorKind: "patient",
      action,
      resourceType: "document",
      resourceId: id,
      ip: caller.ip,
      at: deps.clock.now(),
    });

  async function own(caller: Caller, id: string): Promise<DocumentRow> {
    patientOnly(caller);
    const [row] = await deps.db
      .select()
      .from(medicalDocuments)
      .where(eq(medicalDocuments.id, id.toLowerCase()));
    if (!row) throw new AppError("DOCUMENT_NOT_FOUND", 404, CONSULTATION_ERRORS.documentNotFound);
    if (row.userId !== caller.auth.userId) {
      throw new AppError("DOCUMENT_NOT_YOURS", 403, CONSULTATION_ERRORS.documentNotYours, {
        refusedAccess: { ownerUserId: row.userId, resourceType: "document", resourceId: row.id },
      });
    }
    return row;
  }

  /**
   * Checks and stores a file as one of `owner`'s medical documents (the visit's patient, whoever
   * sent it); `consultationId` ties a file sent in a visit's thread to that visit. `recordUpload`
   * writes the upload to the patient's audit log as the sender (patient or clinician).
   */
  async function store(
    owner: { userId: string; consultationId: string | null },
    rawFileName: string | undefined,
    bytes: Buffer,
    recordUpload: (documentId: string) => Promise<void>,
  ): Promise<MedicalDocument> {
    const fileName = rawFileName === undefined ? null : cleanFileName(rawFileName);
    if (!fileName) throw new AppError("DOCUMENT_NAME_MISSING", 400, CONSULTATION_ERRORS.documentName);
    if (bytes.length === 0) throw new AppError("DOCUMENT_EMPTY", 400, CONSULTATION_ERRORS.documentEmpty);
    if (bytes.length > DOCUMENT_MAX_BYTES) {
      throw new AppError("DOCUMENT_TOO_LARGE", 413, CONSULTATION_ERRORS.documentTooLarge);
    }
    const contentType = detectDocumentType(bytes);
    if (!contentType) throw new AppError("DOCUMENT_TYPE_UNSUPPORTED", 415, CONSULTATION_ERRORS.documentType);

    const storageKey = randomBytes(24).toString("hex");
    await mkdir(uploadDir, { recursive: true, mode: 0o700 });
    await writeFile(pathOf(storageKey), bytes, { mode: 0o600, flag: "wx" });
    try {
      const [row] = await deps.db
        .insert(medicalDocuments)
        .values({
          userId: owner.userId,
          consultationId: owner.consultationId,
          fileName,
          contentType,
          sizeBytes: bytes.length,
          storageKey,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          createdAt: deps.clock.now(),
        })
        .returning();
      await recordUpload(row!.id);
      return toDocument(row!);
    } catch (error) {
      await rm(pathOf(storageKey), { force: true });
      throw error;
    }
  }

  return {
    store,

    async upload(caller: Caller, rawFileName: string | undefined, bytes: Buffer): Promise<MedicalDocument> {
      patientOnly(caller);
      return store({ userId: caller.auth.userId, consultationId: null }, rawFileName, bytes, (id) =>
        audit(caller, "document.upload", id),
      );
    },

    /** The bytes of a stored document, for a caller whose right to it was checked elsewhere. */
    async bytesOf(storageKey: string): Promise<Buffer> {
      return readFile(pathOf(storageKey));
    },

    async list(caller: Caller): Promise<MedicalDocument[]> {
      patientOnly(caller);
      const rows = await deps.db
        .select()
        .from(medicalDocuments)
        .where(eq(medicalDocuments.userId, caller.auth.userId))
        .orderBy(desc(medicalDocuments.createdAt), desc(medicalDocuments.id));
      await audit(caller, "document.list", null);
      return rows.map(toDocument);
    },

    async download(caller: Caller, id: string): Promise<{ document: MedicalDocument; bytes: Buffer }> {
      const row = await own(caller, id);
      const bytes = await readFile(pathOf(row.storageKey));
      await audit(caller, "document.download", row.id);
      return { document: toDocument(row), bytes };
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const row = await own(caller, id);
      await deps.db.delete(medicalDocuments).where(eq(medicalDocuments.id, row.id));
      await rm(pathOf(row.storageKey), { force: true });
      await audit(caller, "document.delete", row.id);
    },
  };
}

export type MedicalDocumentService = ReturnType<typeof createMedicalDocumentService>;
