import type { Locale } from "@ambercare/contracts/locales";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import type { Database } from "@ambercare/db/client";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { type ParagraphMail, renderParagraphMail } from "#api/platform/mail/paragraph-mail.ts";
import { mailRecipient } from "#api/platform/mail/recipient.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The patient's e-mails about a visit, in the patient's language. They name the type of visit and
 * what happened to the money, never the intake answers or a clinician's reason for canceling (e-mail
 * is not a place for health data, so the summary itself is never in one): the link leads to the
 * consultations page or the visit's page, behind the login.
 */

export type VisitMailTemplate =
  | "visit-requested"
  | "visit-accepted"
  | "visit-expired"
  | "visit-canceled"
  | "visit-summary-ready";

/** What happened to the payment of a visit that did not take place. */
export type MoneyBack = { kind: "refunded"; amountCents: number } | { kind: "membership" };

export type VisitMailVars = {
  productName: string;
  firstName: string | null;
  type: ConsultationType;
  /** The patient's consultations page; the visit's own page for the summary. */
  link: string;
  /** Expired and canceled visits only. */
  moneyBack?: MoneyBack;
};

const TYPE_NAMES: Record<Locale, Record<ConsultationType, string>> = {
  en: { chat: "chat consultation", video: "video consultation" },
  bg: { chat: "консултация в чат", video: "видеоконсултация" },
};

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

type Copy = (vars: VisitMailVars, visit: string) => ParagraphMail;

const greeting: Record<Locale, (firstName: string | null) => string> = {
  en: (firstName) => (firstName ? `Hello ${firstName},` : "Hello,"),
  bg: (firstName) => (firstName ? `Здравейте, ${firstName},` : "Здравейте,"),
};

function moneyBackLine(locale: Locale, moneyBack: MoneyBack | undefined): string {
  if (locale === "bg") {
    return moneyBack?.kind === "refunded"
      ? `Върнахме Ви ${dollars(moneyBack.amountCents)} по картата, с която платихте. Според банката Ви сумата може да се появи след няколко дни; възстановяването се вижда и в историята на плащанията Ви.`
      : "Консултацията беше покрита от членството Ви, затова няма какво да Ви върнем: не сте платили нищо отделно за нея.";
  }
  return moneyBack?.kind === "refunded"
    ? `We have refunded ${dollars(moneyBack.amountCents)} to the card you paid with. Depending on your bank it may take a few days to appear; the refund also shows in your billing history.`
    : "Your membership covered this consultation, so there is nothing to refund: you paid nothing extra for it.";
}

