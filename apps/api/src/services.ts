import { join } from "node:path";
import { perVisitPlan } from "@ambercare/contracts/visit-types";
import type { DbHandle } from "@ambercare/db/client";
import { licenceDay } from "@ambercare/db/schema";
import type { FastifyBaseLogger } from "fastify";
import { createSendgridMirror, type ListMirror } from "#api/integrations/email-lists/sendgrid-mirror.ts";
import { createDemoPayments } from "#api/integrations/payments/demo-payments.ts";
import { createStripePayments, type StripePayments } from "#api/integrations/payments/stripe-payments.ts";
import { type AccountService, createAccountService } from "#api/modules/accounts/account-service.ts";
import { createLoginThrottle } from "#api/modules/accounts/login-throttle.ts";
import { createPasswords, type Passwords } from "#api/modules/accounts/passwords.ts";
import { createKeyedHash } from "#api/modules/accounts/tokens.ts";
import { type CareTeamService, createCareTeamService } from "#api/modules/care-console/care-team-service.ts";
import { expectedWaits, reusedExpectedWaits } from "#api/modules/care-console/expected-wait.ts";
import { type CaptchaService, createCaptchaService } from "#api/modules/communications/captcha-service.ts";
import { createSendLimiter, type SendLimiter } from "#api/modules/communications/communication-limits.ts";
import { type ContactService, createContactService } from "#api/modules/communications/contact-service.ts";
import { createListTokens } from "#api/modules/communications/list-tokens.ts";
import {
  createMailingListService,
  type MailingListService,
} from "#api/modules/communications/mailing-list-service.ts";
import {
  type ConsultationService,
  createConsultationService,
} from "#api/modules/consultations/consultation-service.ts";
import {
  createMedicalDocumentService,
  type MedicalDocumentService,
} from "#api/modules/consultations/medical-document-service.ts";
import { createVisitMailer, type VisitMailer } from "#api/modules/consultations/visit-mail.ts";
import { createVisitService, type VisitService } from "#api/modules/consultations/visit-service.ts";
import { directoryChangesOver } from "#api/modules/directory/directory-changes.ts";
import {
  createProviderDirectory,
  type ProviderDirectory,
} from "#api/modules/directory/provider-directory.ts";
import { createProviderRepository } from "#api/modules/directory/provider-repository.ts";
import { createProviderService, type ProviderService } from "#api/modules/directory/provider-service.ts";
import { createRatingService, type RatingService } from "#api/modules/directory/rating-service.ts";
import { createSpecializationRepository } from "#api/modules/directory/specialization-repository.ts";
import {
  createSpecializationService,
  type SpecializationService,
} from "#api/modules/directory/specialization-service.ts";
import { createLiveRepository } from "#api/modules/live/live-repository.ts";
import { createLiveService, type LiveService } from "#api/modules/live/live-service.ts";
import { createInProcessSignal, createPostgresSignal } from "#api/modules/live/live-signal.ts";
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
import {
  createNotificationService,
  type NotificationService,
} from "#api/modules/notifications/notification-service.ts";
import { createPushSender } from "#api/modules/notifications/push-sender.ts";
import {
  createFileTextMessages,
  createTwilioTextMessages,
  type TextMessageProvider,
} from "#api/modules/notifications/text-message-provider.ts";
import { createTextMessageService } from "#api/modules/notifications/text-message-service.ts";
import { type BoardService, createBoardService } from "#api/modules/operations/board-service.ts";
import {
  createDirectoryEditorService,
  type DirectoryEditorService,
} from "#api/modules/operations/directory-editor-service.ts";
import {
  createOperationsService,
  type OperationsService,
} from "#api/modules/operations/operations-service.ts";
import {
  createProviderPhotoService,
  type ProviderPhotoService,
} from "#api/modules/operations/provider-photo-service.ts";
import { createReportsService, type ReportsService } from "#api/modules/operations/reports-service.ts";
import { confirmationEvents } from "#api/modules/scheduling/booking-calendar.ts";
import { bookingEventsOf } from "#api/modules/scheduling/booking-events.ts";
import { reminderEvents } from "#api/modules/scheduling/booking-reminders.ts";
import { createScheduling, type Scheduling } from "#api/modules/scheduling/scheduling-service.ts";
import { visitSoonEvents } from "#api/modules/scheduling/visit-soon-notices.ts";
import { createVideoCallService, type VideoCallService } from "#api/modules/video-call/video-call-service.ts";
import { createVisitChatService, type VisitChatService } from "#api/modules/visit-chat/visit-chat-service.ts";
import { createAttemptCounterRepository } from "#api/platform/attempt-counter-repository.ts";
import type { Clock } from "#api/platform/clock.ts";
import {
  type ApiConfig,
  apiPublicUrl,
  mailFrom,
  siteUrl,
  stripePriceVariable,
  webUrl,
} from "#api/platform/config.ts";
import type { FetchLike } from "#api/platform/http-client.ts";
import { createMailer, type Mailer } from "#api/platform/mail/mailer.ts";

