import type {
  AuditEntry,
  Consultation,
  ConsultationDetail,
  CreateConsultationRequest,
  MedicalDocument,
  Message,
} from "@ambercare/contracts/consultation";
import { DOCUMENT_FILE_NAME_HEADER } from "@ambercare/contracts/consultation-limits";
import type { ListEnvelope } from "@ambercare/contracts/envelope";
import type { SubmitRatingRequest } from "@ambercare/contracts/provider";
import type { WaitingRoom } from "@ambercare/contracts/waiting-room";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

/**
 * The care API's consultations, messages, medical records and audit log, called with the patient's
 * own token. Every call names the visitor's address (signed, ADR 025), so the audit log records
 * where the patient was, not the web server's address.
 */

type Context = { clientIp?: string } | undefined;

export function consultationApi(request: Request, user: SessionUser, context: Context) {
  const api = userApi(request, user);
  const options = { headers: visitorHeaders(context) };
  return {
    async list(): Promise<Consultation[]> {
      return (await api.consultations.list({}, options)).data;
    },
    /** The most recent visits that were not canceled, with their intake answers, in one call. */
    async visitRecords(): Promise<ConsultationDetail[]> {
      return (await api.consultations.visitRecords({}, options)).data;
    },
    async get(id: string): Promise<ConsultationDetail> {
      return (await api.consultations.get({ params: { id } }, options)).data;
    },
    /** One visit as its waiting room shows it (status, place in line, who accepted it). */
    async waitingRoom(id: string): Promise<WaitingRoom> {
      return (await api.consultations.waitingRoom({ params: { id } }, options)).data;
    },
    async create(payload: CreateConsultationRequest): Promise<Consultation> {
      return (await api.consultations.create({ body: payload }, options)).data;
    },
    async cancel(id: string): Promise<Consultation> {
      return (await api.consultations.cancel({ params: { id } }, options)).data;
    },
    async messages(id: string): Promise<Message[]> {
      return (await api.consultations.messages({ params: { id }, query: {} }, options)).data;
    },
    async writeMessage(id: string, text: string): Promise<Message> {
      return (await api.consultations.writeMessage({ params: { id }, body: { body: text } }, options)).data;
    },
    async rate(input: SubmitRatingRequest): Promise<void> {
      await api.directory.submitRating({ body: input }, options);
    },
    async documents(): Promise<MedicalDocument[]> {
      return (await api.consultations.listDocuments({}, options)).data;
    },
    async deleteDocument(id: string): Promise<void> {
      await api.consultations.deleteDocument({ params: { id } }, options);
    },
    async auditLog(page = 1): Promise<ListEnvelope<AuditEntry>> {
      return api.consultations.auditLog({ query: { page: String(page) } }, options);
    },

    /** Sends the file's bytes as they are (the API checks type and size); throws ApiError on 4xx. */
    async uploadDocument(file: File): Promise<MedicalDocument> {
      const upload = {
        bytes: await file.arrayBuffer(),
        headers: {
          "Content-Type": "application/octet-stream",
          [DOCUMENT_FILE_NAME_HEADER]: encodeURIComponent(file.name),
        },
      };
      return (await api.consultations.uploadDocument({ upload }, options)).data;
    },

    /** The API's answer as it is (bytes and headers), for the download route to pass on. */
    async downloadDocument(id: string): Promise<Response> {
      return api.consultations.downloadDocument({ params: { id } }, options);
    },
  };
}
