import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { mainAuthRoutes } from "#api/modules/accounts/main-auth-routes.ts";
import { secondFactorRoutes } from "#api/modules/accounts/second-factor-routes.ts";
import { careTeamRoutes } from "#api/modules/care-console/care-console-routes.ts";
import { captchaRoutes } from "#api/modules/communications/captcha-routes.ts";
import { listRoutes } from "#api/modules/communications/list-routes.ts";
import { providerRoutes } from "#api/modules/directory/provider-routes.ts";
import { specializationRoutes } from "#api/modules/directory/specialization-routes.ts";
import { liveRoutes } from "#api/modules/live/live-routes.ts";
import { consoleNotificationRoutes } from "#api/modules/notifications/notification-routes.ts";
import { directoryEditorRoutes } from "#api/modules/operations/directory-editor-routes.ts";
import { operationsRoutes } from "#api/modules/operations/operations-routes.ts";
import { providerPhotoRoutes } from "#api/modules/operations/provider-photo-routes.ts";
import { operationsReportsBoardRoutes } from "#api/modules/operations/reports-board-routes.ts";
import { schedulingRoutes } from "#api/modules/scheduling/scheduling-routes.ts";
import { consoleVideoCallRoutes } from "#api/modules/video-call/video-call-routes.ts";
import { consoleVisitChatRoutes } from "#api/modules/visit-chat/visit-chat-routes.ts";

/**
 * The main API, mounted under /api/v1; its own paths start with /api/…,
 * hence /api/v1/api/auth/login. Encapsulated: hooks added here never reach the care API.
 */
export const mainApi: FastifyPluginAsyncZod = async (app) => {
  await app.register(mainAuthRoutes);
  await app.register(secondFactorRoutes);
  await app.register(specializationRoutes);
  await app.register(providerRoutes);
  await app.register(captchaRoutes);
  await app.register(listRoutes);
  await app.register(liveRoutes);
  await app.register(careTeamRoutes);
  await app.register(operationsRoutes);
  await app.register(operationsReportsBoardRoutes);
  await app.register(directoryEditorRoutes);
  await app.register(providerPhotoRoutes);
  await app.register(consoleVisitChatRoutes);
  await app.register(consoleVideoCallRoutes);
  await app.register(schedulingRoutes);
  await app.register(consoleNotificationRoutes);
};
