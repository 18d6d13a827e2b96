import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DbHandle } from "@ambercare/db/client";
import helmet from "@fastify/helmet";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
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
import { prepareDummyHash } from "#api/auth/passwords.ts";
import { createKeyedHash } from "#api/auth/tokens.ts";
import { type Clock, systemClock } from "#api/clock.ts";
import { type ApiConfig, devEntitlementsEnabled, mailFrom, siteUrl } from "#api/config.ts";
import { REDACT_PATHS, serializeError, serializeRequest } from "#api/logging.ts";
import { createMailer, type Mailer } from "#api/mail/mailer.ts";
import { registerErrorHandling } from "#api/plugins/error-handler.ts";
import { rateLimitPlugin } from "#api/plugins/rate-limit.ts";
import { tokenSweepPlugin } from "#api/plugins/token-sweep.ts";
import { careApi } from "#api/routes/care/index.ts";
import { devEntitlementRoutes } from "#api/routes/dev-entitlements.ts";
import { healthRoutes } from "#api/routes/health.ts";
import { mainApi } from "#api/routes/main/index.ts";
import { type AccountService, createAccountService } from "#api/services/account-service.ts";
import {
  type ConsultationEntitlements,
  createGrantableEntitlements,
  noEntitlements,
} from "#api/services/consultation-entitlements.ts";

declare module "fastify" {
  interface FastifyInstance {
    config: ApiConfig;
    /** The database handle; services use `app.db.db` (a Drizzle PgDatabase). */
    db: DbHandle;
    clock: Clock;
    mailer: Mailer;
    /** Accounts and sessions of both APIs. */
    accounts: AccountService;
  }
}

export type AppDeps = {
  /** An open, migrated database. The caller owns it: closing the app does not close it. */
  db: DbHandle;
  clock?: Clock;
  /** Where log lines go (tests capture them); stdout otherwise. */
  logStream?: { write(line: string): void };
  /**
   * Membership and one-time visit credits, as consultations need them. The membership module
   * supplies the real one. Without it: nobody is entitled, except that where
   * `POST /dev/entitlements` is enabled (never in production) grants by hand are honoured.
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
  void reply.code(400).send({ error: "Malformed URL" });
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

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  // 1. External plugins.
  await app.register(helmet, {
    // The API serves JSON and the /docs UI (same-origin scripts only). It is plain HTTP behind
    // the proxy that terminates TLS, so asking browsers to upgrade subresources would break /docs.
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
  await app.register(rateLimitPlugin, {
    db: deps.db.db,
    clock: deps.clock ?? systemClock,
    max: config.RATE_LIMIT_MAX,
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
  const clock = deps.clock ?? systemClock;
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
  // Messages still being delivered finish before the process lets go of the app.
  app.addHook("onClose", async () => mailer.close());
  if (config.NODE_ENV === "production" && !config.SMTP_URL) {
    app.log.warn("SMTP_URL is not set: e-mail is written to files and reset links appear in this log");
  }
  app.decorate(
    "accounts",
    createAccountService({
      db: deps.db.db,
      clock,
      mailer,
      log: app.log,
      settings: {
        productName: config.PRODUCT_NAME,
        productSlug: config.PRODUCT_SLUG,
        serviceAccountEmail: config.SERVICE_ACCOUNT_EMAIL.trim().toLowerCase(),
        siteUrl: siteUrl(config),
      },
      // Any secret every instance shares will do (auth/tokens.ts); this one already exists.
      keyHash: createKeyedHash(config.PUBLIC_API_TOKEN),
    }),
  );
  app.decorateRequest("auth", null);
  app.addHook("onReady", prepareDummyHash);
  await app.register(tokenSweepPlugin, { db: deps.db.db, clock });
  registerErrorHandling(app);

  // 3. Routes.
  await app.register(healthRoutes);
  await app.register(mainApi, { prefix: "/api/v1" });
  let entitlements = deps.entitlements ?? noEntitlements;
  if (!deps.entitlements && devEntitlementsEnabled(config)) {
    const grantable = createGrantableEntitlements();
    entitlements = grantable;
    await app.register(devEntitlementRoutes, { entitlements: grantable });
  }
  await app.register(careApi, { productSlug: config.PRODUCT_SLUG, entitlements });

  return app;
}
