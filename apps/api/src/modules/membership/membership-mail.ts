import type { Locale } from "@ambercare/contracts/locales";
import { type BillingInterval, chargeForInterval } from "@ambercare/contracts/membership-constants";
import type { PlanKey } from "@ambercare/contracts/plans";
import { FALLBACK_TIME_ZONE, isTimeZone } from "@ambercare/contracts/time-zone";
import type { Database } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type {
  InvoiceRow,
  MembershipRepository,
  SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import type { TransitionReason } from "#api/modules/membership/subscription-states.ts";
import type { Mailer } from "#api/platform/mail/mailer.ts";
import { type ParagraphMail, renderParagraphMail } from "#api/platform/mail/paragraph-mail.ts";
import { mailRecipient } from "#api/platform/mail/recipient.ts";
import type { RenderedMail } from "#api/platform/mail/templates.ts";

/**
 * The patient's e-mails about money: a trial that started, a payment received (with the receipt's
 * figures), a renewal that failed, and the membership canceled, resumed or moved to another
 * interval. The services collect these notices inside their transaction and send them only once it
 * has committed (sendAfterCommit): a payment that rolls back writes no e-mail, and an event that
 * repeats (a double submit, a replayed webhook) changes nothing the second time, so it mails nothing.
 */

export type MembershipMailTemplate =
  | "trial-started"
  | "payment-received"
  | "renewal-failed"
  | "membership-canceled"
  | "membership-resumed"
  | "interval-changed";

/** One e-mail to send once the transaction that caused it has committed. */
export type MembershipNotice =
  | { template: "trial-started"; userId: string; firstChargeAt: Date; interval: BillingInterval }
  | { template: "payment-received"; userId: string; invoice: InvoiceRow }
  | { template: "renewal-failed"; userId: string; interval: BillingInterval; retryAt: Date | null }
  /** `accessUntil` null: the access ended with the cancel (a past-due membership). */
  | { template: "membership-canceled"; userId: string; accessUntil: Date | null }
  | { template: "membership-resumed"; userId: string; nextChargeAt: Date; interval: BillingInterval }
  | { template: "interval-changed"; userId: string; interval: BillingInterval; fromDate: Date };

/** The notice a status change of a membership gives the patient, if any. */
export function noticeOfStatusChange(
  before: Pick<SubscriptionRow, "status">,
  after: SubscriptionRow,
  reason: TransitionReason,
): MembershipNotice | undefined {
  if (before.status === after.status) return undefined;
  const userId = after.userId;
  switch (after.status) {
    case "canceled":
      return { template: "membership-canceled", userId, accessUntil: after.currentPeriodEnd };
    case "past_due":
      return {
        template: "renewal-failed",
        userId,
        interval: after.pendingInterval ?? after.interval,
        retryAt: after.retryAt,
      };
    case "trialing":
    case "active":
      return before.status === "canceled"
        ? {
            template: "membership-resumed",
            userId,
            nextChargeAt: after.currentPeriodEnd,
            interval: after.pendingInterval ?? after.interval,
          }
        : undefined;
    case "ended":
      // Only a patient's own cancel ends a membership at once; a period that runs out was told of
      // when it was canceled, and a failed retry when the renewal first failed.
      return reason === "canceled_by_patient"
        ? { template: "membership-canceled", userId, accessUntil: null }
        : undefined;
  }
}

export type MailFacts = {
  productName: string;
  firstName: string | null;
  /** Dates are written in the patient's time zone (UTC when unknown). */
  timeZone: string;
  /** The web's membership page and billing history. */
  links: { membership: string; billingHistory: string };
};

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function dateIn(locale: Locale, timeZone: string, date: Date): string {
  return new Intl.DateTimeFormat(locale === "bg" ? "bg-BG" : "en-US", { dateStyle: "long", timeZone }).format(
    date,
  );
}

const INTERVALS: Record<Locale, Record<BillingInterval, { name: string; every: string }>> = {
  en: { month: { name: "monthly", every: "a month" }, year: { name: "yearly", every: "a year" } },
  bg: { month: { name: "месечно", every: "на месец" }, year: { name: "годишно", every: "на година" } },
};

const ITEMS: Record<Locale, Record<PlanKey, string>> = {
  en: {
    subscription_monthly: "membership (monthly)",
    subscription_yearly: "membership (yearly)",
    ppv_chat: "one-time chat visit",
    ppv_video: "one-time video visit",
  },
  bg: {
    subscription_monthly: "членство (месечно)",
    subscription_yearly: "членство (годишно)",
    ppv_chat: "еднократна консултация в чат",
    ppv_video: "еднократна видеоконсултация",
  },
};

const CARD: Record<Locale, (brand: string, last4: string) => string> = {
  en: (brand, last4) => `${brand.charAt(0).toUpperCase()}${brand.slice(1)} ending in ${last4}`,
  bg: (brand, last4) => `${brand.charAt(0).toUpperCase()}${brand.slice(1)}, завършваща на ${last4}`,
};

const greeting: Record<Locale, (firstName: string | null) => string> = {
  en: (firstName) => (firstName ? `Hello ${firstName},` : "Hello,"),
  bg: (firstName) => (firstName ? `Здравейте, ${firstName},` : "Здравейте,"),
};

const invoiceNumber = (invoice: InvoiceRow) => `AC-${String(invoice.seq).padStart(6, "0")}`;

/** The receipt's lines: number, what was paid for, amount, date, card. */
function receiptLines(locale: Locale, facts: MailFacts, invoice: InvoiceRow): string {
  const on = (date: Date) => dateIn(locale, facts.timeZone, date);
  const period =
    invoice.periodStart && invoice.periodEnd ? `${on(invoice.periodStart)} – ${on(invoice.periodEnd)}` : null;
  const card =
    invoice.cardBrand && invoice.cardLast4 ? CARD[locale](invoice.cardBrand, invoice.cardLast4) : null;
  const paidAt = invoice.paidAt ?? invoice.issuedAt;
  const labels =
    locale === "bg"
      ? {
          number: "Разписка",
          item: "За",
          period: "Период",
          amount: "Сума",
          paid: "Платено на",
          card: "Карта",
        }
      : { number: "Receipt", item: "For", period: "Period", amount: "Amount", paid: "Paid on", card: "Card" };
  return [
    `${labels.number}: ${invoiceNumber(invoice)}`,
    `${labels.item}: ${locale === "bg" ? `${ITEMS.bg[invoice.plan]} в ${facts.productName}` : `${facts.productName} ${ITEMS.en[invoice.plan]}`}`,
    ...(period ? [`${labels.period}: ${period}`] : []),
    `${labels.amount}: ${money(invoice.amountCents)} (USD)`,
    `${labels.paid}: ${on(paidAt)}`,
    ...(card ? [`${labels.card}: ${card}`] : []),
  ].join("\n");
}

type Copy<N extends MembershipNotice> = (notice: N, facts: MailFacts) => ParagraphMail;
type CopyOf = {
  [T in MembershipMailTemplate]: Record<Locale, Copy<Extract<MembershipNotice, { template: T }>>>;
};

const COPY: CopyOf = {
  "trial-started": {
    en: (n, f) => ({
      subject: `Your ${f.productName} free trial has started`,
      paragraphs: [
        greeting.en(f.firstName),
        `Your free trial of the ${f.productName} membership has started. Nothing is charged during the trial.`,
        `Your first charge of ${money(chargeForInterval(n.interval))} (billed ${INTERVALS.en[n.interval].name}) will be on ${dateIn("en", f.timeZone, n.firstChargeAt)}, to the card you gave at checkout.`,
        `Not for you? Cancel on your membership page before ${dateIn("en", f.timeZone, n.firstChargeAt)} and you will not be charged; your trial continues until then.`,
        `The ${f.productName} team`,
      ],
      action: { label: "Manage your membership", link: f.links.membership },
    }),
    bg: (n, f) => ({
      subject: `Безплатният Ви пробен период в ${f.productName} започна`,
      paragraphs: [
        greeting.bg(f.firstName),
        `Безплатният Ви пробен период на членството в ${f.productName} започна. По време на пробния период не се таксува нищо.`,
        `Първото плащане от ${money(chargeForInterval(n.interval))} (таксувано ${INTERVALS.bg[n.interval].name}) ще бъде на ${dateIn("bg", f.timeZone, n.firstChargeAt)} с картата, която посочихте при плащането.`,
        `Не е за Вас? Откажете членството от страницата му преди ${dateIn("bg", f.timeZone, n.firstChargeAt)} и няма да бъдете таксувани; пробният период продължава дотогава.`,
        `Екипът на ${f.productName}`,
      ],
      action: { label: "Управление на членството", link: f.links.membership },
    }),
  },
  "payment-received": {
    en: (n, f) => ({
      subject: `Receipt for your ${f.productName} payment of ${money(n.invoice.amountCents)}`,
      paragraphs: [
        greeting.en(f.firstName),
        `Thank you: we received your payment of ${money(n.invoice.amountCents)} for your ${f.productName} ${ITEMS.en[n.invoice.plan]}.`,
        receiptLines("en", f, n.invoice),
        "This receipt also stays in your billing history, where you can print it.",
        `The ${f.productName} team`,
      ],
      action: { label: "See your billing history", link: f.links.billingHistory },
    }),
    bg: (n, f) => ({
      subject: `Разписка за плащането Ви от ${money(n.invoice.amountCents)} в ${f.productName}`,
      paragraphs: [
        greeting.bg(f.firstName),
        `Благодарим Ви: получихме плащането Ви от ${money(n.invoice.amountCents)} за ${ITEMS.bg[n.invoice.plan]} в ${f.productName}.`,
        receiptLines("bg", f, n.invoice),
        "Разписката остава и в историята на плащанията Ви, откъдето можете да я отпечатате.",
        `Екипът на ${f.productName}`,
      ],
      action: { label: "Вижте историята на плащанията", link: f.links.billingHistory },
    }),
  },
  "renewal-failed": {
    en: (n, f) => ({
      subject: `We could not renew your ${f.productName} membership`,
      paragraphs: [
        greeting.en(f.firstName),
        `We tried to charge ${money(chargeForInterval(n.interval))} for your ${f.productName} membership, but the card was declined. Your membership stays open for now.`,
        n.retryAt
          ? `What to do: make sure the card has enough funds and has not expired, or ask your bank why it declined the charge. We will try again on ${dateIn("en", f.timeZone, n.retryAt)}; if that charge fails too, the membership ends.`
          : "What to do: make sure the card has enough funds and has not expired, or ask your bank why it declined the charge. We will try again; if the charge keeps failing, the membership ends.",
        "If you no longer want the membership, you can cancel it on your membership page and nothing more will be charged.",
        `The ${f.productName} team`,
      ],
      action: { label: "Manage your membership", link: f.links.membership },
    }),
    bg: (n, f) => ({
      subject: `Не успяхме да подновим членството Ви в ${f.productName}`,
      paragraphs: [
        greeting.bg(f.firstName),
        `Опитахме да таксуваме ${money(chargeForInterval(n.interval))} за членството Ви в ${f.productName}, но картата беше отказана. Засега членството Ви остава активно.`,
        n.retryAt
          ? `Какво да направите: проверете дали по картата има достатъчно средства и дали не е изтекла, или попитайте банката си защо е отказала плащането. Ще опитаме отново на ${dateIn("bg", f.timeZone, n.retryAt)}; ако и тогава плащането не мине, членството приключва.`
          : "Какво да направите: проверете дали по картата има достатъчно средства и дали не е изтекла, или попитайте банката си защо е отказала плащането. Ще опитаме отново; ако плащането продължи да не минава, членството приключва.",
        "Ако вече не желаете членството, можете да го откажете от страницата му и няма да бъде таксувано нищо повече.",
        `Екипът на ${f.productName}`,
      ],
      action: { label: "Управление на членството", link: f.links.membership },
    }),
  },
  "membership-canceled": {
    en: (n, f) => ({
      subject: `Your ${f.productName} membership is canceled`,
      paragraphs: [
        greeting.en(f.firstName),
        `Your ${f.productName} membership is canceled and nothing more will be charged.`,
        n.accessUntil
          ? `You keep its access until ${dateIn("en", f.timeZone, n.accessUntil)}. Changed your mind? You can resume it on your membership page until then.`
          : "Its access has ended. You can start a new membership or buy a one-time visit at any time.",
        `The ${f.productName} team`,
      ],
      action: { label: "Manage your membership", link: f.links.membership },
    }),
    bg: (n, f) => ({
      subject: `Членството Ви в ${f.productName} е отказано`,
      paragraphs: [
        greeting.bg(f.firstName),
        `Членството Ви в ${f.productName} е отказано и няма да бъде таксувано нищо повече.`,
        n.accessUntil
          ? `Запазвате достъпа си до ${dateIn("bg", f.timeZone, n.accessUntil)}. Размислихте ли? Дотогава можете да го възстановите от страницата на членството.`
          : "Достъпът Ви приключи. Можете да започнете ново членство или да купите еднократна консултация по всяко време.",
        `Екипът на ${f.productName}`,
      ],
      action: { label: "Управление на членството", link: f.links.membership },
    }),
  },
  "membership-resumed": {
    en: (n, f) => ({
      subject: `Your ${f.productName} membership is resumed`,
      paragraphs: [
        greeting.en(f.firstName),
        `Welcome back: your ${f.productName} membership is resumed and goes on as before.`,
        `Your next charge of ${money(chargeForInterval(n.interval))} will be on ${dateIn("en", f.timeZone, n.nextChargeAt)}.`,
        `The ${f.productName} team`,
      ],
      action: { label: "Manage your membership", link: f.links.membership },
    }),
    bg: (n, f) => ({
      subject: `Членството Ви в ${f.productName} е възстановено`,
      paragraphs: [
        greeting.bg(f.firstName),
        `Добре дошли отново: членството Ви в ${f.productName} е възстановено и продължава както преди.`,
        `Следващото плащане от ${money(chargeForInterval(n.interval))} ще бъде на ${dateIn("bg", f.timeZone, n.nextChargeAt)}.`,
        `Екипът на ${f.productName}`,
      ],
      action: { label: "Управление на членството", link: f.links.membership },
    }),
  },
  "interval-changed": {
    en: (n, f) => ({
      subject: `Your ${f.productName} membership will be billed ${INTERVALS.en[n.interval].name}`,
      paragraphs: [
        greeting.en(f.firstName),
        `From your next renewal on ${dateIn("en", f.timeZone, n.fromDate)}, your ${f.productName} membership will be billed ${INTERVALS.en[n.interval].name}: ${money(chargeForInterval(n.interval))} ${INTERVALS.en[n.interval].every}.`,
        "Nothing changes until then, and nothing is charged now.",
        `The ${f.productName} team`,
      ],
      action: { label: "Manage your membership", link: f.links.membership },
    }),
    bg: (n, f) => ({
      subject: `Членството Ви в ${f.productName} ще се таксува ${INTERVALS.bg[n.interval].name}`,
      paragraphs: [
        greeting.bg(f.firstName),
        `От следващото подновяване на ${dateIn("bg", f.timeZone, n.fromDate)} членството Ви в ${f.productName} ще се таксува ${INTERVALS.bg[n.interval].name}: ${money(chargeForInterval(n.interval))} ${INTERVALS.bg[n.interval].every}.`,
        "Дотогава нищо не се променя и сега не се таксува нищо.",
        `Екипът на ${f.productName}`,
      ],
      action: { label: "Управление на членството", link: f.links.membership },
    }),
  },
};

export function renderMembershipMail(
  locale: Locale,
  notice: MembershipNotice,
  facts: MailFacts,
): RenderedMail {
  const copy = COPY[notice.template][locale] as Copy<MembershipNotice>;
  return renderParagraphMail(locale, copy(notice, facts));
}

/**
 * The repository of one transaction, noting for the patient what its status changes and new
 * memberships mean (changeStatus is the only way a membership's status changes).
 */
export function notifying(repo: MembershipRepository, notices: MembershipNotice[]): MembershipRepository {
  return {
    ...repo,
    async changeStatus(subscription, to, reason, at, patch) {
      const row = await repo.changeStatus(subscription, to, reason, at, patch);
      const notice = noticeOfStatusChange(subscription, row, reason);
      if (notice) notices.push(notice);
      return row;
    },
    async createSubscription(values, reason) {
      const row = await repo.createSubscription(values, reason);
      if (row.status === "trialing" && row.trialEndsAt) {
        notices.push({
          template: "trial-started",
          userId: row.userId,
          firstChargeAt: row.trialEndsAt,
          interval: row.interval,
        });
      }
      return row;
    },
  };
}

/** The receipt of an invoice that has just been paid, as it now stands. */
export async function paymentReceived(
  repo: MembershipRepository,
  invoiceId: string,
): Promise<MembershipNotice> {
  const invoice = await repo.findInvoice(invoiceId);
  if (!invoice) throw new Error(`invoice ${invoiceId} is gone`);
  return { template: "payment-received", userId: invoice.userId, invoice };
}

export type MembershipMailer = {
  /** Writes to the notice's patient in their language; delivery happens in the background. */
  send(notice: MembershipNotice): Promise<void>;
};

export function createMembershipMailer(deps: {
  db: Database;
  mailer: Mailer;
  productName: string;
  webUrl: string;
}): MembershipMailer {
  return {
    async send(notice) {
      const patient = await mailRecipient(deps.db, notice.userId);
      if (!patient) return;
      const mail = renderMembershipMail(patient.locale, notice, {
        productName: deps.productName,
        firstName: patient.firstName,
        timeZone: isTimeZone(patient.timeZone) ? patient.timeZone : FALLBACK_TIME_ZONE,
        links: {
          membership: `${deps.webUrl}/my-profile/manage-subscription`,
          billingHistory:
            notice.template === "payment-received"
              ? `${deps.webUrl}/my-profile/billing-history/${notice.invoice.id}`
              : `${deps.webUrl}/my-profile/billing-history`,
        },
      });
      deps.mailer.dispatch({ ...mail, to: patient.email, template: notice.template });
    },
  };
}

/**
 * Runs `work` (which opens and commits its own transaction), then sends the notices it collected.
 * Nothing is sent when it throws; a failure to send is logged and never fails the caller, whose
 * payment or change has already committed.
 */
export async function sendAfterCommit<T>(
  deps: { membershipMail?: MembershipMailer | undefined; log: FastifyBaseLogger },
  work: (notices: MembershipNotice[]) => Promise<T>,
): Promise<T> {
  const notices: MembershipNotice[] = [];
  const result = await work(notices);
  for (const notice of notices) {
    try {
      await deps.membershipMail?.send(notice);
    } catch (error) {
      deps.log.error({ err: error, template: notice.template }, "membership e-mail not sent");
    }
  }
  return result;
}
