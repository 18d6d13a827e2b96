import { REPORT_NAMES, type ReportName } from "@ambercare/contracts/operations-reports";
import { reportsApi } from "#app/features/operations/reports.server.ts";
import { parseReportsSearch } from "#app/features/operations/reports-search.ts";
import { passOnDownload } from "#app/lib/download.server.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/reports-export";

/**
 * `GET /operations/reports/export?report=visits&from=…&to=…&state=…`: one report's table as the
 * API's CSV, passed on as a download with the operator's own token (the API logs the export). A
 * period or report the page would refuse is a 400 here.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const params = new URL(request.url).searchParams;
  const report = params.get("report") ?? "";
  const parsed = parseReportsSearch(params);
  if (!parsed.ok || !(REPORT_NAMES as readonly string[]).includes(report)) {
    throw new Response("Bad Request", { status: 400, headers: { "Cache-Control": "private, no-store" } });
  }
  return passOnDownload(() =>
    reportsApi(request, user, context).csv({ ...parsed.query, report: report as ReportName }),
  );
}
