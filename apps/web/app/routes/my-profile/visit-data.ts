import { readVisitPage } from "#app/features/consultations/visit-page.server.ts";
import { livePageData } from "#app/lib/live-page-data.server.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit-data";

/**
 * `GET /my-profile/consultations/:consultationId/data`: what the visit page shows, as JSON, for the
 * page's own re-reads on live events (ADR 047). The page's access rule applies: without a session it
 * redirects to /login like the page, and the page then loads itself again.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  return livePageData(async () => {
    const { user } = await requireRouteUser(request, pattern);
    return readVisitPage(request, user, context, params.consultationId);
  });
}
