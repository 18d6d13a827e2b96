import { readWorkspacePage } from "#app/features/care-console/workspace-page.server.ts";
import { livePageData } from "#app/lib/live-page-data.server.ts";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit-data";

/**
 * `GET /console/visits/:id/data`: what the visit workspace shows, as JSON, for the page's own
 * re-reads on live events (ADR 047). The workspace's access rule applies (clinicians only).
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  return livePageData(async () => {
    const { user } = await requireRouteClinician(request, pattern);
    return readWorkspacePage(request, user, context, params.id);
  });
}
