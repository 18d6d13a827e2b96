import { apiRoutes } from "@ambercare/contracts/api-routes";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { TEXT_MESSAGE_ERRORS } from "@ambercare/contracts/notifications";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
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

/** The patient's devices and mobile number (care API, My profile › Notifications). */
export const careNotificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  registerDeviceRoutes(app, {
    routes: apiRoutes.notifications,
    guard: guards.patient,
    userOf: patientUser,
    audience: "patient",
  });
  registerTextMessageRoutes(app, guards.patient);
};

/** The mobile number for reminder texts, its code and consent, and Twilio's inbound webhook. */
function registerTextMessageRoutes(
  app: Parameters<FastifyPluginAsyncZod>[0],
  onRequest: ReturnType<typeof createAuthGuards>["patient"],
): void {
  const texts = app.notifications.texts;
  const routes = apiRoutes.notifications;
  serve(app, routes.textMessages, { onRequest }, async (request) => ({
    data: await texts.status(patientUser(request), request.query.locale),
  }));
  serve(app, routes.setTextNumber, { onRequest }, async (request) => ({
    data: await texts.setNumber(patientUser(request), request.body),
  }));
  serve(app, routes.resendTextCode, { onRequest }, async (request) => ({
    data: await texts.resendCode(patientUser(request), request.body.locale),
  }));
  serve(app, routes.confirmTextNumber, { onRequest }, async (request) => ({
    data: await texts.confirm(patientUser(request), request.body.code),
  }));
  serve(app, routes.giveTextConsent, { onRequest }, async (request) => ({
    data: await texts.consent(patientUser(request), request.body, request.ip),
  }));
  serve(app, routes.optOutOfTexts, { onRequest }, async (request) => ({
    data: await texts.optOut(patientUser(request)),
  }));
  serve(app, routes.removeTextNumber, { onRequest }, async (request) => ({
    data: await texts.remove(patientUser(request)),
  }));

  // Twilio posts a form and signs its fields; the answer is TwiML, the reply Twilio sends back.
  void app.register(async (scope) => {
    const inbound = scope.withTypeProvider<ZodTypeProvider>();
    inbound.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    serve(inbound, routes.inboundText, async (request, reply) => {
      const fields = (request.body ?? {}) as Record<string, string>;
      const signature = request.headers["x-twilio-signature"];
      if (
        !texts.verifyInbound(typeof signature === "string" ? signature : undefined, texts.inboundUrl, fields)
      )
        throw new AppError("WEBHOOK_SIGNATURE_INVALID", 403, TEXT_MESSAGE_ERRORS.signatureInvalid);
      const answer = await texts.inbound(fields.From ?? "", fields.Body ?? "");
      return (reply as FastifyReply).type("text/xml; charset=utf-8").send(answer);
    });
  });
}

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
