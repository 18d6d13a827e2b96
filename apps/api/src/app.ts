import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
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
import { createSendgridMirror, type ListMirror } from "#api/integrations/email-lists/sendgrid-mirror.ts";
import { createDemoPayments } from "#api/integrations/payments/demo-payments.ts";
import { createStripePayments } from "#api/integrations/payments/stripe-payments.ts";
import { type AccountService, createAccountService } from "#api/modules/accounts/account-service.ts";
import { createLoginThrottle } from "#api/modules/accounts/login-throttle.ts";
import { createPasswords, type Passwords } from "#api/modules/accounts/passwords.ts";
import { tokenSweepPlugin } from "#api/modules/accounts/token-sweep.ts";
import { createKeyedHash } from "#api/modules/accounts/tokens.ts";
import { type CareTeamService, createCareTeamService } from "#api/modules/care-team/care-team-service.ts";
import { type CaptchaService, createCaptchaService } from "#api/modules/communications/captcha-service.ts";
import { captchaSweepPlugin } from "#api/modules/communications/captcha-sweep.ts";
import { createSendLimiter, type SendLimiter } from "#api/modules/communications/communication-limits.ts";
import { type ContactService, createContactService } from "#api/modules/communications/contact-service.ts";
import { createListTokens } from "#api/modules/communications/list-tokens.ts";
import {
  createMailingListService,
  type MailingListService,
} from "#api/modules/communications/mailing-list-service.ts";
import { createMedicalDocumentService } from "#api/modules/consultations/medical-document-service.ts";
import {
  registerVideoCallSignalling,
  videoCallServiceOf,
} from "#api/modules/consultations/video-call-routes.ts";
import { chatServiceOf, registerVisitTyping } from "#api/modules/consultations/visit-chat-routes.ts";
import { visitExpirySweepPlugin } from "#api/modules/consultations/visit-expiry-sweep.ts";
import { createVisitMailer } from "#api/modules/consultations/visit-mail.ts";
import { createVisitService, type VisitService } from "#api/modules/consultations/visit-service.ts";
import {
  createProviderDirectory,
  type ProviderDirectory,
} from "#api/modules/directory/provider-directory.ts";
import { createProviderRepository } from "#api/modules/directory/provider-repository.ts";
import { createLiveRepository } from "#api/modules/live/live-repository.ts";
import { LIVE_MAX_FRAME_BYTES } from "#api/modules/live/live-routes.ts";
import { createLiveService, type LiveService } from "#api/modules/live/live-service.ts";
import { createInProcessSignal, createPostgresSignal } from "#api/modules/live/live-signal.ts";
import { liveSweepPlugin } from "#api/modules/live/live-sweep.ts";
import {
  type ConsultationEntitlements,
  membershipEntitlements,
} from "#api/modules/membership/consultation-entitlements.ts";
import { createMembershipMailer } from "#api/modules/membership/membership-mail.ts";
import {
  createMembershipService,
  type MembershipService,
} from "#api/modules/membership/membership-service.ts";
import { createMyDataService, type MyDataService } from "#api/modules/my-data/my-data-service.ts";
import { createScheduling, type Scheduling } from "#api/modules/scheduling/scheduling.ts";
import { createAttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import { registerAuditHooks } from "#api/platform/audit-log.ts";
import { type Clock, createOffsetClock, isAdvanceable, systemClock } from "#api/platform/clock.ts";
import { type ApiConfig, apiPublicUrl, mailFrom, siteUrl, webUrl } from "#api/platform/config.ts";
import { routeRegistryPlugin } from "#api/platform/contract-routes.ts";
import { devClockRoutes } from "#api/platform/dev-clock-routes.ts";
import { registerErrorHandling } from "#api/platform/error-handler.ts";
import { healthRoutes } from "#api/platform/health-routes.ts";
import type { FetchLike } from "#api/platform/http-client.ts";
import { REDACT_PATHS, serializeError, serializeRequest } from "#api/platform/logging.ts";
import { createMailer, type Mailer } from "#api/platform/mail/mailer.ts";
import { createKnownPeople, rateLimitPlugin } from "#api/platform/rate-limit.ts";
import { securityHeadersPlugin } from "#api/platform/security-headers.ts";
import { visitorPlugin } from "#api/platform/visitor.ts";
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
    /** Captcha, contact messages, e-mail lists and data rights (ADR 016). */
    communications: Communications;
    /** The provider directory held in memory for searches (ADR 019). */
    providerDirectory: ProviderDirectory;
    /** Live events to the open pages of an account (ADR 033): `app.live.publish(…)`. */
    live: LiveService;
    /** What happens to a consultation after its request: clinicians' steps, expiry, refunds. */
    visits: VisitService;
    /** Clinician accounts: invitations, the list, disabling, the console's profile. */
    careTeam: CareTeamService;
    /** Booked visits: clinicians' hours, slots, holds and bookings (ADR 059). */
    scheduling: Scheduling;
  }
}