const COPY: Record<VisitMailTemplate, Record<Locale, Copy>> = {
  "visit-requested": {
    en: (vars, visit) => ({
      subject: `We received your ${visit} request — ${vars.productName}`,
      paragraphs: [
        greeting.en(vars.firstName),
        `Your request for a ${visit} is in. A clinician licensed in your state will accept it shortly; we will e-mail you when that happens.`,
        "If this is a medical emergency, call 911 or your local emergency number.",
        `The ${vars.productName} team`,
      ],
      action: { label: "See your consultations", link: vars.link },
    }),
    bg: (vars, visit) => ({
      subject: `Получихме заявката Ви за ${visit} — ${vars.productName}`,
      paragraphs: [
        greeting.bg(vars.firstName),
        `Заявката Ви за ${visit} е приета. Лекар с право да практикува в щата Ви ще я поеме скоро; ще Ви пишем, когато това стане.`,
        "Ако въпросът Ви е спешен медицински случай, обадете се на 911 или на местния спешен номер.",
        `Екипът на ${vars.productName}`,
      ],
      action: { label: "Вижте консултациите си", link: vars.link },
    }),
  },
  "visit-accepted": {
    en: (vars, visit) => ({
      subject: `A clinician accepted your ${visit} — ${vars.productName}`,
      paragraphs: [
        greeting.en(vars.firstName),
        `A clinician has accepted your ${visit} and will start it soon. Keep the consultations page open to join when it begins.`,
        `The ${vars.productName} team`,
      ],
      action: { label: "Open your consultations", link: vars.link },
    }),
    bg: (vars, visit) => ({
      subject: `Лекар пое Вашата ${visit} — ${vars.productName}`,
      paragraphs: [
        greeting.bg(vars.firstName),
        `Лекар пое Вашата ${visit} и скоро ще я започне. Дръжте страницата с консултациите отворена, за да се включите, когато започне.`,
        `Екипът на ${vars.productName}`,
      ],
      action: { label: "Отворете консултациите си", link: vars.link },
    }),
  },
  "visit-summary-ready": {
    en: (vars, visit) => ({
      subject: `Your visit summary is ready — ${vars.productName}`,
      paragraphs: [
        greeting.en(vars.firstName),
        `Your ${visit} is complete, and your clinician's summary of it is ready to read. It also stays in your medical records, where you can print it.`,
        "You can tell us how the visit went by rating your provider on the same page.",
        `The ${vars.productName} team`,
      ],
      action: { label: "Read your visit summary", link: vars.link },
    }),
    bg: (vars, visit) => ({
      subject: `Резюмето от прегледа Ви е готово — ${vars.productName}`,
      paragraphs: [
        greeting.bg(vars.firstName),
        `Вашата ${visit} приключи и резюмето на лекаря е готово за четене. То остава и в медицинското Ви досие, откъдето можете да го отпечатате.`,
        "На същата страница можете да оцените лекаря си и да ни кажете как е минал прегледът.",
        `Екипът на ${vars.productName}`,
      ],
      action: { label: "Прочетете резюмето", link: vars.link },
    }),
  },
  "visit-expired": {
    en: (vars, visit) => ({
      subject: `Your ${visit} request expired — ${vars.productName}`,
      paragraphs: [
        greeting.en(vars.firstName),
        `We are sorry: no clinician could accept your ${visit} request in time, so it has expired.`,
        moneyBackLine("en", vars.moneyBack),
        "You can request a new consultation at any time.",
        `The ${vars.productName} team`,
      ],
      action: { label: "See your consultations", link: vars.link },
    }),
    bg: (vars, visit) => ({
      subject: `Заявката Ви за ${visit} изтече — ${vars.productName}`,
      paragraphs: [
        greeting.bg(vars.firstName),
        `Съжаляваме: никой лекар не успя да поеме заявката Ви за ${visit} навреме и тя изтече.`,
        moneyBackLine("bg", vars.moneyBack),
        "Можете да заявите нова консултация по всяко време.",
        `Екипът на ${vars.productName}`,
      ],
      action: { label: "Вижте консултациите си", link: vars.link },
    }),
  },
  "visit-canceled": {
    en: (vars, visit) => ({
      subject: `Your ${visit} was canceled — ${vars.productName}`,
      paragraphs: [
        greeting.en(vars.firstName),
        `We are sorry: the clinician had to cancel your ${visit}.`,
        moneyBackLine("en", vars.moneyBack),
        "You can request a new consultation at any time.",
        `The ${vars.productName} team`,
      ],
      action: { label: "See your consultations", link: vars.link },
    }),
    bg: (vars, visit) => ({
      subject: `Вашата ${visit} беше отменена — ${vars.productName}`,
      paragraphs: [
        greeting.bg(vars.firstName),
        `Съжаляваме: лекарят трябваше да отмени Вашата ${visit}.`,
        moneyBackLine("bg", vars.moneyBack),
        "Можете да заявите нова консултация по всяко време.",
        `Екипът на ${vars.productName}`,
      ],
      action: { label: "Вижте консултациите си", link: vars.link },
    }),
  },
};

export function renderVisitMail(
  template: VisitMailTemplate,
  locale: Locale,
  vars: VisitMailVars,
): RenderedMail {
  return renderParagraphMail(locale, COPY[template][locale](vars, TYPE_NAMES[locale][vars.type]));
}

export type VisitMailer = {
  /** Writes to the visit's patient in their language, in the background. */
  send(template: VisitMailTemplate, visit: VisitToMail, moneyBack?: MoneyBack): Promise<void>;
};

type VisitToMail = { id: string; userId: string; type: ConsultationType };

/** The summary is read on the visit's own page; the other e-mails lead to the consultations list. */
const linkOf = (template: VisitMailTemplate, consultationsUrl: string, visitId: string) =>
  template === "visit-summary-ready" ? `${consultationsUrl}/${visitId}` : consultationsUrl;

export function createVisitMailer(deps: {
  db: Database;
  mailer: Mailer;
  productName: string;
  /** The web's consultations page. */
  consultationsUrl: string;
}): VisitMailer {
  return {
    async send(template, visit, moneyBack) {
      const patient = await mailRecipient(deps.db, visit.userId);
      if (!patient) return;
      const mail = renderVisitMail(template, patient.locale, {
        productName: deps.productName,
        firstName: patient.firstName,
        type: visit.type,
        link: linkOf(template, deps.consultationsUrl, visit.id),
        ...(moneyBack ? { moneyBack } : {}),
      });
      deps.mailer.dispatch({ ...mail, to: patient.email, template });
    },
  };
}
