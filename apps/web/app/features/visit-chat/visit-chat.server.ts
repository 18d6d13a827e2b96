import type { MedicalDocument, Message } from "@ambercare/contracts/consultation";
import { DOCUMENT_FILE_NAME_HEADER } from "@ambercare/contracts/consultation-limits";
import type { ChatSide } from "#app/features/visit-chat/visit-chat-thread.ts";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/**
 * A visit's chat as one side calls it, with the signed-in account's own token: the patient's calls
 * on the care API, the clinician's on the main API (the console's). The API decides who may: a
 * token of the wrong side is refused there (403).
 */
export function visitChatApi(request: Request, user: SessionUser, context: Context, side: ChatSide) {
  const api = userApi(request, user);
  const calls = side === "clinician" ? api.consoleChat : api.consultations;
  const options = { headers: visitorHeaders(context) };
  return {
    async messages(id: string, after?: number): Promise<Message[]> {
      const query = after === undefined ? {} : { after: String(after) };
      return (await calls.messages({ params: { id }, query }, options)).data;
    },
    async send(
      id: string,
      body: { body: string; client_id: string; attachment_ids?: string[] },
    ): Promise<Message> {
      return (await calls.writeMessage({ params: { id }, body }, options)).data;
    },
    async acknowledge(id: string, receipt: "delivered" | "read", upToSeq: number): Promise<void> {
      await calls.acknowledgeMessages({ params: { id }, body: { receipt, up_to_seq: upToSeq } }, options);
    },
    async retract(id: string, messageId: string): Promise<Message> {
      return (await calls.retractMessage({ params: { id, messageId } }, options)).data;
    },
    /** The file's bytes as they are (the API checks type and size by content). */
    async upload(id: string, file: File): Promise<MedicalDocument> {
      const upload = {
        bytes: await file.arrayBuffer(),
        headers: {
          "Content-Type": "application/octet-stream",
          [DOCUMENT_FILE_NAME_HEADER]: encodeURIComponent(file.name),
        },
      };
      return (await calls.uploadAttachment({ params: { id }, upload }, options)).data;
    },
    /** The API's answer as it is (bytes and headers), for the download route to pass on. */
    async download(id: string, documentId: string): Promise<Response> {
      return calls.downloadAttachment({ params: { id, documentId } }, options);
    },
  };
}
