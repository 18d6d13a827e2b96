import type { Locale } from "@ambercare/contracts/locales";

/**
 * What a text message says (ADR 064), in the patient's language. Like a generic push it says that
 * something happens and when, never what: no symptom, condition, clinician's name or kind of visit,
 * since a phone's screen and its messages are seen by others. The consent's wording is stored as
 * shown, so changing a line here changes what new consents record, never the old ones.
 */

type Copy = {
  consent: (product: string) => string;
  code: (product: string, code: string, minutes: number) => string;
  reminder: (product: string, time: string) => string;
  help: (product: string, contact: string) => string;
  restarted: (product: string) => string;
  notRestarted: (product: string) => string;
};

const COPY: Record<Locale, Copy> = {
  en: {
    consent: (product) =>
      `I agree to receive reminder text messages from ${product} about my booked visits at this mobile number (at most two per visit, between 8 am and 9 pm my time). Message and data rates may apply. I can stop them at any time here or by replying STOP.`,
    code: (product, code, minutes) =>
      `${product}: your confirmation code is ${code}. It expires in ${minutes} minutes. If you did not ask for it, ignore this message.`,
    reminder: (product, time) =>
      `${product}: reminder, your booked visit starts ${time}. Sign in to join. Reply STOP to stop texts.`,
    help: (product, contact) =>
      `${product}: visit reminders. Help: ${contact}. Reply STOP to stop texts, START to receive them again.`,
    restarted: (product) => `${product}: visit reminders by text are on again. Reply STOP to stop them.`,
    notRestarted: (product) =>
      `${product}: to receive visit reminders by text, add this number and agree to them in your profile.`,
  },
  bg: {
    consent: (product) =>
      `Съгласен/съгласна съм да получавам от ${product} текстови съобщения с напомняния за записаните ми посещения на този мобилен номер (най-много две за посещение, между 8:00 и 21:00 мое време). Може да се начисляват такси за съобщения. Мога да ги спра по всяко време тук или с отговор STOP.`,
    code: (product, code, minutes) =>
      `${product}: кодът ви за потвърждение е ${code}. Валиден е ${minutes} минути. Ако не сте го поискали, не обръщайте внимание на това съобщение.`,
    reminder: (product, time) =>
      `${product}: напомняне — записаното ви посещение започва ${time}. Влезте в профила си, за да се присъедините. Отговорете STOP, за да спрете съобщенията.`,
    help: (product, contact) =>
      `${product}: напомняния за посещения. Помощ: ${contact}. Отговорете STOP, за да ги спрете, или START, за да ги получавате отново.`,
    restarted: (product) =>
      `${product}: напомнянията за посещения по SMS отново са включени. Отговорете STOP, за да ги спрете.`,
    notRestarted: (product) =>
      `${product}: за да получавате напомняния по SMS, добавете този номер и дайте съгласие в профила си.`,
  },
};

export const textCopy = (locale: Locale): Copy => COPY[locale];

/** "at 10:30 (EEST) today"-like: the visit's time, short, in the patient's zone and language. */
export function reminderTime(at: Date, locale: Locale, timeZone: string): string {
  const time = new Intl.DateTimeFormat(locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(at);
  return locale === "bg" ? `в ${time}` : `on ${time}`;
}
