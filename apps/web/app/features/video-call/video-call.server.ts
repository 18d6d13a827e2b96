import type { CallEvent, CallSide } from "@ambercare/contracts/video-call-protocol";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

type Context = { clientIp?: string } | undefined;

/**
 * A video visit's call history as one side writes it, with the signed-in account's own token: the
 * patient's on the care API, the clinician's on the main API (the console's). The API decides who
 * may: a token of the wrong side or of someone outside the visit is refused there.
 */
export function videoCallApi(request: Request, user: SessionUser, context: Context, side: CallSide) {
  const api = userApi(request, user);
  const calls = side === "clinician" ? api.careTeam : api.consultations;
  const options = { headers: visitorHeaders(context) };
  return {
    /** `away`: a leave of a page that could not tell the other side itself (callEventRequest). */
    async record(id: string, event: CallEvent, { away = false } = {}): Promise<void> {
      await calls.callEvent({ params: { id }, body: away ? { event, away } : { event } }, options);
    },
  };
}
