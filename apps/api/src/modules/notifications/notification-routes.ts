import { apiRoutes } from "@ambercare/contracts/api-routes";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, clinicianOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import type { Audience } from "#api/modules/notifications/notification-service.ts";
import { serve } from "#api/platform/contract-routes.ts";
import { AppError } from "#api/platform/errors.ts";

type Side = {
  routes: typeof apiRoutes.notifications | typeof apiRoutes.consoleNotifications;
  guard: ReturnType<typeof createAuthGuards>["patient"];
  userOf(request: FastifyRequest): string;
  audience: Audience;
};

function patientUser(request: FastifyRequest): string {
  const auth = authOf(request);
  if (auth.isServiceAccount) throw new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly);
  return auth.userId;
}

function registerDeviceRoutes(app: Parameters<FastifyPluginAsyncZod>[0], side: Side): void {
  const notifications = app.notifications;
  const onRequest = side.guard;
  serve(app, side.routes.listDevices, { onRequest }, async (request) => ({
    data: await notifications.list(side.userOf(request), side.audience),
  }));
  serve(app, side.routes.addDevice, { onRequest }, async (request, reply) => {
    const { created, device } = await notifications.add(side.userOf(request), request.body);
    return reply.code(created ? 201 : 200).send({ data: device });
  });
  serve(app, side.routes.updateDevice, { onRequest }, async (request) => ({
    data: await notifications.update(side.userOf(request), request.params.deviceId, request.body),
  }));
  serve(app, side.routes.removeDevice, { onRequest }, async (request) => {
    await notifications.remove(side.userOf(request), request.params.deviceId);
    return { data: { removed: true as const } };
  });
  serve(app, side.routes.deviceShowing, { onRequest }, async (request) => {
    const until = await notifications.showing(
      side.userOf(request),
      request.params.deviceId,
      request.body.consultation_id,
    );
    return { data: { until: until?.toISOString() ?? null } };
  });
}

/** The patient's devices (care API, My profile › Notifications). */
export const careNotificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerDeviceRoutes(app, {
    routes: apiRoutes.notifications,
    guard: guards.patient,
    userOf: patientUser,
    audience: "patient",
  });
};

/** The clinician's devices (main API, the console's settings). */
export const consoleNotificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerDeviceRoutes(app, {
    routes: apiRoutes.consoleNotifications,
    guard: guards.clinician,
    userOf: (request) => clinicianOf(request).userId,
    audience: "clinician",
  });
};
