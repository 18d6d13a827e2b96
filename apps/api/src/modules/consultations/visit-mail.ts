import type { Locale } from "@ambercare/contracts/locales";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import type { Database } from "@ambercare/db/client";
import { greeting, type MailT, mailT, visitTime } from "#api/platform/mail/mail-copy.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { type ParagraphMail, renderParagraphMail } from "#api/platform/mail/paragraph-mail.ts";
import { mailRecipient } from "#api/platform/mail/recipient.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The patient's e-mails about a visit, in the patient's language (their words are in the e-mail
 * catalogue, mail-copy.ts). They name the type of visit and what happened to the money, never the
 * intake answers or a clinician's reason for canceling (e-mail is not a place for health data, so
 * the summary itself is never in one): the link leads to the consultations page or the visit's
 * page, behind the login.
 */

export type VisitMailTemplate =
  | "visit-requested"
  | "visit-accepted"
  | "visit-expired"
  | "visit-canceled"
  | "visit-not-started"
  | "visit-missed"
  | "visit-summary-ready";

/** A free time offered to book again: its start and the provider it is with. */
export type RebookOffer = { start: Date; providerSlug: string; providerName: string };

/**
 * How a booked visit that did not take place can be booked again: its own time, the nearest free
 * times of the same type with any clinician licensed in its state, and the zone to write times in
 * when the patient has none (the clinician's).
 */
