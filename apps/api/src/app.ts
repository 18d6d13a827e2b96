import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { API_BASES } from "@ambercare/contracts/api-routes";
import type { ErrorBody } from "@ambercare/contracts/error-codes";
import type { DbHandle } from "@ambercare/db/client";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import websocket from "@fastify/websocket";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawServerDefault,
} from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { AccountService } from "#api/modules/accounts/account-service.ts";
import { registerTokenSweep } from "#api/modules/accounts/token-sweep.ts";
import type { CareTeamService } from "#api/modules/care-console/care-team-service.ts";
import { registerCaptchaSweep } from "#api/modules/communications/captcha-sweep.ts";
import type { ConsultationService } from "#api/modules/consultations/consultation-service.ts";
import type { MedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import { registerVisitExpirySweep } from "#api/modules/consultations/visit-expiry-sweep.ts";
import type { VisitService } from "#api/modules/consultations/visit-service.ts";
import type { ProviderDirectory } from "#api/modules/directory/provider-directory.ts";
import type { ProviderService } from "#api/modules/directory/provider-service.ts";
import type { RatingService } from "#api/modules/directory/rating-service.ts";
import type { SpecializationService } from "#api/modules/directory/specialization-service.ts";
import { LIVE_MAX_FRAME_BYTES } from "#api/modules/live/live-routes.ts";
import type { LiveService } from "#api/modules/live/live-service.ts";
import { registerLiveSweep } from "#api/modules/live/live-sweep.ts";
import type { ConsultationEntitlements } from "#api/modules/membership/consultation-entitlements.ts";
import type { MembershipService } from "#api/modules/membership/membership-service.ts";
import { registerRenewalSweep } from "#api/modules/membership/renewal-sweep.ts";
import type { MyDataService } from "#api/modules/my-data/my-data-service.ts";
import { registerDeliverySweep } from "#api/modules/notifications/delivery-sweep.ts";
import type { NotificationService } from "#api/modules/notifications/notification-service.ts";
import type { BoardService } from "#api/modules/operations/board-service.ts";
import type { DirectoryEditorService } from "#api/modules/operations/directory-editor-service.ts";
import type { OperationsService } from "#api/modules/operations/operations-service.ts";
import type { ProviderPhotoService } from "#api/modules/operations/provider-photo-service.ts";
import type { ReportsService } from "#api/modules/operations/reports-service.ts";
import { registerBookedVisitMails } from "#api/modules/scheduling/booked-visit-mails.ts";
import { calendarOrganizer, registerBookingConfirmations } from "#api/modules/scheduling/booking-calendar.ts";
import { registerBookingReminders, registerNoShowCheck } from "#api/modules/scheduling/booking-reminders.ts";
import type { Scheduling } from "#api/modules/scheduling/scheduling-service.ts";
import { registerVisitSoonNotices } from "#api/modules/scheduling/visit-soon-notices.ts";
import { registerVideoCallSignalling } from "#api/modules/video-call/video-call-routes.ts";
import type { VideoCallService } from "#api/modules/video-call/video-call-service.ts";
import { registerVisitTyping } from "#api/modules/visit-chat/visit-chat-routes.ts";
import type { VisitChatService } from "#api/modules/visit-chat/visit-chat-service.ts";
import { registerAuditHooks } from "#api/platform/audit-log.ts";
import { type Clock, createOffsetClock, isAdvanceable, systemClock } from "#api/platform/clock.ts";
import { type ApiConfig, mailFrom, webUrl } from "#api/platform/config.ts";
import { routeRegistryPlugin } from "#api/platform/contract-routes.ts";
import { devClockRoutes } from "#api/platform/dev-clock-routes.ts";
import { registerErrorHandling } from "#api/platform/error-handler.ts";
import { healthRoutes } from "#api/platform/health-routes.ts";
import type { FetchLike } from "#api/platform/http-client.ts";
import { createJobRunner, type JobRunner } from "#api/platform/jobs.ts";
import { REDACT_PATHS, serializeError, serializeRequest } from "#api/platform/logging.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { createKnownPeople, rateLimitPlugin } from "#api/platform/rate-limit.ts";
import { securityHeadersPlugin } from "#api/platform/security-headers.ts";
import { visitorPlugin } from "#api/platform/visitor.ts";
import { buildServices, type Communications } from "#api/services.ts";
import { careApi } from "#api/surfaces/care-api.ts";
import { mainApi } from "#api/surfaces/main-api.ts";

declare module "fastify" {
  interface FastifyInstance {
    config: ApiConfig;
    /** The database handle; services use `app.db.db` (a Drizzle PgDatabase). */
    db: DbHandle;
    clock: Clock;
    mailer: Mailer;
    /** Accounts and sessions of both APIs. */
    accounts: AccountService;
    /** Memberships, checkouts, invoices and one-time visits. */
    membership: MembershipService;
    /** Captcha, contact messages and e-mail lists (ADR 016). */
    communications: Communications;
    /** A patient's data rights: the export and the consents (ADR 016). */
    myData: MyDataService;
    /** The provider directory held in memory for searches (ADR 019). */
    providerDirectory: ProviderDirectory;
    /** Live events to the open pages of an account (ADR 033): `app.live.publish(…)`. */
    live: LiveService;
    /** What happens to a consultation after its request: clinicians' steps, expiry, refunds. */
    visits: VisitService;
    /** A patient's consultation requests, their list and records, cancelling, the audit log. */
    consultations: ConsultationService;
    /** A patient's medical documents: uploads, the list, downloads. */
    medicalDocuments: MedicalDocumentService;
    /** A visit's chat thread, both sides. */
    visitChat: VisitChatService;
    /** A video visit's call: its setup, events and signalling. */
    videoCalls: VideoCallService;
    /** Provider search and detail over the directory. */
    providers: ProviderService;
    /** A patient's rating of a completed consultation. */
    ratings: RatingService;
    /** The specializations of the directory's filters. */
    specializations: SpecializationService;
    /** Clinician accounts: invitations, the list, disabling, the console's profile. */
    careTeam: CareTeamService;
    /** The operations console (ADR 065): operators, the team, visits' payments, refunds. */
    operations: OperationsService;
    /** The operations console's reports (ADR 066). */
    reports: ReportsService;
    /** The operations console's board of today (ADR 067). */
    board: BoardService;
    /** The operations console's directory editor (ADR 065): providers, photos, licences. */
    directoryEditor: DirectoryEditorService;
    providerPhotos: ProviderPhotoService;
    /** Booked visits: clinicians' hours, slots, holds and bookings (ADR 059). */
    scheduling: Scheduling;
    /**
     * Durable jobs (ADR 060): modules register their handlers and sweeps here; server.ts starts the
     * polling, tests call `app.jobs.runDue(now)`.
     */
    jobs: JobRunner;
    /** Web push to the devices people opted in on (ADR 064). */
    notifications: NotificationService;
  }
}

export type { Communications } from "#api/services.ts";

export type AppDeps = {
  /** An open, migrated database. The caller owns it: closing the app does not close it. */
  db: DbHandle;
  clock?: Clock;
  /** Where log lines go (tests capture them); stdout otherwise. */
  logStream?: { write(line: string): void };
  /**
   * HTTP client of third-party APIs (Stripe, reCAPTCHA, SendGrid); tests pass a double. Global fetch
   * otherwise.
   */
  fetch?: FetchLike;
  /**
   * Membership and one-time visit credits as consultations need them; the membership service by
   * default (tests may pass another).
   */
  entitlements?: ConsultationEntitlements;
};

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export const REQUEST_ID_HEADER = "x-request-id";
/** An upstream id (from the web server or a proxy) is kept only when it cannot forge log lines. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function genReqId(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

function answerMalformedUrl(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).send({ error: "Malformed URL", code: "BAD_REQUEST" } satisfies ErrorBody);
}

/** A hop count becomes "trust the n nearest hops", as proxy-addr does (Fastify's types omit numbers). */
function toTrustProxy(value: ApiConfig["TRUST_PROXY"]) {
  return typeof value === "number" ? (_address: string, hop: number) => hop < value : value;
}

/**
 * Builds the API as one Fastify instance, not yet listening: tests call `inject`, server.ts calls
 * `listen`. Routes may still be added until `ready()`.
 */
export async function buildApp(config: ApiConfig, deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      serializers: { req: serializeRequest, err: serializeError },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    genReqId,
    trustProxy: toTrustProxy(config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true },
    // A URL that cannot be decoded is the client's mistake, answered in the same `{ error }` shape.
    frameworkErrors: answerMalformedUrl,
  }).withTypeProvider<ZodTypeProvider>();

  // Outside production the clock can be moved forward (POST /dev/clock/advance) to see renewals.
  const clock = deps.clock ?? (config.NODE_ENV === "production" ? systemClock : createOffsetClock());

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  // 1. External plugins.
  await app.register(securityHeadersPlugin, {
    // The API serves JSON and the /docs UI (same-origin scripts only). It is plain HTTP behind
    // the proxy that terminates TLS, so asking browsers to upgrade subresources would break /docs.
    // No page may frame the API or its /docs (clickjacking), not even one of its own origin.
    // Styles from the API's own origin only: /docs links its stylesheets and needs no inline <style>
    // (helmet's default allowed 'unsafe-inline' and any https: origin).
    contentSecurityPolicy: {
      directives: { upgradeInsecureRequests: null, frameAncestors: ["'none'"], styleSrc: ["'self'"] },
    },
    frameguard: { action: "deny" },
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    // Answers carry accounts, sessions and health data: no cache (browser or proxy) may keep them.
    // A route that chose its own policy keeps it.
    const type = String(reply.getHeader("content-type") ?? "");
    if (type.includes("json") && !reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    return payload;
  });
  // Before the rate limit: its onRequest hook marks an upgrade as such, so that an upgrade refused by
  // the limit has its socket closed instead of left open.
  await app.register(websocket, { options: { maxPayload: LIVE_MAX_FRAME_BYTES } });
  await app.register(visitorPlugin, { secret: config.PUBLIC_API_TOKEN });
  const people = createKnownPeople(clock);
  await app.register(rateLimitPlugin, {
    db: deps.db.db,
    clock,
    max: config.RATE_LIMIT_MAX,
    addressMax: config.RATE_LIMIT_ADDRESS_MAX,
    people,
  });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Ambercare API",
        version: "0.1.0",
        description: `Main API under /api/v1 and care API at the root (/auth/…, /${config.PRODUCT_SLUG}/…). Every response is { "data": … } or { "error": "…" }.`,
      },
      tags: [
        { name: "main", description: "Main API, base /api/v1" },
        { name: "care", description: `Care API: /auth/… and /${config.PRODUCT_SLUG}/…` },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });

  // 2. App services, every one built by services.ts.
  const services = buildServices(deps.db, config, {
    clock,
    log: app.log,
    fetch: deps.fetch,
    entitlements: deps.entitlements,
    onAuthenticated: people.remember,
  });
  const { mailer, passwords, live, providerDirectory } = services;
  app.decorate("config", config);
  app.decorate("db", deps.db);
  app.decorate("clock", clock);
  app.decorate("mailer", mailer);
  const jobs = createJobRunner({
    db: deps.db.db,
    clock,
    log: app.log,
    pollMs: config.JOBS_POLL_SECONDS * 1000,
  });
  app.decorate("jobs", jobs);
  // The job under way finishes (or the claimed ones are let go) before the database may close.
  app.addHook("onClose", async () => jobs.stop());
  app.decorate("accounts", services.accounts);
  // The session cache stops listening to revocations with the app (tests build many apps).
  app.addHook("onClose", async () => services.accounts.sessions.close());
  app.decorate("careTeam", services.careTeam);
  app.decorate("operations", services.operations);
  app.decorate("reports", services.reports);
  app.decorate("board", services.board);
  app.decorate("directoryEditor", services.directoryEditor);
  app.decorate("providerPhotos", services.providerPhotos);
  app.decorate("membership", services.membership);
  app.decorate("live", live);
  app.decorate("visits", services.visits);
  app.decorate("scheduling", services.scheduling);
  app.decorate("consultations", services.consultations);
  app.decorate("medicalDocuments", services.medicalDocuments);
  app.decorate("visitChat", services.visitChat);
  app.decorate("videoCalls", services.videoCalls);
  app.decorate("communications", services.communications);
  app.decorate("myData", services.myData);
  app.decorate("providerDirectory", providerDirectory);
  app.decorate("providers", services.providers);
  app.decorate("ratings", services.ratings);
  app.decorate("specializations", services.specializations);
  app.decorate("notifications", services.notifications);
  // Messages still being delivered (and list changes being mirrored) finish before the process
  // lets go of the app.
  app.addHook("onClose", async () => {
    await app.communications.listMirror.drain();
    await mailer.close();
  });
  if (config.NODE_ENV === "production" && !config.SMTP_URL) {
    app.log.warn(
      "SMTP_URL is not set: e-mail is written to $DATA_DIR/mail (MAIL_TO_FILES=true), none is sent",
    );
  }
  if (config.NODE_ENV === "production" && config.TEXT_MESSAGES === "files") {
    app.log.warn(
      "TEXT_MESSAGES=files: text messages (confirmation codes too) are written to $DATA_DIR/sms, none is sent",
    );
  }
  registerVisitTyping(live, services.visitChat);
  registerVideoCallSignalling(live, services.videoCalls, app);
  app.addHook("onReady", async () => live.start());
  app.addHook("onClose", async () => live.close());
  registerRenewalSweep(jobs, app.membership);
  registerLiveSweep(jobs, live);
  registerVisitExpirySweep(jobs, app.visits);
  registerBookingReminders(jobs, {
    db: deps.db.db,
    mailer,
    productName: config.PRODUCT_NAME,
    consultationsUrl: `${webUrl(config)}/my-profile/consultations`,
  });
  registerNoShowCheck(jobs, app.scheduling.bookings);
  registerBookedVisitMails(jobs, {
    db: deps.db.db,
    mail: app.visits.mail,
    rebookFor: (id, exceptItsClinician) => app.scheduling.bookings.rebookFor(id, exceptItsClinician),
    refund: (id) => services.entitlements.refundVisit(id),
  });
  services.notifications.register(jobs);
  registerDeliverySweep(jobs, deps.db.db, config.NOTIFICATION_DELIVERY_RETENTION_DAYS);
  registerVisitSoonNotices(jobs, { db: deps.db.db, notifications: services.notifications });
  registerBookingConfirmations(jobs, {
    db: deps.db.db,
    mailer,
    productName: config.PRODUCT_NAME,
    consultationsUrl: `${webUrl(config)}/my-profile/consultations`,
    organizer: calendarOrganizer(mailFrom(config)).organizer,
  });
  // Loaded in the background once the server is ready; searches ask the database until then.
  app.addHook("onReady", async () => {
    void providerDirectory.load();
  });
  app.addHook("onClose", async () => providerDirectory.close());
  registerCaptchaSweep(jobs, app.communications.captcha);
  app.decorateRequest("auth", null);
  app.addHook("onReady", passwords.prepareDummyHash);
  registerTokenSweep(jobs, deps.db.db);
  registerErrorHandling(app);
  registerAuditHooks(app);

  // 3. Routes.
  await app.register(routeRegistryPlugin);
  await app.register(healthRoutes);
  await app.register(mainApi, { prefix: API_BASES.main });
  await app.register(careApi, { productSlug: config.PRODUCT_SLUG, stripe: services.stripe });
  if (config.NODE_ENV !== "production" && isAdvanceable(clock)) {
    await app.register(devClockRoutes, { clock });
  }

  return app;
}
