import { CALL_EVENTS, type CallEvent } from "@ambercare/contracts/video-call-protocol";
import { data } from "react-router";
import { videoCallApi } from "#app/features/video-call/video-call.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { refusedForScripts, scriptSession } from "#app/lib/script-resource.server.ts";
import type { Route } from "./+types/events";

const headers = { "Cache-Control": "private, no-store" };

/**
 * `POST /visit-call/:id/events` (`side`: patient or clinician, `event`: join, leave or reconnect):
 * the call's history and the patient's access log, from the call screen's scripts; a leave may come
 * from `navigator.sendBeacon` as the page closes, with `away=1` when the page could not tell the
 * other side over its live link (the API then tells it). The web server calls the API with the
 * account's token, which never reaches the browser; the API decides who may.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = scriptSession(request, params.id);
  const form = await readFormData(request);
  const event = String(form.get("event") ?? "");
  if (!(CALL_EVENTS as readonly string[]).includes(event)) {
    return data({ error: { key: "videoCall.errors.setup" } }, { status: 400, headers });
  }
  const side = form.get("side") === "clinician" ? "clinician" : "patient";
  const away = event === "leave" && form.get("away") === "1";
  try {
    await videoCallApi(request, user, context, side).record(params.id, event as CallEvent, { away });
    return data({ ok: true }, { headers });
  } catch (error) {
    return refusedForScripts(error, "videoCall.errors.setup");
  }
}
