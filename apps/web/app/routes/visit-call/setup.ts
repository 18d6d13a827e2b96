import { data } from "react-router";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { getUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/setup";

const VISIT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `GET /visit-call/:id?side=patient|clinician`: how this participant's page sets up the video
 * visit's peer connection (ADR 043): ICE servers with short-lived TURN credentials, the negotiation
 * role, whether the call is open. Called by the page's scripts (the device check's connectivity
 * probe, the call) with the session cookie; the web server asks the API with the account's token,
 * the patient's on the care API, the clinician's on the main API, and the API decides who may.
 * Asked afresh each time: the credentials expire, and are never cached.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!VISIT_ID.test(params.id)) throw data({ error: "not_found" }, { status: 404 });
  const user = getUser(request);
  // A resource of the page's scripts: a missing session is a 401 for them, not a login redirect.
  if (!user) throw data({ error: "session_ended" }, { status: 401 });
  const api = userApi(request, user);
  const calls =
    new URL(request.url).searchParams.get("side") === "clinician" ? api.careTeam : api.consultations;
  try {
    const setup = (await calls.callSetup({ params: { id: params.id } }, { headers: visitorHeaders(context) }))
      .data;
    return data({ setup }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
    // With the figures the page words a refusal with (when check-in opens, and in which zone).
    return data(
      { error: error.code ?? "refused", ...(error.details ? { details: error.details } : {}) },
      { status: error.status },
    );
  }
}
