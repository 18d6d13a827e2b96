import { consultationApi } from "#app/features/consultations/consultations.server.ts";
import { passOnDownload } from "#app/lib/download.server.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/medical-record-document";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A download of one of the patient's documents: the API's bytes passed on with its type and
 * Content-Disposition: attachment, never cached. Another patient's document is 403.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  // A file of the medical records page, under that page's access rule (login required).
  const { user } = await requireRouteUser(request, pattern);
  if (!UUID.test(params.id)) throw new Response("Not Found", { status: 404 });
  return passOnDownload(() => consultationApi(request, user, context).downloadDocument(params.id));
}
