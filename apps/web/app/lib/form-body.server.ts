import { data } from "react-router";

/** Why a posted body could not be read: the error page says so in the visitor's language. */
export type UnreadableFormReason = "unsupportedForm" | "brokenForm";

const FORM_CONTENT_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The posted form of an action. A body that is not a form (JSON, plain text) or a multipart body
 * that cannot be parsed is the sender's mistake: it is answered 415 or 400 with the site's error
 * page, never a 500 with a stack trace in the log. The body is always read to its end first, so
 * that the connection stays usable for the browser's next request.
 */
export async function readFormData(request: Request): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FORM_CONTENT_TYPES.has(type)) {
    await request.arrayBuffer().catch(() => undefined);
    throw data({ reason: "unsupportedForm" satisfies UnreadableFormReason }, { status: 415 });
  }
  try {
    return await request.formData();
  } catch {
    throw data({ reason: "brokenForm" satisfies UnreadableFormReason }, { status: 400 });
  }
}
