import { visitChatApi } from "#app/features/visit-chat/visit-chat.server.ts";
import { passOnDownload } from "#app/lib/download.server.ts";
import { requireUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/attachment";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A file sent in a visit's chat, passed on as an attachment. The account's role picks the side's
 * API call; the API checks that the visit is theirs (403/404).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  if (!UUID.test(params.id) || !UUID.test(params.documentId))
    throw new Response("Not Found", { status: 404 });
  const side = user.account.role === "clinician" ? "clinician" : "patient";
  return passOnDownload(() =>
    visitChatApi(request, user, context, side).download(params.id, params.documentId),
  );
}
