import { randomUUID } from "node:crypto";
import { QUEUE_TOPIC } from "@ambercare/contracts/console";
import { VISIT_MESSAGE_TOPIC } from "@ambercare/contracts/live";
import { toLocale } from "@ambercare/contracts/locales";
import {
  CLINICIAN_NOTIFICATION_EVENTS,
  NOTIFICATION_ERRORS,
  NOTIFICATION_EVENTS,
  type NotificationDevice,
  type NotificationEvent,
  PATIENT_NOTIFICATION_EVENTS,
  type PushMessage,
  type PushSubscribeRequest,
  type UpdateDeviceRequest,
} from "@ambercare/contracts/notifications";
import { AGENDA_TOPIC } from "@ambercare/contracts/scheduling";
import { VISIT_CALL_RING_TOPIC } from "@ambercare/contracts/video-call-protocol";
import { VISIT_STATUS_TOPIC } from "@ambercare/contracts/waiting-room";
import type { Database, Executor } from "@ambercare/db/client";
import {
  bookings,
  clinicianSchedules,
  consultationMessages,
  consultations,
  notificationDeliveries,
  providers,
  pushSubscriptions,
  users,
} from "@ambercare/db/schema";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import {
  EXCERPT_LENGTH,
  type NotificationDetails,
  notificationText,
} from "#api/modules/notifications/notification-copy.ts";
import type { PushSender } from "#api/modules/notifications/push-sender.ts";
import { reminderTime, textCopy } from "#api/modules/notifications/text-message-copy.ts";
import type { TextMessageService } from "#api/modules/notifications/text-message-service.ts";
import { nextTextingStart, textingAllowed } from "#api/modules/notifications/texting-hours.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import { enqueue, enqueueAll, type JobRunner } from "#api/platform/jobs.ts";
import { mailT } from "#api/platform/mail/mail-copy.ts";

/**
 * Notifications to people who are not looking (ADR 064). Everything that may notify goes through
 * here: the live events the modules already publish (`fromLiveEvent`, called in their transaction)
 * and the few events that have no live event (`notify`: summary ready, refund, a booked visit
 * starting soon). Either only enqueues a `notify` job (ids only): the action that caused it never
 * waits on a push service and never fails because of one. The job then decides, in one place
 * (`decide`), which devices hear of which event: the device's choices × the page that is visibly
 * showing the visit; it sends, and records every send, skip and failure without the text.
 */

export const NOTIFY_JOB = "notify";
/** A reminder text that was due in the night, sent when the patient's morning begins. */
export const TEXT_LATER_JOB = "notify.text-later";
/** The notice that also goes by text: the one an hour before a booked visit (one text a visit). */
export const TEXT_REMINDER_MINUTES = 60;
/** A page that said it shows a visit is believed this long after it last said so. */
export const SHOWING_LEASE_MS = 60_000;

type NotifyPayload = {
  userId: string;
  consultationId: string | null;
  /** A live topic the event came from, or the event itself. */
  topic?: string;
  event?: NotificationEvent;
  status?: string;
  change?: string;
  messageId?: string;
  minutes?: number;
  /** A text held back by the night, now due: sent only if the visit is still booked at this start. */
  startsAt?: string;
};

export type Audience = "patient" | "clinician";

type DeviceRow = typeof pushSubscriptions.$inferSelect;

function toDevice(row: DeviceRow): NotificationDevice {
  return {
    id: row.id,
    label: row.label,
    endpoint: row.endpoint,
    detailed: row.detailed,
    disabled_events: row.disabledEvents.filter((event): event is NotificationEvent =>
      (NOTIFICATION_EVENTS as readonly string[]).includes(event),
    ),
    created_at: row.createdAt.toISOString(),
    last_sent_at: row.lastSentAt?.toISOString() ?? null,
  };
}

export const eventsOf = (audience: Audience): NotificationEvent[] => [
  ...(audience === "patient" ? PATIENT_NOTIFICATION_EVENTS : CLINICIAN_NOTIFICATION_EVENTS),
];

