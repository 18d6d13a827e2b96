import { bookingApi } from "#app/features/scheduling/booking.server.ts";
import { passOnDownload } from "#app/lib/download.server.ts";
import { requestLocale } from "#app/lib/locale.server.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visit-calendar";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * "Add to calendar" of a booked visit (ADR 059, 063): the API's `.ics` of the visit (the e-mailed
 * invitation's UID, so a calendar keeps one event), titled in the page's language, never cached.
 */
export async function loader({ request, pattern, params, context }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  if (!UUID.test(params.consultationId)) throw new Response("Not Found", { status: 404 });
  return passOnDownload(() =>
    bookingApi(request, user, context).calendar(params.consultationId, requestLocale(request)),
  );
}