export type Rebook = {
  bookedFor: Date;
  state: string;
  timeZone: string;
  offers: RebookOffer[];
  /** How long after the start the patient had to check in (NO_SHOW_GRACE_MINUTES). */
  graceMinutes: number;
};

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
  /** Booked visits that did not take place: the times to book again, with their links. */
  rebook?: {
    bookedFor: string;
    offers: { time: string; providerName: string; link: string }[];
    bookLink: string;
    graceMinutes: number;
  };
};

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** What happened to the money of a visit that did not take place (no `moneyBack`: the membership's). */
function moneyBackLine(t: MailT, moneyBack: MoneyBack | undefined): string {
  return moneyBack?.kind === "refunded"
    ? t("visit.refunded", { amount: dollars(moneyBack.amountCents) })
    : t("visit.coveredByMembership");
}

/** The nearest free times and where to book them; nothing for a visit that was not booked. */
function rebookLines(t: MailT, vars: VisitMailVars): string[] {
  const rebook = vars.rebook;
  if (!rebook) return [t("visit.requestAgain")];
  if (rebook.offers.length === 0) return [t("visit.rebook.noOffers")];
  const offers = rebook.offers.map(
    (offer) =>
      `• ${t("visit.rebook.offer", { time: offer.time, provider: offer.providerName })}\n${offer.link}`,
  );
  return [t("visit.rebook.offers"), offers.join("\n")];
}

/** The button of a booked visit's e-mail leads to the booking page; of the others, to the visits. */
function rebookAction(t: MailT, vars: VisitMailVars): { label: string; link: string } {
  return vars.rebook
    ? { label: t("visit.rebook.action"), link: vars.rebook.bookLink }
    : { label: t("visit.seeConsultations"), link: vars.link };
}

/** Each e-mail's strings; `t` fills the product's name and the visit's type (`{{visit}}`). */
const COPY: Record<VisitMailTemplate, (t: MailT, vars: VisitMailVars) => ParagraphMail> = {
  "visit-requested": (t, vars) => ({
    subject: t("visit.requested.subject"),
    paragraphs: [
      greeting(t, vars.firstName),
      t("visit.requested.inQueue"),
      t("common.emergency"),
      t("common.signature"),
    ],
    action: { label: t("visit.seeConsultations"), link: vars.link },
  }),
  "visit-accepted": (t, vars) => ({
    subject: t("visit.accepted.subject"),
    paragraphs: [greeting(t, vars.firstName), t("visit.accepted.startingSoon"), t("common.signature")],
    action: { label: t("visit.accepted.action"), link: vars.link },
  }),
  "visit-summary-ready": (t, vars) => ({
    subject: t("visit.summaryReady.subject"),
    paragraphs: [
      greeting(t, vars.firstName),
      t("visit.summaryReady.complete"),
      t("visit.summaryReady.rate"),
      t("common.signature"),
    ],
    action: { label: t("visit.summaryReady.action"), link: vars.link },
  }),
  "visit-expired": (t, vars) => ({
    subject: t("visit.expired.subject"),
    paragraphs: [
      greeting(t, vars.firstName),
      t("visit.expired.sorry"),
      moneyBackLine(t, vars.moneyBack),
      t("visit.requestAgain"),
      t("common.signature"),
    ],
    action: { label: t("visit.seeConsultations"), link: vars.link },
  }),
  "visit-canceled": (t, vars) => ({
    subject: t("visit.canceled.subject"),
    paragraphs: [
      greeting(t, vars.firstName),
      t("visit.canceled.sorry"),
      moneyBackLine(t, vars.moneyBack),
      ...rebookLines(t, vars),
      ...(vars.rebook ? [t("visit.requestAgain")] : []),
      t("common.signature"),
    ],
    action: rebookAction(t, vars),
  }),
  "visit-not-started": (t, vars) => ({
    subject: t("visit.notStarted.subject"),
    paragraphs: [
      greeting(t, vars.firstName),
      t("visit.notStarted.sorry", { time: vars.rebook?.bookedFor ?? "" }),
      moneyBackLine(t, vars.moneyBack),
      ...rebookLines(t, vars),
      t("visit.requestAgain"),
      t("common.signature"),
    ],
    action: rebookAction(t, vars),
  }),
  "visit-missed": (t, vars) => ({
    subject: t("visit.missed.subject", { time: vars.rebook?.bookedFor ?? "" }),
    paragraphs: [
      greeting(t, vars.firstName),
      t("visit.missed.missed", {
        time: vars.rebook?.bookedFor ?? "",
        minutes: String(vars.rebook?.graceMinutes ?? ""),
      }),
      t("visit.missed.policy"),
      ...rebookLines(t, vars),
      t("common.signature"),
    ],
    action: rebookAction(t, vars),
  }),
};

export function renderVisitMail(
  template: VisitMailTemplate,
  locale: Locale,
  vars: VisitMailVars,
): RenderedMail {
  const visit = mailT(locale)(`visit.types.${vars.type}`);
  const t = mailT(locale, { productName: vars.productName, visit });
  return renderParagraphMail(locale, COPY[template](t, vars));
}

export type VisitMailer = {
  /** Writes to the visit's patient in their language, in the background. */
  send(
    template: VisitMailTemplate,
    visit: VisitToMail,
    moneyBack?: MoneyBack,
    rebook?: Rebook,
  ): Promise<void>;
  /**
   * Writes to the visit's patient now, with `idempotencyKey` (a job's key): a second send of one
   * key is the same message (same Message-ID, written once in file mode). For durable jobs.
   */
  sendOnce(
    idempotencyKey: string,
    template: VisitMailTemplate,
    visit: VisitToMail,
    moneyBack?: MoneyBack,
    rebook?: Rebook,
  ): Promise<void>;
};

type VisitToMail = { id: string; userId: string; type: ConsultationType };

/** The summary is read on the visit's own page; the other e-mails lead to the consultations list. */
const linkOf = (template: VisitMailTemplate, consultationsUrl: string, visitId: string) =>
  template === "visit-summary-ready" ? `${consultationsUrl}/${visitId}` : consultationsUrl;

/** The booking page for a type and state, at one provider when given. */
function bookingLink(bookUrl: string, type: ConsultationType, state: string, providerSlug?: string): string {
  const query = new URLSearchParams({ ...(providerSlug ? { provider: providerSlug } : {}), type, state });
  return `${bookUrl}?${query.toString()}`;
}

export function createVisitMailer(deps: {
  db: Database;
  mailer: Mailer;
  productName: string;
  /** The web's consultations page. */
  consultationsUrl: string;
  /** The web's booking page (a provider's free times). */
  bookUrl?: string;
}): VisitMailer {
  /** The e-mail to the visit's patient in their language and zone; undefined without a patient. */
  async function compose(
    template: VisitMailTemplate,
    visit: VisitToMail,
    moneyBack?: MoneyBack,
    rebook?: Rebook,
  ) {
    const patient = await mailRecipient(deps.db, visit.userId);
    if (!patient) return undefined;
    const bookUrl = deps.bookUrl ?? deps.consultationsUrl;
    const zone = patient.timeZone ?? rebook?.timeZone ?? "UTC";
    const mail = renderVisitMail(template, patient.locale, {
      productName: deps.productName,
      firstName: patient.firstName,
      type: visit.type,
      link: linkOf(template, deps.consultationsUrl, visit.id),
      ...(moneyBack ? { moneyBack } : {}),
      ...(rebook
        ? {
            rebook: {
              bookedFor: visitTime(rebook.bookedFor, patient.locale, zone),
              offers: rebook.offers.map((offer) => ({
                time: visitTime(offer.start, patient.locale, zone),
                providerName: offer.providerName,
                link: bookingLink(bookUrl, visit.type, rebook.state, offer.providerSlug),
              })),
              bookLink: bookingLink(bookUrl, visit.type, rebook.state),
              graceMinutes: rebook.graceMinutes,
            },
          }
        : {}),
    });
    return { ...mail, to: patient.email, template };
  }
  return {
    async send(template, visit, moneyBack, rebook) {
      const mail = await compose(template, visit, moneyBack, rebook);
      if (mail) deps.mailer.dispatch(mail);
    },
    async sendOnce(idempotencyKey, template, visit, moneyBack, rebook) {
      const mail = await compose(template, visit, moneyBack, rebook);
      if (mail) await deps.mailer.send({ ...mail, idempotencyKey });
    },
  };
}
