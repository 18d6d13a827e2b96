import type { Board } from "@ambercare/contracts/operations-board";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

/** Today's board (main API, `/api/operations/board`, ADR 067) with the operator's own token. */
export async function readBoard(
  request: Request,
  user: SessionUser,
  context: { clientIp?: string } | undefined,
): Promise<Board> {
  const api = userApi(request, user).operations;
  return (await api.board({}, { headers: visitorHeaders(context) })).data;
}