/** How long a push service keeps trying, and how urgently, by event. */
function delivery(
  event: NotificationEvent,
  minutes?: number,
): { ttlSeconds: number; urgency: "high" | "normal" } {
  if (event === "call_ringing") return { ttlSeconds: 60, urgency: "high" };
  if (event === "visit_soon") return { ttlSeconds: Math.max(60, (minutes ?? 10) * 60), urgency: "high" };
  if (event === "queue_request" || event === "patient_checked_in")
    return { ttlSeconds: 15 * 60, urgency: "high" };
  return { ttlSeconds: 24 * 60 * 60, urgency: "normal" };
}

/**
 * Which event a new chat message is for one recipient: the writer's own pages hear of it live, and
 * system notices are not worth a notification.
 */
function messageEvent(
  message: { author: string; authorUserId: string | null },
  recipientUserId: string,
  isPatient: boolean,
): NotificationEvent | null {
  if (message.authorUserId === recipientUserId || message.author === "system") return null;
  if (isPatient) return message.author === "provider" ? "visit_message" : null;
  return message.author === "patient" ? "patient_message" : null;
}

/** The page a click opens. */
function pageOf(event: NotificationEvent, consultationId: string | null): string {
  if (event === "queue_request") return "/console";
  if (event === "patient_checked_in" || event === "patient_message")
    return consultationId ? `/console/visits/${consultationId}` : "/console";
  return consultationId ? `/my-profile/consultations/${consultationId}` : "/my-profile/consultations";
}

