import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/medical-record-document";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A download of one of the patient's documents: the API's bytes passed on with its type and
 * Content-Disposition: attachment, never cached (server.mjs adds X-Content-Type-Options: nosniff to
 * every answer). Another patient's document is 403.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  // A file of the medical records page, under that page's access rule (login required).
  const { user } = await requireRouteAccess(request, "/my-profile/medical-records");
  if (!UUID.test(params.id)) throw new Response("Not Found", { status: 404 });
  try {
    const answer = await consultationApi(request, user, context).downloadDocument(params.id);
    const headers = new Headers({
      "Content-Type": answer.headers.get("content-type") ?? "application/octet-stream",
      "Content-Disposition": answer.headers.get("content-disposition") ?? "attachment",
      "Cache-Control": "private, no-store",
    });
    const length = answer.headers.get("content-length");
    if (length) headers.set("Content-Length", length);
    return new Response(answer.body, { headers });
  } catch (error) {
    if (isApiError(error) && error.status >= 400 && error.status < 500) {
      throw new Response(error.status === 403 ? "Forbidden" : "Not Found", {
        status: error.status === 403 ? 403 : 404,
      });
    }
    throw error;
  }
}