export type Communications = {
  captcha: CaptchaService;
  contact: ContactService;
  lists: MailingListService;
  listMirror: ListMirror;
  myData: MyDataService;
  limitSends: SendLimiter;
};

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
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, frameAncestors: ["'none'"] } },
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

  // 2. App services.
  app.decorate("config", config);
  app.decorate("db", deps.db);
  app.decorate("clock", clock);
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    dataDir: config.DATA_DIR,
    from: mailFrom(config),
    clock,
    log: app.log,
  });
  app.decorate("mailer", mailer);
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
  // Any secret every instance shares will do (modules/accounts/tokens.ts); this one already exists.
  const keyHash = createKeyedHash(config.PUBLIC_API_TOKEN);
  const passwords = createPasswords(config.ARGON2_PARAMS);
  app.decorate(
    "accounts",
    createAccountService({
      db: deps.db.db,
      clock,
      mailer,
      log: app.log,
      passwords,
      settings: {
        productName: config.PRODUCT_NAME,
        productSlug: config.PRODUCT_SLUG,
        serviceAccountEmail: config.SERVICE_ACCOUNT_EMAIL.trim().toLowerCase(),
        siteUrl: siteUrl(config),
        secondFactorKey: config.SECOND_FACTOR_KEY,
      },
      keyHash,
      idleTimeoutMs: config.SESSION_IDLE_MINUTES * 60_000,
      onAuthenticated: people.remember,
    }),
  );
  app.decorate(
    "careTeam",
    createCareTeamService({
      db: deps.db.db,
      clock,
      mailer,
      passwords,
      productName: config.PRODUCT_NAME,
      siteUrl: siteUrl(config),
      acceptTimeoutMs: config.VISIT_ACCEPT_TIMEOUT * 60_000,
    }),
  );
  const stripePrices = {
    subscription_monthly: config.STRIPE_PRICE_MONTHLY ?? "",
    subscription_yearly: config.STRIPE_PRICE_YEARLY ?? "",
    ppv_chat: config.STRIPE_PRICE_PPV_CHAT ?? "",
    ppv_video: config.STRIPE_PRICE_PPV_VIDEO ?? "",
  };
  const stripe =
    config.PAYMENTS === "stripe"
      ? createStripePayments({
          secretKey: config.STRIPE_SECRET_KEY ?? "",
          webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? "",
          prices: stripePrices,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        })
      : undefined;
  app.decorate(
    "membership",
    createMembershipService({
      db: deps.db.db,
      clock,
      payments: stripe ?? createDemoPayments({ webUrl: webUrl(config) }),
      webUrl: webUrl(config),
      log: app.log,
      membershipMail: createMembershipMailer({
        db: deps.db.db,
        mailer,
        productName: config.PRODUCT_NAME,
        webUrl: webUrl(config),
      }),
    }),
  );
  const liveRepository = createLiveRepository(deps.db.db);
  // PostgreSQL may have several API processes: they hear each other through LISTEN/NOTIFY.
  const liveSignal =
    deps.db.kind === "postgres"
      ? createPostgresSignal({ db: deps.db, repository: liveRepository, log: app.log })
      : createInProcessSignal();
  const live = createLiveService({
    db: deps.db.db,
    repository: liveRepository,
    signal: liveSignal,
    log: app.log,
  });
  app.decorate("live", live);
  registerVisitTyping(live, chatServiceOf(app));
  registerVideoCallSignalling(live, videoCallServiceOf(app), app);
  app.addHook("onReady", async () => live.start());
  app.addHook("onClose", async () => live.close());
  await app.register(liveSweepPlugin, { live, clock });
  const entitlements = deps.entitlements ?? membershipEntitlements(app.membership);
  app.decorate(
    "visits",
    createVisitService({
      db: deps.db.db,
      clock,
      entitlements,
      mail: createVisitMailer({
        db: deps.db.db,
        mailer,
        productName: config.PRODUCT_NAME,
        consultationsUrl: `${webUrl(config)}/my-profile/consultations`,
      }),
      events: app.live,
      log: app.log,
      acceptTimeoutMs: config.VISIT_ACCEPT_TIMEOUT * 60_000,
      publish: (recipients, topic, payload) => app.live.publish(recipients, topic, payload),
      documentBytes: createMedicalDocumentService({ db: deps.db.db, clock, dataDir: config.DATA_DIR })
        .bytesOf,
      // Booked visits start from "scheduled", and a clinician's cancel tells their listeners.
      beforeStart: (actor, id) => app.scheduling.bookings.beforeStart(actor, id),
      onClinicianCancel: (tx, id) => app.scheduling.bookings.clinicianCanceled(tx, id),
    }),
  );
  app.decorate("scheduling", createScheduling(app, config));
  await app.register(visitExpirySweepPlugin, { visits: app.visits });
  app.decorate(
    "communications",
    createCommunications(app, config, { clock, mailer, keyHash, passwords, fetch: deps.fetch }),
  );
  const providerDirectory = createProviderDirectory(createProviderRepository(deps.db.db), {
    clock,
    onError: (error) => app.log.warn({ err: error }, "loading the provider directory failed"),
  });
  app.decorate("providerDirectory", providerDirectory);
  // Loaded in the background once the server is ready; searches ask the database until then.
  app.addHook("onReady", async () => {
    void providerDirectory.load();
  });
  app.addHook("onClose", async () => providerDirectory.close());
  await app.register(captchaSweepPlugin, { captcha: app.communications.captcha });
  app.decorateRequest("auth", null);
  app.addHook("onReady", passwords.prepareDummyHash);
  await app.register(tokenSweepPlugin, { db: deps.db.db, clock });
  registerErrorHandling(app);
  registerAuditHooks(app);

  // 3. Routes.
  await app.register(routeRegistryPlugin);
  await app.register(healthRoutes);
  await app.register(mainApi, { prefix: API_BASES.main });
  await app.register(careApi, {
    productSlug: config.PRODUCT_SLUG,
    stripe,
    entitlements,
  });
  if (config.NODE_ENV !== "production" && isAdvanceable(clock)) {
    await app.register(devClockRoutes, { clock });
  }

  return app;
}

