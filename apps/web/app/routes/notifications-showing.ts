import { notificationsApi } from "#app/features/notifications/notifications.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { refusedForScripts, scriptSession } from "#app/lib/script-resource.server.ts";
import type { Route } from "./+types/notifications-showing";

const headers = { "Cache-Control": "private, no-store" };

/**
 * `POST /notifications/showing/:id` (`side`, this browser's push `endpoint`, `visible` 1 or 0, and
 * the `device` id once known): a visit page tells which visit this device visibly shows, so that
 * nothing is pushed to it about that visit (ADR 064). Answers the device id, or null when this
 * browser's subscription belongs to no device of the account (nothing to do).
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = scriptSession(request, params.id);
  const form = await readFormData(request);
  const side = form.get("side") === "clinician" ? "clinician" : "patient";
  const api = notificationsApi(request, user, context, side);
  try {
    let device = String(form.get("device") ?? "");
    if (!device) {
      const endpoint = String(form.get("endpoint") ?? "");
      const found = (await api.settings()).devices.find((row) => row.endpoint === endpoint);
      if (!found) return Response.json({ device: null }, { headers });
      device = found.id;
    }
    await api.showing(device, form.get("visible") === "1" ? params.id : null);
    return Response.json({ device }, { headers });
  } catch (error) {
    return refusedForScripts(error, "apiErrors.rejected");
  }
}
