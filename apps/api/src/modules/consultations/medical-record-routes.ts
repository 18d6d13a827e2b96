import { apiRoutes } from "@ambercare/contracts/api-routes";
import { CONSULTATION_ERRORS } from "@ambercare/contracts/consultation";
import {
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_FILE_NAME_HEADER,
  DOCUMENT_MAX_BYTES,
} from "@ambercare/contracts/consultation-limits";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { callerOf } from "#api/modules/consultations/consultation-routes.ts";
import { sendDocument } from "#api/platform/content-disposition.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * Lets the calling plugin (its scope only: nowhere else does the API take a raw body) accept a file
 * as the raw request body, at most DOCUMENT_MAX_BYTES.
 */
export function acceptRawUploads(app: FastifyInstance): void {
  app.addContentTypeParser(
    ["application/octet-stream", ...DOCUMENT_CONTENT_TYPES],
    { parseAs: "buffer", bodyLimit: DOCUMENT_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );
}

/** The uploaded file's bytes and its name from X-File-Name (percent-encoded). */
export function rawUpload(request: FastifyRequest): { fileName: string | undefined; bytes: Buffer } {
  const header = request.headers[DOCUMENT_FILE_NAME_HEADER];
  let fileName: string | undefined;
  try {
    fileName = typeof header === "string" ? decodeURIComponent(header) : undefined;
  } catch {
    throw new AppError("DOCUMENT_NAME_MISSING", 400, CONSULTATION_ERRORS.documentName);
  }
  // JSON, text or a form arrive parsed, not as bytes: none of them is a document.
  if (request.body !== undefined && !Buffer.isBuffer(request.body)) {
    throw new AppError("DOCUMENT_TYPE_UNSUPPORTED", 415, CONSULTATION_ERRORS.documentType);
  }
  return { fileName, bytes: (request.body as Buffer | undefined) ?? Buffer.alloc(0) };
}

/**
 * Patient-uploaded documents (docs/decisions/018). An upload is the file itself as the raw request
 * body (no multipart): `Content-Type: application/octet-stream` (or the file's own type, which is
 * not trusted) and its name, percent-encoded, in `X-File-Name`. The type is decided by the first
 * bytes; anything but PDF, JPEG or PNG is 415, more than 10 MB is 413.
 */
export const careMedicalRecordRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const documents = app.medicalDocuments;

  acceptRawUploads(app);

  const routes = apiRoutes.consultations;
  const patient = { onRequest: guards.patient };

  serve(app, routes.uploadDocument, { ...patient, bodyLimit: DOCUMENT_MAX_BYTES }, async (request, reply) => {
    const { fileName, bytes } = rawUpload(request);
    const data = await documents.upload(callerOf(request), fileName, bytes);
    return reply.code(201).send({ data });
  });

  serve(app, routes.listDocuments, patient, async (request) => {
    const data = await documents.list(callerOf(request));
    return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
  });

  serve(app, routes.downloadDocument, patient, async (request, reply) => {
    const { document, bytes } = await documents.download(callerOf(request), request.params.id);
    return sendDocument(reply, {
      fileName: document.file_name,
      contentType: document.content_type,
      bytes,
    });
  });

  serve(app, routes.deleteDocument, patient, async (request, reply) => {
    await documents.remove(callerOf(request), request.params.id);
    return reply.code(204).send(null);
  });
};