function createCommunications(
  app: App,
  config: ApiConfig,
  deps: {
    clock: Clock;
    mailer: Mailer;
    keyHash: (purpose: string, value: string) => string;
    passwords: Passwords;
    fetch: FetchLike | undefined;
  },
): Communications {
  const db = app.db.db;
  const { clock, mailer } = deps;
  const httpFetch: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));
  const site = siteUrl(config);
  const counters = createAttemptCounterRepository(db);
  const captcha = createCaptchaService({
    db,
    clock,
    fetch: httpFetch,
    log: app.log,
    settings:
      config.RECAPTCHA_SITE_KEY && config.RECAPTCHA_SECRET
        ? {
            provider: "recaptcha",
            siteKey: config.RECAPTCHA_SITE_KEY,
            secret: config.RECAPTCHA_SECRET,
            minScore: config.RECAPTCHA_MIN_SCORE,
          }
        : { provider: "altcha", hmacKey: config.CAPTCHA_HMAC_KEY, maxNumber: config.ALTCHA_MAX_NUMBER },
  });
  const listMirror = createSendgridMirror({
    apiKey: config.SENDGRID_API_KEY,
    listId: config.SENDGRID_LIST_ID,
    fetch: httpFetch,
    log: app.log,
  });
  const lists = createMailingListService({
    db,
    clock,
    mailer,
    tokens: createListTokens(config.LIST_TOKEN_SECRET),
    mirror: listMirror,
    settings: {
      productName: config.PRODUCT_NAME,
      siteUrl: site,
      apiPublicUrl: apiPublicUrl(config),
      unsubscribeMailbox: config.SUPPORT_EMAIL,
    },
  });
  return {
    captcha,
    listMirror,
    lists,
    limitSends: createSendLimiter({ counters, clock, keyHash: deps.keyHash }),
    contact: createContactService({
      db,
      clock,
      mailer,
      settings: {
        productName: config.PRODUCT_NAME,
        siteUrl: site,
        supportEmail: config.SUPPORT_EMAIL,
        supportSegment: config.SUPPORT_SEGMENT,
      },
    }),
    myData: createMyDataService({
      db,
      clock,
      mailer,
      passwords: deps.passwords,
      lists,
      // The same counters as logins: a wrong password here is a failed login of the account.
      throttle: createLoginThrottle({ counters, clock, keyHash: deps.keyHash }),
      settings: { productName: config.PRODUCT_NAME, siteUrl: site },
      uploadDir: join(config.DATA_DIR, "uploads"),
    }),
  };
}
