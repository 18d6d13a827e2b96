import { intlTag, type Locale } from "@ambercare/contracts/locales";
import { type BillingInterval, chargeForInterval } from "@ambercare/contracts/membership-constants";
import { FALLBACK_TIME_ZONE, isTimeZone } from "@ambercare/contracts/time-zone";
import type { Database } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type {
  InvoiceRow,
  MembershipRepository,
  SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import type { TransitionReason } from "#api/modules/membership/subscription-states.ts";
import { greeting, type MailT, mailT } from "#api/platform/mail/mail-copy.ts";
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
 * Their words are in the e-mail catalogue (mail-copy.ts); amounts and invoice numbers are written
 * the same in every language, dates in the patient's.
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

/** A card as the receipt names it: "Visa ending in 4242". */
function cardName(t: MailT, brand: string, last4: string): string {
  return t("membership.card", { brand: `${brand.charAt(0).toUpperCase()}${brand.slice(1)}`, last4 });
}

const invoiceNumber = (invoice: InvoiceRow) => `AC-${String(invoice.seq).padStart(6, "0")}`;

/** The receipt's lines: number, what was paid for, amount, date, card. */
function receiptLines(t: MailT, on: (date: Date) => string, invoice: InvoiceRow): string {
  const paidAt = invoice.paidAt ?? invoice.issuedAt;
  return [
    t("membership.receipt.number", { number: invoiceNumber(invoice) }),
    t("membership.receipt.item", { item: t(`membership.items.${invoice.plan}`) }),
    ...(invoice.periodStart && invoice.periodEnd
      ? [t("membership.receipt.period", { start: on(invoice.periodStart), end: on(invoice.periodEnd) })]
      : []),
    t("membership.receipt.amount", { amount: money(invoice.amountCents) }),
    t("membership.receipt.paidOn", { date: on(paidAt) }),
    ...(invoice.cardBrand && invoice.cardLast4
      ? [t("membership.receipt.card", { card: cardName(t, invoice.cardBrand, invoice.cardLast4) })]
      : []),
  ].join("\n");
}

/**
 * What the e-mails of one patient are written with: `t` fills the product's name, `on` writes a date
 * in the patient's language and time zone.
 */
type Writer = { t: MailT; on: (date: Date) => string; facts: MailFacts };
type Copy<N extends MembershipNotice> = (notice: N, w: Writer) => ParagraphMail;
type CopyOf = { [T in MembershipMailTemplate]: Copy<Extract<MembershipNotice, { template: T }>> };

/** The price of an interval and how it is billed, as the e-mails name them. */
const billing = (t: MailT, interval: BillingInterval) => ({
  amount: money(chargeForInterval(interval)),
  interval: t(`membership.intervals.${interval}.name`),
  every: t(`membership.intervals.${interval}.every`),
});

const COPY: CopyOf = {
  "trial-started": (n, { t, on, facts }) => ({
    subject: t("membership.trialStarted.subject"),
    paragraphs: [
      greeting(t, facts.firstName),
      t("membership.trialStarted.started"),
      t("membership.trialStarted.firstCharge", { ...billing(t, n.interval), date: on(n.firstChargeAt) }),
      t("membership.trialStarted.cancelBefore", { date: on(n.firstChargeAt) }),
      t("common.signature"),
    ],
    action: { label: t("membership.manage"), link: facts.links.membership },
  }),
  "payment-received": (n, { t, on, facts }) => ({
    subject: t("membership.paymentReceived.subject", { amount: money(n.invoice.amountCents) }),
    paragraphs: [
      greeting(t, facts.firstName),
      t("membership.paymentReceived.thanks", {
        amount: money(n.invoice.amountCents),
        item: t(`membership.items.${n.invoice.plan}`),
      }),
      receiptLines(t, on, n.invoice),
      t("membership.paymentReceived.kept"),
      t("common.signature"),
    ],
    action: { label: t("membership.paymentReceived.action"), link: facts.links.billingHistory },
  }),
  "renewal-failed": (n, { t, on, facts }) => ({
    subject: t("membership.renewalFailed.subject"),
    paragraphs: [
      greeting(t, facts.firstName),
      t("membership.renewalFailed.declined", billing(t, n.interval)),
      n.retryAt
        ? t("membership.renewalFailed.whatToDoRetryOn", { date: on(n.retryAt) })
        : t("membership.renewalFailed.whatToDo"),
      t("membership.renewalFailed.cancelInstead"),
      t("common.signature"),
    ],
    action: { label: t("membership.manage"), link: facts.links.membership },
  }),
  "membership-canceled": (n, { t, on, facts }) => ({
    subject: t("membership.canceled.subject"),
    paragraphs: [
      greeting(t, facts.firstName),
      t("membership.canceled.canceled"),
      n.accessUntil
        ? t("membership.canceled.accessUntil", { date: on(n.accessUntil) })
        : t("membership.canceled.accessEnded"),
      t("common.signature"),
    ],
    action: { label: t("membership.manage"), link: facts.links.membership },
  }),
  "membership-resumed": (n, { t, on, facts }) => ({
    subject: t("membership.resumed.subject"),
    paragraphs: [
      greeting(t, facts.firstName),
      t("membership.resumed.welcomeBack"),
      t("membership.resumed.nextCharge", { ...billing(t, n.interval), date: on(n.nextChargeAt) }),
      t("common.signature"),
    ],
    action: { label: t("membership.manage"), link: facts.links.membership },
  }),
  "interval-changed": (n, { t, on, facts }) => ({
    subject: t("membership.intervalChanged.subject", billing(t, n.interval)),
    paragraphs: [
      greeting(t, facts.firstName),
      t("membership.intervalChanged.fromRenewal", { ...billing(t, n.interval), date: on(n.fromDate) }),
      t("membership.intervalChanged.nothingChanges"),
      t("common.signature"),
    ],
    action: { label: t("membership.manage"), link: facts.links.membership },
  }),
};

export function renderMembershipMail(
  locale: Locale,
  notice: MembershipNotice,
  facts: MailFacts,
): RenderedMail {
  const dates = new Intl.DateTimeFormat(intlTag(locale), { dateStyle: "long", timeZone: facts.timeZone });
  const writer: Writer = {
    t: mailT(locale, { productName: facts.productName }),
    on: (date) => dates.format(date),
    facts,
  };
  const copy = COPY[notice.template] as Copy<MembershipNotice>;
  return renderParagraphMail(locale, copy(notice, writer));
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
