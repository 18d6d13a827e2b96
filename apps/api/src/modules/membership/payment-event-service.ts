import {
  type BillingInterval,
  PLAN_FOR_INTERVAL,
  type SubscriptionStatus,
} from "@ambercare/contracts/membership-constants";
import { PLANS } from "@ambercare/contracts/plans";
import type { PaymentChange, PaymentEvent } from "#api/integrations/payments/payment-provider.ts";
import { grantVisit } from "#api/modules/membership/checkout-service.ts";
import {
  type MembershipNotice,
  notifying,
  paymentReceived,
  sendAfterCommit,
} from "#api/modules/membership/membership-mail.ts";
import {
  invoiceDescription,
  type MembershipDeps,
  patientInvoiceDescription,
} from "#api/modules/membership/membership-records.ts";
import {
  createMembershipRepository,
  type MembershipRepository,
  type SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import { type TransitionReason, transitionPath } from "#api/modules/membership/subscription-states.ts";
import { addInterval, DAY_MS } from "#api/platform/billing-calendar.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * What the payment processor reports by webhook (its adapter verified and read the event): paid
 * checkouts, paid and failed invoices, and subscription changes, mapped onto the same transitions as
 * Ambercare's own renewals, along the shortest allowed path when the processor skipped a status.
 */
export function createPaymentEventService(deps: MembershipDeps) {
  const { db, clock, payments } = deps;

  async function checkoutCompleted(
    repo: MembershipRepository,
    notices: MembershipNotice[],
    change: Extract<PaymentChange, { kind: "checkout_completed" }>,
    now: Date,
  ) {
    const checkoutId = change.checkoutId;
    const checkout =
      checkoutId && /^[0-9a-f-]{36}$/i.test(checkoutId)
        ? await repo.findCheckout(checkoutId, true)
        : undefined;
    if (!checkout) return false;
    if (checkout.paidAt) return true;
    const plan = checkout.plan;
    if (checkout.kind === "visit") {
      const invoice = await repo.upsertInvoice({
        userId: checkout.userId,
        checkoutId: checkout.id,
        idempotencyKey: `checkout:${checkout.id}`,
        plan,
        description: invoiceDescription(plan, null, null),
        amountCents: change.amountCents ?? checkout.amountCents,
        status: "paid",
        issuedAt: now,
        paidAt: now,
      });
      await grantVisit(repo, checkout, now);
      notices.push(await paymentReceived(repo, invoice.id));
      return true;
    }
    const providerSubscriptionId = change.providerSubscriptionId;
    if (!providerSubscriptionId) return false;
    const existing = await repo.findSubscriptionByProviderId(providerSubscriptionId);
    if (existing || (await repo.findLiveSubscription(checkout.userId, true))) {
      // Two checkouts paid in parallel: the second Stripe subscription needs a refund by hand.
      if (!existing) {
        deps.log.warn(
          { checkoutId: checkout.id, providerSubscriptionId },
          "second membership paid; refund it",
        );
      }
      await repo.markCheckoutPaid(checkout.id, now, existing?.id ?? null);
      return existing !== undefined;
    }
    const interval = PLANS[plan].interval as BillingInterval;
    const trialEnd = checkout.trialDays > 0 ? new Date(now.getTime() + checkout.trialDays * DAY_MS) : null;
    // Provisional period: customer.subscription.updated brings Stripe's own dates.
    const subscription = await repo.createSubscription(
      {
        userId: checkout.userId,
        plan: PLAN_FOR_INTERVAL[interval],
        interval,
        status: trialEnd ? "trialing" : "active",
        trialEndsAt: trialEnd,
        currentPeriodStart: now,
        currentPeriodEnd: trialEnd ?? addInterval(now, interval),
        provider: payments.name,
        providerSubscriptionId,
        providerCustomerId: change.providerCustomerId ?? null,
        createdAt: now,
      },
      trialEnd ? "checkout_trial" : "checkout_paid",
    );
    await repo.markCheckoutPaid(checkout.id, now, subscription.id);
    return true;
  }

  async function knownSubscription(repo: MembershipRepository, providerSubscriptionId: string | undefined) {
    const sub = providerSubscriptionId
      ? await repo.findSubscriptionByProviderId(providerSubscriptionId)
      : undefined;
    if (!sub)
      throw new AppError("SUBSCRIPTION_UNKNOWN_YET", 409, "Unknown subscription; send the event again later");
    return sub;
  }

  /** Moves along the shortest allowed path; the patch lands with the last step. */
  async function moveTo(
    repo: MembershipRepository,
    sub: SubscriptionRow,
    to: SubscriptionStatus,
    reason: TransitionReason,
    now: Date,
    patch: Parameters<MembershipRepository["updateSubscription"]>[1],
  ): Promise<SubscriptionRow> {
    const path = transitionPath(sub.status, to);
    if (path === undefined) {
      deps.log.warn(
        { subscriptionId: sub.id, from: sub.status, to },
        "provider reported a status outside the graph",
      );
      return sub;
    }
    if (path.length === 0) return repo.updateSubscription(sub.id, patch, now);
    let current = sub;
    for (const [index, step] of path.entries()) {
      current = await repo.changeStatus(current, step, reason, now, index === path.length - 1 ? patch : {});
    }
    return current;
  }

  async function invoiceSettled(
    repo: MembershipRepository,
    notices: MembershipNotice[],
    invoice: Extract<PaymentChange, { kind: "invoice" }>,
    now: Date,
  ) {
    const sub = await knownSubscription(repo, invoice.providerSubscriptionId);
    const { paid, amountCents: amount, providerInvoiceId: invoiceId } = invoice;
    const periodStart = invoice.periodStart ?? sub.currentPeriodStart;
    const periodEnd = invoice.periodEnd ?? sub.currentPeriodEnd;
    // A trial's $0 invoice is no charge: nothing to show in the billing history.
    if (amount > 0) {
      const before = await repo.findInvoiceByProviderId(invoiceId);
      const row = await repo.upsertInvoice({
        userId: sub.userId,
        subscriptionId: sub.id,
        idempotencyKey: `${payments.name}:${invoiceId}`,
        providerInvoiceId: invoiceId,
        plan: sub.plan,
        description: await patientInvoiceDescription(repo, deps.timeZone, sub.userId, sub.plan, {
          start: periodStart,
          end: periodEnd,
        }),
        amountCents: amount,
        status: paid ? "paid" : "failed",
        periodStart,
        periodEnd,
        issuedAt: invoice.issuedAt ?? now,
        paidAt: paid ? now : null,
      });
      await repo.updateInvoice(
        row.id,
        paid ? { status: "paid", paidAt: row.paidAt ?? now } : { status: "failed", paidAt: null },
      );
      // The processor may report one payment by several events: the receipt goes out once.
      if (paid && before?.status !== "paid") notices.push(await paymentReceived(repo, row.id));
    }
    const status = sub.status;
    if (paid && amount > 0 && (status === "trialing" || status === "past_due")) {
      await moveTo(repo, sub, "active", status === "trialing" ? "trial_converted" : "retry_paid", now, {
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        failedAttempts: 0,
        retryAt: null,
      });
    } else if (!paid && (status === "trialing" || status === "active")) {
      await moveTo(repo, sub, "past_due", "renewal_failed", now, {
        failedAttempts: sub.failedAttempts + 1,
        retryAt: invoice.nextAttemptAt ?? null,
      });
    }
  }

  async function subscriptionChanged(
    repo: MembershipRepository,
    change: Extract<PaymentChange, { kind: "subscription_changed" }>,
    now: Date,
  ) {
    const sub = await knownSubscription(repo, change.providerSubscriptionId);
    const target = change.status;
    if (!target) return;
    const { plan, cancelAtPeriodEnd } = change;
    const interval = plan ? PLANS[plan].interval : null;
    await moveTo(repo, sub, target, "provider_update", now, {
      currentPeriodStart: change.periodStart ?? sub.currentPeriodStart,
      currentPeriodEnd: change.periodEnd ?? sub.currentPeriodEnd,
      cancelAtPeriodEnd,
      canceledAt: change.canceledAt ?? (cancelAtPeriodEnd ? (sub.canceledAt ?? now) : null),
      trialEndsAt: change.trialEndsAt ?? sub.trialEndsAt,
      ...(target === "ended" ? { endedAt: change.endedAt ?? now } : {}),
      ...(interval ? { plan: PLAN_FOR_INTERVAL[interval], interval, pendingInterval: null } : {}),
    });
  }

  return {
    /**
     * Applies one verified webhook event of the payment processor. The event id is recorded in the same transaction,
     * so a replay changes nothing, and a failure leaves it to the processor's retry. An event about a
     * subscription not known yet (events may arrive out of order) is refused with 409 so that the
     * processor sends it again later.
     */
    async applyPaymentEvent(event: PaymentEvent): Promise<"applied" | "duplicate" | "ignored"> {
      return sendAfterCommit(deps, (notices) =>
        db.transaction(async (tx) => {
          const repo = notifying(createMembershipRepository(tx), notices);
          const now = clock.now();
          if (!(await repo.markWebhookProcessed(event.id, event.type, now))) return "duplicate";
          const change = event.change;
          switch (change.kind) {
            case "checkout_completed":
              return (await checkoutCompleted(repo, notices, change, now)) ? "applied" : "ignored";
            case "invoice":
              await invoiceSettled(repo, notices, change, now);
              return "applied";
            case "subscription_changed":
              await subscriptionChanged(repo, change, now);
              return "applied";
            case "other":
              return "ignored";
          }
        }),
      );
    },
  };
}
