import { consoleApi } from "#app/features/care-console/console.server.ts";
import { passOnDownload } from "#app/lib/download.server.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit-document";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One of the patient's documents listed in the workspace, passed on as an attachment. The API
 * checks that the visit is this clinician's and writes the download to the patient's access log.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  if (!UUID.test(params.id) || !UUID.test(params.documentId))
    throw new Response("Not Found", { status: 404 });
  return passOnDownload(() =>
    consoleApi(request, user, context).downloadDocument(params.id, params.documentId),
  );
}
