import { parseAccessLogSearch } from "#app/features/operations/access-log-search.ts";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { passOnDownload } from "#app/lib/download.server.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/access-log-export";

/**
 * `GET /operations/access-log/export?patient=…&actor=…&action=…&from=…&to=…`: the search of the
 * access-log page as the API's CSV (at most 10,000 rows), passed on as a download with the
 * operator's own token. The API logs the export. A search the page would refuse is a 400 here.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const parsed = parseAccessLogSearch(new URL(request.url).searchParams);
  if (!parsed.ok) {
    throw new Response("Bad Request", { status: 400, headers: { "Cache-Control": "private, no-store" } });
  }
  const { page: _page, ...criteria } = parsed.query;
  return passOnDownload(() => operationsApi(request, user, context).accessLogCsv({ ...criteria, page: 1 }));
}
