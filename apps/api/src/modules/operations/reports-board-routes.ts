import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createAuthGuards, operatorOf } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * The operations console's reports (ADR 066) and board of today (ADR 067), behind `guards.operator`
 * as every operations call: the figures as JSON for the page, each report's table as CSV (the
 * export is logged), and the board (read often, live: not logged; it names no patient).
 */
export const operationsReportsBoardRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const routes = apiRoutes.operations;
  const operator = { onRequest: guards.operator };

  serve(app, routes.reports, operator, async (request) => ({
    data: await app.reports.reports(request.query),
  }));

  serve(app, routes.board, operator, async () => ({ data: await app.board.board() }));

  serve(app, routes.reportCsv, operator, async (request, reply) => {
    const { report, ...query } = request.query;
    const actor = { userId: operatorOf(request).userId, ip: request.ip };
    const csv = await app.reports.csv(actor, report, query);
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="report-${report}.csv"`)
      .header("cache-control", "no-store")
      .send(csv);
  });
};
