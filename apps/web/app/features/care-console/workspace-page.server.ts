import type { VisitWorkspace } from "@ambercare/contracts/console";
import type { Message } from "@ambercare/contracts/consultation";
import { CHAT_STATUSES } from "#app/features/care-console/chat-statuses.ts";
import { consoleApi } from "#app/features/care-console/console.server.ts";
import { visitChatApi } from "#app/features/visit-chat/visit-chat.server.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

export type WorkspacePageData = { workspace: VisitWorkspace; messages: Message[] };

/**
 * What a clinician's visit workspace shows (routes/console/visit.tsx), for its loader and for the
 * page's own re-reads (routes/console/visit-data.ts). A visit this clinician may not see is a 404.
 */
export async function readWorkspacePage(
  request: Request,
  user: SessionUser,
  context: { clientIp?: string } | undefined,
  id: string,
): Promise<WorkspacePageData> {
  const workspace = await orNotFound(() => consoleApi(request, user, context).workspace(id));
  const messages: Message[] = CHAT_STATUSES.includes(workspace.visit.status)
    ? await visitChatApi(request, user, context, "clinician").messages(id)
    : [];
  return { workspace, messages };
}
