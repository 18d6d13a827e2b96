import type { Locale } from "@ambercare/contracts/locales";
import type { NotificationEvent } from "@ambercare/contracts/notifications";

/**
 * What a notification says (ADR 064). By default it tells that something happened and where, never
 * what: no symptom, condition, name or message text, since a lock screen is seen by others. A device
 * whose owner turned on detailed notifications gets the detailed line, which may name the other
 * person, the kind of visit and the first words of a message.
 */

export type NotificationDetails = {
  /** The other person's name as the recipient knows them ("Dr. Ana Petrova", "Maria"). */
  otherName?: string | undefined;
  /** The kind of visit in the recipient's language ("video visit"). */
  visit?: string | undefined;
  /** The first words of a message. */
  excerpt?: string | undefined;
  minutes?: number | undefined;
};

type Copy = {
  generic: (d: NotificationDetails) => string;
  detailed: (d: NotificationDetails) => string;
};

const EN: Record<NotificationEvent, Copy> = {
  visit_accepted: {
    generic: () => "You have an update about your visit.",
    detailed: (d) => `${d.otherName ?? "Your clinician"} accepted your ${d.visit ?? "visit"}.`,
  },
  call_ringing: {
    generic: () => "Your visit is ready to start. Open to join.",
    detailed: (d) => `${d.otherName ?? "Your clinician"} is calling you now.`,
  },
  visit_message: {
    generic: () => "You have a new message about your visit.",
    detailed: (d) => `${d.otherName ?? "Your clinician"}: ${d.excerpt ?? ""}`.trim(),
  },
  summary_ready: {
    generic: () => "You have an update about your visit.",
    detailed: (d) => `The summary of your ${d.visit ?? "visit"} is ready.`,
  },
  visit_soon: {
    generic: (d) => `Your visit starts in ${d.minutes ?? 0} minutes.`,
    detailed: (d) =>
      `Your ${d.visit ?? "visit"} with ${d.otherName ?? "your clinician"} starts in ${d.minutes ?? 0} minutes.`,
  },
  refund: {
    generic: () => "You have an update about a payment.",
    detailed: (d) => `The payment for your ${d.visit ?? "visit"} was refunded.`,
  },
  queue_request: {
    generic: () => "A patient is waiting in the queue.",
    detailed: (d) => `A new ${d.visit ?? "visit"} request is waiting in the queue.`,
  },
  patient_checked_in: {
    generic: () => "A patient checked in for a booked visit.",
    detailed: (d) => `${d.otherName ?? "A patient"} checked in for their ${d.visit ?? "visit"}.`,
  },
  patient_message: {
    generic: () => "A patient wrote in an open visit.",
    detailed: (d) => `${d.otherName ?? "A patient"}: ${d.excerpt ?? ""}`.trim(),
  },
};

const BG: Record<NotificationEvent, Copy> = {
  visit_accepted: {
    generic: () => "Имате новина за вашата консултация.",
    detailed: (d) =>
      `${d.otherName ?? "Вашият лекар"} прие вашата консултация (${d.visit ?? "консултация"}).`,
  },
  call_ringing: {
    generic: () => "Консултацията ви може да започне. Отворете, за да се включите.",
    detailed: (d) => `${d.otherName ?? "Вашият лекар"} ви се обажда сега.`,
  },
  visit_message: {
    generic: () => "Имате ново съобщение относно вашата консултация.",
    detailed: (d) => `${d.otherName ?? "Вашият лекар"}: ${d.excerpt ?? ""}`.trim(),
  },
  summary_ready: {
    generic: () => "Имате новина за вашата консултация.",
    detailed: (d) => `Обобщението на вашата консултация (${d.visit ?? "консултация"}) е готово.`,
  },
  visit_soon: {
    generic: (d) => `Консултацията ви започва след ${d.minutes ?? 0} минути.`,
    detailed: (d) =>
      `Консултацията ви (${d.visit ?? "консултация"}) с ${d.otherName ?? "вашия лекар"} започва след ${d.minutes ?? 0} минути.`,
  },
  refund: {
    generic: () => "Имате новина за плащане.",
    detailed: (d) => `Плащането за вашата консултация (${d.visit ?? "консултация"}) беше възстановено.`,
  },
  queue_request: {
    generic: () => "Пациент чака в опашката.",
    detailed: (d) => `Нова заявка (${d.visit ?? "консултация"}) чака в опашката.`,
  },
  patient_checked_in: {
    generic: () => "Пациент се регистрира за записан час.",
    detailed: (d) => `${d.otherName ?? "Пациент"} се регистрира за своя час (${d.visit ?? "консултация"}).`,
  },
  patient_message: {
    generic: () => "Пациент писа в отворена консултация.",
    detailed: (d) => `${d.otherName ?? "Пациент"}: ${d.excerpt ?? ""}`.trim(),
  },
};

const COPY: Record<Locale, Record<NotificationEvent, Copy>> = { en: EN, bg: BG };

/** Longest excerpt of a message in a detailed notification. */
export const EXCERPT_LENGTH = 100;

export function notificationText(
  event: NotificationEvent,
  locale: Locale,
  detailed: boolean,
  details: NotificationDetails,
): string {
  const copy = COPY[locale][event];
  return detailed ? copy.detailed(details) : copy.generic(details);
}
