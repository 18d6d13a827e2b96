import { DOCUMENT_MAX_BYTES, MESSAGE_MAX_LENGTH } from "@ambercare/contracts/consultation-limits";
import { data } from "react-router";
import { visitChatApi } from "#app/features/visit-chat/visit-chat.server.ts";
import type { ChatSide } from "#app/features/visit-chat/visit-chat-thread.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { isUuid, refusedForScripts, scriptSession } from "#app/lib/script-resource.server.ts";
import type { Route } from "./+types/thread";

/** The side the page says it is on; the API refuses a token of the other side (403). */
const sideOf = (value: string | null): ChatSide => (value === "clinician" ? "clinician" : "patient");

const refused = (error: unknown) => refusedForScripts(error, "messages.errors.failed");

/**
 * `GET /visit-chat/:id?side=…&after=N`: the visit's thread (after sequence number N) for the chat
 * component, called by the page's scripts with the session cookie; the web server calls the API with
 * the account's token, which never reaches the browser.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = scriptSession(request, params.id);
  const url = new URL(request.url);
  const after = url.searchParams.get("after");
  const chat = visitChatApi(request, user, context, sideOf(url.searchParams.get("side")));
  try {
    const messages = await chat.messages(
      params.id,
      after && /^\d{1,9}$/.test(after) ? Number(after) : undefined,
    );
    return data({ messages }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return refused(error);
  }
}

/**
 * `POST /visit-chat/:id`: one form per step, `intent` send (body, client_id, attachment_id…),
 * receipt (receipt, up_to_seq), retract (message_id) or upload (file, multipart). Each answers
 * JSON: the stored message or file, or `{error}` with the API's status.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = scriptSession(request, params.id);
  const form = await readFormData(request);
  const chat = visitChatApi(request, user, context, sideOf(String(form.get("side") ?? "")));
  const field = (name: string) => String(form.get(name) ?? "");
  try {
    switch (field("intent")) {
      case "send": {
        const body = field("body");
        const clientId = field("client_id");
        if (body.trim() === "") return data({ error: { key: "messages.errors.empty" } }, { status: 400 });
        if (body.length > MESSAGE_MAX_LENGTH || !isUuid(clientId)) {
          return data({ error: { key: "messages.errors.failed" } }, { status: 400 });
        }
        const attachments = form
          .getAll("attachment_id")
          .map(String)
          .filter((id) => isUuid(id));
        const message = await chat.send(params.id, {
          body,
          client_id: clientId,
          ...(attachments.length > 0 ? { attachment_ids: attachments } : {}),
        });
        return { message };
      }
      case "receipt": {
        const receipt = field("receipt") === "read" ? "read" : "delivered";
        const upTo = Number(field("up_to_seq"));
        if (!Number.isInteger(upTo) || upTo < 0)
          return data({ error: { key: "messages.errors.failed" } }, { status: 400 });
        await chat.acknowledge(params.id, receipt, upTo);
        return { ok: true };
      }
      case "retract": {
        const messageId = field("message_id");
        if (!isUuid(messageId)) return data({ error: { key: "messages.errors.failed" } }, { status: 400 });
        return { message: await chat.retract(params.id, messageId) };
      }
      case "upload": {
        const file = form.get("file");
        if (!(file instanceof File) || file.size === 0) {
          return data({ error: { key: "records.errors.noFile" } }, { status: 400 });
        }
        if (file.size > DOCUMENT_MAX_BYTES)
          return data({ error: { key: "records.errors.tooLarge" } }, { status: 413 });
        return { file: await chat.upload(params.id, file) };
      }
      default:
        return data({ error: { key: "messages.errors.failed" } }, { status: 400 });
    }
  } catch (error) {
    return refused(error);
  }
}
