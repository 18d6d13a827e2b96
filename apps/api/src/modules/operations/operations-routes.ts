import { apiRoutes } from "@ambercare/contracts/api-routes";
import { ACCESS_LOG_PAGE_SIZE } from "@ambercare/contracts/operations";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createAuthGuards, operatorOf } from "#api/modules/accounts/auth-guards.ts";
import { OPERATOR_ACTIONS_PAGE_SIZE } from "#api/modules/operations/operations-service.ts";
import { serve } from "#api/platform/contract-routes.ts";

/** Who acts and from where: every action is written with it. */
const actorOf = (request: FastifyRequest) => ({ userId: operatorOf(request).userId, ip: request.ip });

/**
 * The operations console's calls (main API, ADR 065). Every one sits behind `guards.operator`: an
 * operator with the second factor on; a patient or a clinician gets 403 OPERATOR_ONLY, an operator
 * without the factor 403 SECOND_FACTOR_SETUP_REQUIRED. Every action is written to the operations
 * log; what an operator reads of a patient is also written to that patient's access log.
 */
export const operationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const routes = apiRoutes.operations;
  const operator = { onRequest: guards.operator };

  serve(app, routes.me, operator, async (request) => ({
    data: await app.operations.profile(operatorOf(request).userId),
  }));

  serve(app, routes.team, operator, async () => {
    const data = await app.operations.team();
    return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
  });

  serve(app, routes.invite, operator, async (request) => ({
    data: await app.operations.invite(actorOf(request), request.body),
  }));

  const teamStep = (
    route: typeof routes.disable | typeof routes.enable | typeof routes.endSessions,
    run: (actor: ReturnType<typeof actorOf>, userId: string) => Promise<unknown>,
  ) =>
    serve(app, route, operator, async (request) => {
      const data = (await run(actorOf(request), request.params.userId)) as {
        user_id: string;
        disabled: boolean;
        sessions_ended: number;
      };
      // The directory's "Available today" and the operators' board follow a clinician taken off duty.
      app.providerDirectory.invalidate();
      if (route === routes.disable) await app.board.dutyChanged();
      return { data };
    });
  teamStep(routes.disable, (actor, id) => app.operations.disable(actor, id));
  teamStep(routes.enable, (actor, id) => app.operations.enable(actor, id));
  teamStep(routes.endSessions, (actor, id) => app.operations.endSessions(actor, id));

  // A clinician's hours, set or corrected by an operator with the clinician's own rules (ADR 059).
  const { hours } = app.operations;

  serve(app, routes.clinicianSchedule, operator, async (request) => ({
    data: await hours.schedule(request.params.userId),
  }));

  serve(app, routes.putClinicianSchedule, operator, async (request) => ({
    data: await hours.replace(actorOf(request), request.params.userId, request.body),
  }));

  serve(app, routes.addClinicianException, operator, async (request, reply) => {
    const data = await hours.addException(actorOf(request), request.params.userId, request.body);
    return reply.code(201).send({ data });
  });

  serve(app, routes.deleteClinicianException, operator, async (request, reply) => {
    await hours.deleteException(actorOf(request), request.params.userId, request.params.id);
    return reply.code(204).send(null);
  });

  serve(app, routes.actions, operator, async (request) => {
    const { page } = request.query;
    const { rows, total } = await app.operations.actions(page);
    return { data: rows, meta: { page, per_page: OPERATOR_ACTIONS_PAGE_SIZE, total } };
  });

  serve(app, routes.accessLog, operator, async (request) => {
    const { rows, total } = await app.operations.accessLog(actorOf(request), request.query);
    return { data: rows, meta: { page: request.query.page, per_page: ACCESS_LOG_PAGE_SIZE, total } };
  });

  serve(app, routes.accessLogCsv, operator, async (request, reply) => {
    const csv = await app.operations.accessLogCsv(actorOf(request), request.query);
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", 'attachment; filename="access-log.csv"')
      .header("cache-control", "no-store")
      .send(csv);
  });

  serve(app, routes.visits, operator, async (request) => {
    const data = await app.operations.searchVisits(actorOf(request), request.query);
    return { data, meta: { page: 1, per_page: Math.max(data.length, 1), total: data.length } };
  });

  serve(app, routes.visit, operator, async (request) => ({
    data: await app.operations.visit(actorOf(request), request.params.id),
  }));

  serve(app, routes.refund, operator, async (request) => ({
    data: await app.operations.refund(actorOf(request), request.params.id, request.body),
  }));
};
