import type { ReportCsvQuery, Reports, ReportsQuery } from "@ambercare/contracts/operations-reports";
import { userApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { SessionUser } from "#app/lib/session.server.ts";

/** The reports' calls (main API, `/api/operations/reports…`, ADR 066) with the operator's token. */
export function reportsApi(request: Request, user: SessionUser, context: { clientIp?: string } | undefined) {
  const api = userApi(request, user).operations;
  const options = { headers: visitorHeaders(context) };
  return {
    async reports(query: ReportsQuery): Promise<Reports> {
      return (await api.reports({ query }, options)).data;
    },
    /** One report's CSV, a Response to pass on (lib/download.server.ts); the API logs the export. */
    async csv(query: ReportCsvQuery): Promise<Response> {
      return api.reportCsv({ query }, options);
    },
  };
}