export function createNotificationService(deps: {
  db: Database;
  clock: Clock;
  sender: PushSender;
  /** The mobile number, its consent and the text-message provider. */
  texts: TextMessageService;
  /** The server's VAPID public key, handed to the browser for `pushManager.subscribe`. */
  publicKey: string;
  productName: string;
  log: FastifyBaseLogger;
}) {
  const { db, clock, log } = deps;

  async function ownDevice(userId: string, deviceId: string): Promise<DeviceRow> {
    const [row] = await db
      .select()
      .from(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, deviceId), eq(pushSubscriptions.userId, userId)));
    if (!row) throw new AppError("DEVICE_NOT_FOUND", 404, NOTIFICATION_ERRORS.deviceNotFound);
    return row;
  }

  type DeliveryEntry = Omit<typeof notificationDeliveries.$inferInsert, "at" | "channel"> & {
    channel?: string;
  };

  // Never the text: which event, to whom, on which device, and what came of it.
  function logDelivery(entry: DeliveryEntry): void {
    log.info(
      {
        notification: entry.event,
        channel: entry.channel ?? "push",
        outcome: entry.outcome,
        reason: entry.reason ?? undefined,
        deviceId: entry.subscriptionId ?? undefined,
      },
      "notification",
    );
  }

  async function record(entry: DeliveryEntry): Promise<void> {
    await db.insert(notificationDeliveries).values({ channel: "push", ...entry, at: clock.now() });
    logDelivery(entry);
  }

  /** Which event, if any, a queued signal is for this recipient. */
  async function decideEvent(payload: NotifyPayload): Promise<NotificationEvent | null> {
    if (payload.event) return payload.event;
    if (!payload.consultationId) return null;
    const [visit] = await db
      .select({ userId: consultations.userId })
      .from(consultations)
      .where(eq(consultations.id, payload.consultationId));
    if (!visit) return null;
    const isPatient = visit.userId === payload.userId;
    switch (payload.topic) {
      case VISIT_STATUS_TOPIC:
        return isPatient && payload.status === "accepted" ? "visit_accepted" : null;
      case VISIT_CALL_RING_TOPIC:
        return isPatient ? "call_ringing" : null;
      case QUEUE_TOPIC:
        return !isPatient && payload.change === "created" ? "queue_request" : null;
      case AGENDA_TOPIC:
        return !isPatient && payload.change === "checked_in" ? "patient_checked_in" : null;
      case VISIT_MESSAGE_TOPIC: {
        if (payload.change !== "created" || !payload.messageId) return null;
        const [message] = await db
          .select({ author: consultationMessages.author, authorUserId: consultationMessages.authorUserId })
          .from(consultationMessages)
          .where(eq(consultationMessages.id, payload.messageId));
        return message ? messageEvent(message, payload.userId, isPatient) : null;
      }
      default:
        return null;
    }
  }

  /** What a detailed notification may name; read only for a device that asked for it. */
  async function detailsOf(payload: NotifyPayload, event: NotificationEvent, locale: "en" | "bg") {
    const details: NotificationDetails = { minutes: payload.minutes };
    if (!payload.consultationId) return details;
    const [visit] = await db
      .select({
        type: consultations.type,
        patientFirstName: users.firstName,
        providerFirstName: providers.firstName,
        providerLastName: providers.lastName,
      })
      .from(consultations)
      .innerJoin(users, eq(users.id, consultations.userId))
      .leftJoin(providers, eq(providers.id, consultations.providerId))
      .where(eq(consultations.id, payload.consultationId));
    if (!visit) return details;
    details.visit = mailT(locale)(`visit.types.${visit.type}`);
    const clinicianSide = (CLINICIAN_NOTIFICATION_EVENTS as readonly string[]).includes(event);
    details.otherName = clinicianSide
      ? (visit.patientFirstName ?? undefined)
      : visit.providerLastName
        ? `${visit.providerFirstName ?? ""} ${visit.providerLastName}`.trim()
        : undefined;
    if (payload.messageId) {
      const [message] = await db
        .select({ body: consultationMessages.body })
        .from(consultationMessages)
        .where(eq(consultationMessages.id, payload.messageId));
      if (message) {
        const text = message.body.replaceAll(/\s+/g, " ").trim();
        details.excerpt = text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
      }
    }
    return details;
  }

  /** The job: decides, sends to each device (and phone) that should hear of it, records each outcome. */
  async function deliver(payload: NotifyPayload): Promise<void> {
    const event = await decideEvent(payload);
    if (!event) return;
    await deliverPush(payload, event);
    try {
      await deliverText(payload, event);
    } catch (error) {
      // A text never costs the push its record, nor the job a retry that would push again.
      log.warn({ err: error, notification: event, channel: "sms" }, "a text's decision failed");
    }
  }

  /** The booked visit of a consultation while it is booked, with the clinician's zone. */
  async function bookedVisit(consultationId: string) {
    const [row] = await db
      .select({ startsAt: bookings.startsAt, clinicianZone: clinicianSchedules.timeZone })
      .from(bookings)
      .leftJoin(clinicianSchedules, eq(clinicianSchedules.clinicianUserId, bookings.clinicianUserId))
      .where(and(eq(bookings.consultationId, consultationId), eq(bookings.status, "booked")));
    return row;
  }

  /**
   * The text of a booked visit's reminder (ADR 064): only the hour-before notice, only to a
   * confirmed number with consent and not opted out, only between 08:00 and 21:00 in the patient's
   * zone. One due in the night waits for the morning if the visit is still ahead then; otherwise it
   * is skipped (`quiet_hours`). The e-mailed reminders go regardless.
   */
  async function deliverText(payload: NotifyPayload, event: NotificationEvent): Promise<void> {
    if (
      !deps.texts.enabled ||
      event !== "visit_soon" ||
      payload.minutes !== TEXT_REMINDER_MINUTES ||
      !payload.consultationId
    )
      return;
    const base = { userId: payload.userId, event, consultationId: payload.consultationId, channel: "sms" };
    const recipient = await deps.texts.recipient(payload.userId);
    if (!recipient.ok) {
      await record({ ...base, outcome: "skipped", reason: recipient.reason });
      return;
    }
    const visit = await bookedVisit(payload.consultationId);
    const now = clock.now();
    if (
      !visit ||
      visit.startsAt.getTime() <= now.getTime() ||
      (payload.startsAt !== undefined && new Date(payload.startsAt).getTime() !== visit.startsAt.getTime())
    ) {
      await record({ ...base, outcome: "skipped", reason: "not_booked" });
      return;
    }
    const zone = recipient.timeZone ?? visit.clinicianZone ?? "UTC";
    if (!textingAllowed(now, zone)) {
      const morning = nextTextingStart(now, zone);
      if (payload.startsAt !== undefined || morning.getTime() >= visit.startsAt.getTime()) {
        await record({ ...base, outcome: "skipped", reason: "quiet_hours" });
        return;
      }
      await enqueue(db, {
        kind: TEXT_LATER_JOB,
        key: `${TEXT_LATER_JOB}:${payload.consultationId}:${visit.startsAt.toISOString()}`,
        runAt: morning,
        payload: { ...payload, startsAt: visit.startsAt.toISOString() },
      });
      await record({ ...base, outcome: "deferred", reason: "quiet_hours" });
      return;
    }
    const outcome = await deps.texts.send({
      to: recipient.phone,
      body: textCopy(recipient.locale).reminder(
        deps.productName,
        reminderTime(visit.startsAt, recipient.locale, zone),
      ),
      purpose: event,
    });
    await record(
      outcome.kind === "sent"
        ? { ...base, outcome: "sent" }
        : { ...base, outcome: "failed", reason: outcome.reason },
    );
  }

  /** Web push: each of the recipient's devices, unless it turned the event off or shows the visit. */
  async function deliverPush(payload: NotifyPayload, event: NotificationEvent): Promise<void> {
    const base = { userId: payload.userId, event, consultationId: payload.consultationId };
    const devices = await db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, payload.userId));
    if (devices.length === 0) {
      await record({ ...base, outcome: "skipped", reason: "no_device" });
      return;
    }
    const now = clock.now();
    for (const device of devices) {
      const onDevice = { ...base, subscriptionId: device.id };
      if (device.disabledEvents.includes(event)) {
        await record({ ...onDevice, outcome: "skipped", reason: "turned_off" });
        continue;
      }
      if (
        payload.consultationId !== null &&
        device.showingVisitId === payload.consultationId &&
        device.showingUntil !== null &&
        device.showingUntil.getTime() > now.getTime()
      ) {
        await record({ ...onDevice, outcome: "skipped", reason: "page_visible" });
        continue;
      }
      const locale = toLocale(device.locale);
      const details = device.detailed
        ? await detailsOf(payload, event, locale)
        : { minutes: payload.minutes };
      const message: PushMessage = {
        title: deps.productName,
        body: notificationText(event, locale, device.detailed, details),
        url: pageOf(event, payload.consultationId),
        tag: `${event}:${payload.consultationId ?? "account"}`,
      };
      const outcome = await deps.sender.send(
        device,
        JSON.stringify(message),
        delivery(event, payload.minutes),
      );
      if (outcome.kind === "sent") {
        await db
          .update(pushSubscriptions)
          .set({ lastSentAt: now })
          .where(eq(pushSubscriptions.id, device.id));
        await record({ ...onDevice, outcome: "sent" });
      } else if (outcome.kind === "gone") {
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
        await record({ ...onDevice, outcome: "removed", reason: `status_${outcome.status}` });
      } else {
        await record({ ...onDevice, outcome: "failed", reason: outcome.reason });
      }
    }
  }

  /** One `notify` job per payload, due at `runAt`. */
  const notifyJobs = (payloads: readonly NotifyPayload[], runAt: Date) =>
    payloads.map((payload) => ({
      kind: NOTIFY_JOB,
      key: `${NOTIFY_JOB}:${payload.userId}:${randomUUID()}`,
      runAt,
      payload,
    }));

  /** One `notify` job per payload, in one statement. */
  async function queue(executor: Executor, payloads: NotifyPayload | NotifyPayload[]): Promise<void> {
    const all = Array.isArray(payloads) ? payloads : [payloads];
    if (all.length === 0) return;
    const runAt = clock.now();
    // In a savepoint: a failed enqueue is logged, and the change that caused it still commits.
    try {
      await executor.transaction((inner) => enqueueAll(inner, notifyJobs(all, runAt)));
    } catch (error) {
      log.warn({ err: error }, "queueing a notification failed");
    }
  }

  /**
   * A new chat message (ADR 064, amended): decided in its own transaction, where the decision needs
   * one read and no job. The message, its visit's patient and which recipients have a device come
   * in one statement; a recipient the message is for who has no device gets its `no_device` row
   * there; only one with a device gets a job, which decides again when it runs (the page showing
   * the visit, the events the device turned off) and sends. A chat writes a message a second per
   * side, and most recipients have no device: the job's claim, reads and completion were most of a
   * message's cost. In a savepoint, like `queue`: a failure here is logged and the message stays.
   */
  async function fromMessage(
    executor: Executor,
    userIds: readonly string[],
    consultationId: string | null,
    messageId: string,
  ): Promise<void> {
    if (userIds.length === 0) return;
    const now = clock.now();
    let skipped: DeliveryEntry[];
    try {
      skipped = await executor.transaction(async (inner) => {
        const [message] = await inner
          .select({
            author: consultationMessages.author,
            authorUserId: consultationMessages.authorUserId,
            patientUserId: consultations.userId,
            // Text, not an array: both drivers read it alike.
            withDevice: sql<
              string | null
            >`(select string_agg(distinct ${pushSubscriptions.userId}::text, ',') from ${pushSubscriptions} where ${inArray(pushSubscriptions.userId, [...userIds])})`,
          })
          .from(consultationMessages)
          .innerJoin(consultations, eq(consultations.id, consultationMessages.consultationId))
          .where(eq(consultationMessages.id, messageId));
        if (!message) return [];
        const withDevice = new Set(message.withDevice?.split(",") ?? []);
        const jobsDue: NotifyPayload[] = [];
        const noDevice: DeliveryEntry[] = [];
        for (const userId of userIds) {
          const event = messageEvent(message, userId, userId === message.patientUserId);
          if (!event) continue;
          if (withDevice.has(userId)) {
            jobsDue.push({
              userId,
              consultationId,
              topic: VISIT_MESSAGE_TOPIC,
              change: "created",
              messageId,
            });
          } else {
            noDevice.push({ userId, event, consultationId, outcome: "skipped", reason: "no_device" });
          }
        }
        if (noDevice.length > 0) {
          await inner
            .insert(notificationDeliveries)
            .values(noDevice.map((entry) => ({ channel: "push", ...entry, at: now })));
        }
        await enqueueAll(inner, notifyJobs(jobsDue, now));
        return noDevice;
      });
    } catch (error) {
      log.warn({ err: error }, "queueing a notification failed");
      return;
    }
    for (const entry of skipped) logDelivery(entry);
  }

  return {
    publicKey: deps.publicKey,
    /** The patient's mobile number for reminder texts, its consent, and the inbound webhook. */
    texts: deps.texts,

    /** Registers the job's handler on the runner. */
    register(jobs: JobRunner): void {
      // A failed push is recorded, not retried: a late "is calling" is worse than none.
      jobs.register(NOTIFY_JOB, (job) => deliver(job.payload as NotifyPayload), { maxAttempts: 3 });
      // The morning's text of a reminder due in the night: its own decision again (consent, hours).
      jobs.register(
        TEXT_LATER_JOB,
        async (job) => {
          const payload = job.payload as NotifyPayload;
          await deliverText(payload, payload.event ?? "visit_soon");
        },
        { maxAttempts: 1 },
      );
    },

    /**
     * A live event was published (in the transaction `tx` when given): queues one notification
     * check per recipient for the topics that may notify; others cost nothing. `author`, the
     * account whose own write it reports, is never notified of it (its check would find so): no job.
     */
    async fromLiveEvent(
      recipients: readonly string[],
      topic: string,
      payload: Record<string, unknown>,
      tx?: Executor,
      author?: string,
    ): Promise<void> {
      if (
        ![VISIT_STATUS_TOPIC, VISIT_CALL_RING_TOPIC, QUEUE_TOPIC, AGENDA_TOPIC, VISIT_MESSAGE_TOPIC].includes(
          topic,
        )
      )
        return;
      if (topic === VISIT_STATUS_TOPIC && payload.status !== "accepted") return;
      if (
        (topic === QUEUE_TOPIC && payload.change !== "created") ||
        (topic === AGENDA_TOPIC && payload.change !== "checked_in")
      )
        return;
      if (topic === VISIT_MESSAGE_TOPIC && payload.change !== "created") return;
      const consultationId = typeof payload.consultation_id === "string" ? payload.consultation_id : null;
      if (topic === VISIT_MESSAGE_TOPIC && typeof payload.message_id === "string") {
        const others = [...new Set(recipients)].filter((userId) => userId !== author);
        await fromMessage(tx ?? db, others, consultationId, payload.message_id);
        return;
      }
      await queue(
        tx ?? db,
        [...new Set(recipients)]
          .filter((userId) => userId !== author)
          .map((userId) => ({
            userId,
            consultationId,
            topic,
            ...(typeof payload.status === "string" ? { status: payload.status } : {}),
            ...(typeof payload.change === "string" ? { change: payload.change } : {}),
            ...(typeof payload.message_id === "string" ? { messageId: payload.message_id } : {}),
          })),
      );
    },

    /** An event with no live event of its own (summary ready, refund, a booked visit soon). */
    async notify(
      executor: Executor | undefined,
      userId: string,
      event: NotificationEvent,
      consultationId: string | null,
      extra: { minutes?: number } = {},
    ): Promise<void> {
      await queue(executor ?? db, { userId, consultationId, event, ...extra });
    },

    /** Runs the decision and the sends now (the job's handler; tests and the booking reminders). */
    deliver,

    async list(userId: string, audience: Audience) {
      const rows = await db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(pushSubscriptions.createdAt);
      return { public_key: deps.publicKey, events: eventsOf(audience), devices: rows.map(toDevice) };
    },

    /**
     * Registers a browser's subscription. The same endpoint again (the browser renewed its keys, or
     * another account signed in on it) takes it over: one browser notifies one account.
     */
    async add(
      userId: string,
      input: PushSubscribeRequest,
    ): Promise<{ created: boolean; device: NotificationDevice }> {
      if (
        !deps.sender.accepts({ endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
      )
        throw new AppError("PUSH_SUBSCRIPTION_INVALID", 422, NOTIFICATION_ERRORS.subscriptionInvalid);
      const [existing] = await db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, input.endpoint));
      const values = {
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        label: input.label,
        locale: input.locale ?? "en",
      };
      if (existing) {
        const sameOwner = existing.userId === userId;
        const [row] = await db
          .update(pushSubscriptions)
          .set({
            ...values,
            // Another account's choices do not carry over to this one.
            ...(sameOwner
              ? {}
              : { detailed: false, disabledEvents: [], showingVisitId: null, showingUntil: null }),
          })
          .where(eq(pushSubscriptions.id, existing.id))
          .returning();
        return { created: false, device: toDevice(row!) };
      }
      const [row] = await db
        .insert(pushSubscriptions)
        .values({ ...values, createdAt: clock.now() })
        .returning();
      return { created: true, device: toDevice(row!) };
    },

    async update(userId: string, deviceId: string, input: UpdateDeviceRequest): Promise<NotificationDevice> {
      await ownDevice(userId, deviceId);
      const [row] = await db
        .update(pushSubscriptions)
        .set({
          ...(input.detailed !== undefined ? { detailed: input.detailed } : {}),
          ...(input.disabled_events !== undefined
            ? { disabledEvents: [...new Set(input.disabled_events)] }
            : {}),
          ...(input.locale !== undefined ? { locale: input.locale } : {}),
        })
        .where(eq(pushSubscriptions.id, deviceId))
        .returning();
      return toDevice(row!);
    },

    async remove(userId: string, deviceId: string): Promise<void> {
      await ownDevice(userId, deviceId);
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, deviceId));
    },

    /** The visit a page of this device visibly shows, for a minute; null: none. */
    async showing(userId: string, deviceId: string, consultationId: string | null): Promise<Date | null> {
      await ownDevice(userId, deviceId);
      const until = consultationId ? new Date(clock.now().getTime() + SHOWING_LEASE_MS) : null;
      await db
        .update(pushSubscriptions)
        .set({ showingVisitId: consultationId, showingUntil: until })
        .where(eq(pushSubscriptions.id, deviceId));
      return until;
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
