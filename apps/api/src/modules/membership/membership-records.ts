import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import type { Invoice, Subscription } from "@ambercare/contracts/membership";
import {
  chargeForInterval,
  type MembershipPlanKey,
  PLAN_FOR_INTERVAL,
} from "@ambercare/contracts/membership-constants";
import type { PlanKey } from "@ambercare/contracts/plans";
import { isVisitPlanKey, visitTypeOfPlan } from "@ambercare/contracts/visit-types";
import type { Database } from "@ambercare/db/client";
import type { FastifyBaseLogger } from "fastify";
import type { PaymentProvider } from "#api/integrations/payments/payment-provider.ts";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import type { MembershipMailer } from "#api/modules/membership/membership-mail.ts";
import type {
  InvoiceRow,
  RefundRow,
  SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import { dayIn, patientZone } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * What the membership services share: their dependencies, the owner check, and the rows as the API
 * answers with them (docs/decisions/015-membership-and-billing.md).
 */

export type MembershipDeps = {
  db: Database;
  clock: Clock;
  payments: PaymentProvider;
  /** The web app's origin (checkout page, return links). */
  webUrl: string;
  log: FastifyBaseLogger;
  /** The patient's e-mails about their payments and membership, sent after each commit. */
  membershipMail: MembershipMailer;
  /** CLINIC_TIME_ZONE: the zone of a patient whose profile has none (patientZone; UTC when unset). */
  timeZone?: string;
};

/** Refused; with `ownerUserId`, the attempt on that patient's membership is audited. */
export function ownAccountOnly(ownerUserId?: string, resourceId: string | null = null): AppError {
  return new AppError("OWN_ACCOUNT_ONLY", 403, AUTH_ERRORS.ownAccountOnly, {
    ...(ownerUserId ? { refusedAccess: { ownerUserId, resourceType: "membership", resourceId } } : {}),
  });
}

/** The caller may act only for their own user id (ADR 010); the service account for nobody. */
export function assertSelf(auth: AuthContext, userId: string): string {
  const id = userId.toLowerCase();
  if (auth.isServiceAccount || auth.userId !== id) throw ownAccountOnly(id);
  return id;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toSubscription(row: SubscriptionRow): Subscription {
  const status = row.status;
  const interval = row.interval;
  const nextInterval = row.pendingInterval ?? row.interval;
  const nextChargeAt =
    status === "trialing" || status === "active"
      ? row.currentPeriodEnd
      : status === "past_due"
        ? row.retryAt
        : null;
  return {
    id: row.id,
    plan: PLAN_FOR_INTERVAL[interval],
    interval,
    status,
    trial_ends_at: iso(row.trialEndsAt),
    current_period_start: row.currentPeriodStart.toISOString(),
    current_period_end: row.currentPeriodEnd.toISOString(),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    canceled_at: iso(row.canceledAt),
    ended_at: iso(row.endedAt),
    next_charge_at: iso(nextChargeAt),
    next_charge_amount_cents: nextChargeAt ? chargeForInterval(nextInterval) : null,
    pending_interval: row.pendingInterval,
    payment_method: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
  };
}

/**
 * An invoice as its owner reads it, with its refunds (`refunds`, the invoice's rows of
 * `invoice_refunds`): an automatic refund (expired or canceled visit) has no such row and is the
 * one line the invoice itself records.
 */
export function toInvoice(row: InvoiceRow, recorded: readonly RefundRow[] = []): Invoice {
  const own = recorded.filter((refund) => refund.invoiceId === row.id);
  const refunds =
    own.length > 0
      ? own.map((refund) => ({ at: refund.at.toISOString(), amount_cents: refund.amountCents }))
      : row.refundedAt
        ? [{ at: row.refundedAt.toISOString(), amount_cents: row.refundedAmountCents ?? row.amountCents }]
        : [];
  return {
    id: row.id,
    number: `AC-${String(row.seq).padStart(6, "0")}`,
    issued_at: row.issuedAt.toISOString(),
    paid_at: iso(row.paidAt),
    plan: row.plan,
    description: row.description,
    amount_cents: row.amountCents,
    currency: "usd",
    status: row.status,
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    payment_method: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    refunded_at: iso(row.refundedAt),
    refunded_amount_cents: row.refundedAmountCents,
    refunds,
  };
}

/** invoiceDescription in the zone of the patient the invoice is for (patientZone). */
export async function patientInvoiceDescription(
  repo: { findUserTimeZone(userId: string): Promise<string | null> },
  clinicZone: string | undefined,
  userId: string,
  plan: PlanKey,
  period: { start: Date; end: Date },
): Promise<string> {
  const zone = patientZone(await repo.findUserTimeZone(userId), clinicZone);
  return invoiceDescription(plan, period.start, period.end, zone);
}

const MEMBERSHIP_NAMES: Readonly<Record<MembershipPlanKey, string>> = {
  subscription_monthly: "monthly",
  subscription_yearly: "yearly",
};

/**
 * What an invoice says it is for; a membership's period is named by its first and last days in the
 * patient's time zone (patientZone), as their receipt shows its times.
 */
export function invoiceDescription(
  plan: PlanKey,
  periodStart: Date | null,
  periodEnd: Date | null,
  timeZone = "UTC",
): string {
  // A one-time visit is named by its kind: "Ambercare one-time chat visit".
  if (isVisitPlanKey(plan)) return `Ambercare one-time ${visitTypeOfPlan(plan)} visit`;
  const name = MEMBERSHIP_NAMES[plan];
  const period =
    periodStart && periodEnd ? `, ${dayIn(periodStart, timeZone)} to ${dayIn(periodEnd, timeZone)}` : "";
  return `Ambercare membership (${name})${period}`;
}
