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
import { careProductPath, userApis, visitorHeaders } from "#app/lib/api.server.ts";
import { ApiError, buildUrl } from "#app/lib/api-client.server.ts";
import { apiBases } from "#app/lib/env.server.ts";
import { logoutEvent, type SessionUser } from "#app/lib/session.server.ts";

/**
 * The care API's consultations, messages, medical records and audit log, called with the patient's
 * own token. Every call names the visitor's address (signed, ADR 025), so the audit log records
 * where the patient was, not the web server's address.
 */

type Context = { clientIp?: string } | undefined;

export function consultationApi(request: Request, user: SessionUser, context: Context) {
  const { care } = userApis(request, user);
  const headers = visitorHeaders(context);
  return {
    async list(): Promise<Consultation[]> {
      const body = await care.get<ListEnvelope<Consultation>>(careProductPath("/consultations"), { headers });
      return body.data;
    },
    /** The most recent visits that were not canceled, with their intake answers, in one call. */
    async visitRecords(): Promise<ConsultationDetail[]> {
      const body = await care.get<ListEnvelope<ConsultationDetail>>(
        careProductPath("/medical-records/visits"),
        {
          headers,
        },
      );
      return body.data;
    },
    async get(id: string): Promise<ConsultationDetail> {
      const body = await care.get<{ data: ConsultationDetail }>(careProductPath(`/consultations/${id}`), {
        headers,
      });
      return body.data;
    },
    async create(payload: CreateConsultationRequest): Promise<Consultation> {
      const body = await care.post<{ data: Consultation }>(careProductPath("/create-consultation"), {
        body: payload,
        headers,
      });
      return body.data;
    },
    async cancel(id: string): Promise<Consultation> {
      const body = await care.post<{ data: Consultation }>(careProductPath(`/consultations/${id}/cancel`), {
        headers,
      });
      return body.data;
    },
    async messages(id: string): Promise<Message[]> {
      const body = await care.get<ListEnvelope<Message>>(careProductPath(`/consultations/${id}/messages`), {
        headers,
      });
      return body.data;
    },
    async writeMessage(id: string, text: string): Promise<Message> {
      const body = await care.post<{ data: Message }>(careProductPath(`/consultations/${id}/messages`), {
        body: { body: text },
        headers,
      });
      return body.data;
    },
    async rate(input: { user_id: string; consultation_id: string; stars: number; comment: string | null }) {
      await care.post(careProductPath("/submit-rating"), { body: input, headers });
    },
    async documents(): Promise<MedicalDocument[]> {
      const body = await care.get<ListEnvelope<MedicalDocument>>(
        careProductPath("/medical-records/documents"),
        {
          headers,
        },
      );
      return body.data;
    },
    async deleteDocument(id: string): Promise<void> {
      await care.delete(careProductPath(`/medical-records/documents/${id}`), { headers });
    },
    async auditLog(page = 1): Promise<ListEnvelope<AuditEntry>> {
      return care.get<ListEnvelope<AuditEntry>>(careProductPath("/audit-log"), { headers, query: { page } });
    },

    /** Sends the file's bytes as they are (the API checks type and size); throws ApiError on 4xx. */
    async uploadDocument(file: File): Promise<MedicalDocument> {
      const response = await rawCall(request, user, context, "POST", "/medical-records/documents", {
        body: await file.arrayBuffer(),
        headers: {
          "Content-Type": "application/octet-stream",
          [DOCUMENT_FILE_NAME_HEADER]: encodeURIComponent(file.name),
        },
      });
      return ((await response.json()) as { data: MedicalDocument }).data;
    },

    /** The API's answer as it is (bytes and headers), for the download route to pass on. */
    async downloadDocument(id: string): Promise<Response> {
      return rawCall(request, user, context, "GET", `/medical-records/documents/${id}`, {});
    },
  };
}

/** A care API call whose body is not JSON (uploads, downloads); 401 is the logout event. */
async function rawCall(
  request: Request,
  user: SessionUser,
  context: Context,
  method: "GET" | "POST",
  path: `/${string}`,
  init: { body?: ArrayBuffer; headers?: Record<string, string> },
): Promise<Response> {
  const url = buildUrl(apiBases.careApiBase, careProductPath(path));
  const headers = new Headers({ ...init.headers, ...(visitorHeaders(context) as Record<string, string>) });
  headers.set("Authorization", `Bearer ${user.careAccessToken}`);
  const response = await fetch(url, {
    method,
    headers,
    ...(init.body ? { body: init.body } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status === 401) throw logoutEvent(request);
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const message =
      body && typeof body === "object" && "error" in body
        ? String((body as { error: unknown }).error)
        : response.statusText;
    throw new ApiError(message, { status: response.status, body, method, path, headers: response.headers });
  }
  return response;
}