/** Captcha, contact messages and e-mail lists (ADR 016). */
export type Communications = {
  captcha: CaptchaService;
  contact: ContactService;
  lists: MailingListService;
  listMirror: ListMirror;
  limitSends: SendLimiter;
};

export type ServiceOptions = {
  clock: Clock;
  /** Where the services log (the app's logger; a quiet one in the command-line tools). */
  log: FastifyBaseLogger;
  /** HTTP client of third-party APIs (Stripe, reCAPTCHA, SendGrid); global fetch otherwise. */
  fetch?: FetchLike | undefined;
  /** Membership and one-time visit credits as consultations need them; the membership service's otherwise. */
  entitlements?: ConsultationEntitlements | undefined;
  /** Told of every authenticated token (the rate limiter's known people). */
  onAuthenticated?: ((token: string, userId: string) => void) | undefined;
};

export type Services = ReturnType<typeof buildServices>;

/**
 * Every service of the API, built in one place from the database, the config and the clock: the app
 * (app.ts) decorates itself with them, the command-line tools (cli/) and the journeys' setup take
 * the ones they need. Building starts nothing: the live events start and the directory loads when
 * the app is ready, and nothing is sent before a service is called. The caller closes `mailer`.
 */
export function buildServices(handle: DbHandle, config: ApiConfig, options: ServiceOptions) {
  const db = handle.db;
  const { clock, log } = options;
  const httpFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const site = siteUrl(config);
  const web = webUrl(config);
  const acceptTimeoutMs = config.VISIT_ACCEPT_TIMEOUT * 60_000;

  const mailer: Mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    dataDir: config.DATA_DIR,
    from: mailFrom(config),
    clock,
    log,
  });
  // Any secret every instance shares will do (modules/accounts/tokens.ts); this one already exists.
  const keyHash = createKeyedHash(config.PUBLIC_API_TOKEN);
  const passwords: Passwords = createPasswords(config.ARGON2_PARAMS);
  const counters = createAttemptCounterRepository(db);

  const accounts: AccountService = createAccountService({
    db,
    clock,
    mailer,
    log,
    passwords,
    settings: {
      productName: config.PRODUCT_NAME,
      productSlug: config.PRODUCT_SLUG,
      serviceAccountEmail: config.SERVICE_ACCOUNT_EMAIL.trim().toLowerCase(),
      siteUrl: site,
      secondFactorKey: config.SECOND_FACTOR_KEY,
    },
    keyHash,
    timeZone: config.CLINIC_TIME_ZONE,
    idleTimeoutMs: config.SESSION_IDLE_MINUTES * 60_000,
    sessionCacheMs: config.SESSION_CACHE_MS,
    ...(options.onAuthenticated ? { onAuthenticated: options.onAuthenticated } : {}),
  });
  const careTeam: CareTeamService = createCareTeamService({
    db,
    clock,
    mailer,
    passwords,
    productName: config.PRODUCT_NAME,
    siteUrl: site,
    acceptTimeoutMs,
    timeZone: config.CLINIC_TIME_ZONE,
  });

  const stripe: StripePayments | undefined =
    config.PAYMENTS === "stripe"
      ? createStripePayments({
          secretKey: config.STRIPE_SECRET_KEY ?? "",
          webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? "",
          prices: {
            subscription_monthly: config.STRIPE_PRICE_MONTHLY ?? "",
            subscription_yearly: config.STRIPE_PRICE_YEARLY ?? "",
            ...perVisitPlan((visit) => config[stripePriceVariable(visit.planKey)] ?? ""),
          },
          ...(options.fetch ? { fetch: options.fetch } : {}),
        })
      : undefined;
  const payments = stripe ?? createDemoPayments({ webUrl: web });
  const membership: MembershipService = createMembershipService({
    db,
    clock,
    payments,
    webUrl: web,
    log,
    membershipMail: createMembershipMailer({ db, mailer, productName: config.PRODUCT_NAME, webUrl: web }),
    timeZone: config.CLINIC_TIME_ZONE,
  });
  const entitlements = options.entitlements ?? membershipEntitlements(membership);

  // Off (TEXT_MESSAGES=off, or unset in production on PostgreSQL): no provider, no texts.
  const textMessages: TextMessageProvider | null =
    config.TEXT_MESSAGES === "off"
      ? null
      : config.TEXT_MESSAGES === "twilio"
        ? createTwilioTextMessages(
            {
              accountSid: config.TWILIO_ACCOUNT_SID ?? "",
              authToken: config.TWILIO_AUTH_TOKEN ?? "",
              from: config.TWILIO_FROM,
              messagingServiceSid: config.TWILIO_MESSAGING_SERVICE_SID,
              apiUrl: config.TWILIO_API_URL,
            },
            log,
          )
        : createFileTextMessages({ dataDir: config.DATA_DIR, clock, log });
  const notifications: NotificationService = createNotificationService({
    db,
    clock,
    texts: createTextMessageService({
      db,
      clock,
      provider: textMessages,
      productName: config.PRODUCT_NAME,
      contact: [config.SUPPORT_EMAIL, config.SUPPORT_PHONE].filter(Boolean).join(", "),
      inboundUrl: `${apiPublicUrl(config)}/${config.PRODUCT_SLUG}/notifications/text-messages/inbound`,
      log,
    }),
    sender: createPushSender({
      vapid: {
        publicKey: config.VAPID_PUBLIC_KEY,
        privateKey: config.VAPID_PRIVATE_KEY,
        subject: config.VAPID_SUBJECT ?? `mailto:${config.SUPPORT_EMAIL}`,
      },
      fetch: httpFetch,
    }),
    publicKey: config.VAPID_PUBLIC_KEY,
    productName: config.PRODUCT_NAME,
    log,
  });

  const liveRepository = createLiveRepository(db);
  // PostgreSQL may have several API processes: they hear each other through LISTEN/NOTIFY.
  const liveSignal =
    handle.kind === "postgres"
      ? createPostgresSignal({ db: handle, repository: liveRepository, log })
      : createInProcessSignal();
  const liveEvents: LiveService = createLiveService({
    db,
    repository: liveRepository,
    signal: liveSignal,
    log,
  });
  // The operations board of today (ADR 067); its live events go to operators only, no push.
  const board: BoardService = createBoardService({
    db,
    clock,
    timeZone: config.CLINIC_TIME_ZONE,
    settings: {
      waitingAlertMinutes: config.BOARD_WAITING_ALERT_MINUTES,
      lateAlertMinutes: config.BOARD_LATE_ALERT_MINUTES,
      reads: {
        factor: config.BOARD_READS_FACTOR,
        floor: config.BOARD_READS_FLOOR,
        days: config.BOARD_READS_HISTORY_DAYS,
      },
    },
    publish: (recipients, topic, payload, tx) => liveEvents.publish(recipients, topic, payload, tx),
  });
  // Every live event the modules publish may also notify a device whose page is not looking
  // (ADR 064): the notifications decide, in a job queued in the same transaction.
  const live: LiveService = {
    ...liveEvents,
    async publish(recipients, topic, payload = {}, tx, author) {
      const ids = await liveEvents.publish(recipients, topic, payload, tx);
      await notifications.fromLiveEvent(recipients, topic, payload, tx, author);
      // The operators' board of today reads itself again after a request, visit or booking changes.
      await board.follow(topic, tx);
      return ids;
    },
  };

  const medicalDocuments: MedicalDocumentService = createMedicalDocumentService({
    db,
    clock,
    dataDir: config.DATA_DIR,
  });
  const visits: VisitService = createVisitService({
    db,
    clock,
    timeZone: config.CLINIC_TIME_ZONE,
    entitlements,
    mail: withVisitNotices(
      createVisitMailer({
        db,
        mailer,
        productName: config.PRODUCT_NAME,
        consultationsUrl: `${web}/my-profile/consultations`,
        bookUrl: `${web}/consultation/book`,
      }),
      notifications,
    ),
    events: live,
    log,
    acceptTimeoutMs,
    publish: (recipients, topic, payload) => live.publish(recipients, topic, payload),
    documentBytes: medicalDocuments.bytesOf,
    // Booked visits start from "scheduled", and a clinician's cancel tells their listeners.
    beforeStart: (actor, id) => scheduling.bookings.beforeStart(actor, id),
    onClinicianCancel: (tx, id) => scheduling.bookings.clinicianCanceled(tx, id),
    // A booked visit its clinician canceled or never started: a job of the cancel writes to the patient.
    mailedByJob: (id) => scheduling.bookings.cancelMailedByJob(id),
  });
  const scheduling: Scheduling = createScheduling(
    { db: handle, clock, live, visits, log },
    config,
    bookingEventsOf(
      reminderEvents({
        clock,
        minutesBefore: config.BOOKING_REMINDERS_MINUTES,
        noShowGraceMinutes: config.NO_SHOW_GRACE_MINUTES,
      }),
      confirmationEvents({ clock }),
      visitSoonEvents({ clock }),
    ),
  );
  const consultations: ConsultationService = createConsultationService({
    db,
    clock,
    timeZone: config.CLINIC_TIME_ZONE,
    entitlements,
    mail: visits.mail,
    announceQueueChange: visits.announceQueueChange,
    events: live,
    lineOf: visits.lineOf,
    bookings: scheduling.bookings,
    followUpDays: config.VISIT_FOLLOW_UP_DAYS,
  });
  const visitChat: VisitChatService = createVisitChatService({
    db,
    clock,
    followUpDays: config.VISIT_FOLLOW_UP_DAYS,
    documents: medicalDocuments,
    // Each write tells both participants' open pages (ids only) through the live events.
    events: live,
  });
  const videoCalls: VideoCallService = createVideoCallService({
    db,
    clock,
    ice: {
      turnUrls: config.TURN_URLS,
      turnSecret: config.TURN_SECRET,
      ttlSeconds: config.TURN_CREDENTIAL_TTL_S,
      stunUrls: config.STUN_URLS,
      policy: config.CALL_ICE_TRANSPORT_POLICY,
    },
    live,
    visits: { start: (actor, id) => visits.start(actor, id) },
    checkInOpensMinutes: config.CHECK_IN_OPENS_MINUTES,
  });

  const providerDirectory: ProviderDirectory = createProviderDirectory(createProviderRepository(db), {
    clock,
    timeZone: config.CLINIC_TIME_ZONE,
    onError: (error) => log.warn({ err: error }, "loading the provider directory failed"),
  });
  const providers: ProviderService = createProviderService(
    createProviderRepository(db),
    providerDirectory,
    // Each on-duty provider's wait is read at most every few seconds, whatever the searches.
    reusedExpectedWaits(
      (ids) => expectedWaits(db, ids, clock.now(), acceptTimeoutMs, config.CLINIC_TIME_ZONE),
      clock,
    ),
    scheduling.availability.current,
    () => licenceDay(clock.now(), config.CLINIC_TIME_ZONE),
  );
  // An operator's edit reaches every process's copy of the directory through the same signal.
  const directoryChanges = directoryChangesOver(liveSignal, providerDirectory, log);
  // The uploaded photos live in the database; earlier versions' files are copied in (ADR 070).
  const providerPhotos: ProviderPhotoService = createProviderPhotoService({
    db,
    legacyDir: join(config.DATA_DIR, "provider-photos"),
  });
  const directoryEditor: DirectoryEditorService = createDirectoryEditorService({
    db,
    clock,
    photos: providerPhotos,
    timeZone: config.CLINIC_TIME_ZONE,
    directoryChanged: directoryChanges.announce,
  });
  const ratings: RatingService = createRatingService({
    db,
    clock,
    onProviderChanged: () => providerDirectory.invalidate(),
  });
  const specializations: SpecializationService = createSpecializationService(
    createSpecializationRepository(db),
  );

  const captcha = createCaptchaService({
    db,
    clock,
    fetch: httpFetch,
    log,
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
    log,
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
  const communications: Communications = {
    captcha,
    listMirror,
    lists,
    limitSends: createSendLimiter({ counters, clock, keyHash }),
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
  };
  const myData: MyDataService = createMyDataService({
    db,
    clock,
    mailer,
    passwords,
    lists,
    // The same counters as logins: a wrong password here is a failed login of the account.
    throttle: createLoginThrottle({ counters, clock, keyHash }),
    settings: { productName: config.PRODUCT_NAME, siteUrl: site },
    uploadDir: join(config.DATA_DIR, "uploads"),
  });

  // The operations console (ADR 065): operators, the team, visits' payments and refunds.
  const operations: OperationsService = createOperationsService({
    db,
    clock,
    mailer,
    passwords,
    log,
    careTeam,
    payments,
    schedules: scheduling.schedules,
    productName: config.PRODUCT_NAME,
    siteUrl: site,
    webUrl: web,
    timeZone: config.CLINIC_TIME_ZONE,
  });
  // Its reports (ADR 066): figures over a period, computed by the database.
  const reports: ReportsService = createReportsService({ db, clock, timeZone: config.CLINIC_TIME_ZONE });

  return {
    mailer,
    passwords,
    operations,
    reports,
    board,
    directoryEditor,
    providerPhotos,
    stripe,
    entitlements,
    accounts,
    careTeam,
    membership,
    live,
    visits,
    scheduling,
    consultations,
    medicalDocuments,
    visitChat,
    videoCalls,
    providerDirectory,
    providers,
    ratings,
    specializations,
    communications,
    myData,
    notifications,
  };
}

/** The visit e-mails that also notify: the summary is ready, a payment was refunded. */
function withVisitNotices(mail: VisitMailer, notifications: NotificationService): VisitMailer {
  const notices: VisitMailer["send"] = async (template, visit, moneyBack) => {
    if (template === "visit-summary-ready")
      await notifications.notify(undefined, visit.userId, "summary_ready", visit.id);
    if (moneyBack?.kind === "refunded")
      await notifications.notify(undefined, visit.userId, "refund", visit.id);
  };
  return {
    async send(template, visit, moneyBack, rebook) {
      await mail.send(template, visit, moneyBack, rebook);
      await notices(template, visit, moneyBack);
    },
    async sendOnce(key, template, visit, moneyBack, rebook) {
      await mail.sendOnce(key, template, visit, moneyBack, rebook);
      await notices(template, visit, moneyBack);
    },
  };
}
