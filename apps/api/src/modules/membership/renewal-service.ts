import {
  chargeForInterval,
  PLAN_FOR_INTERVAL,
  RENEWAL_RETRY_DAYS,
} from "@ambercare/contracts/membership-constants";
import type { Executor } from "@ambercare/db/client";
import { attemptCharge } from "#api/modules/membership/charge-service.ts";
import {
  type MembershipNotice,
  notifying,
  paymentReceived,
  sendAfterCommit,
} from "#api/modules/membership/membership-mail.ts";
import {
  type MembershipDeps,
  patientInvoiceDescription,
} from "#api/modules/membership/membership-records.ts";
import { createMembershipRepository } from "#api/modules/membership/membership-repository.ts";
import { addInterval, DAY_MS } from "#api/platform/billing-calendar.ts";

/** A clock jump of years renews one period at a time; this bounds one run of one membership. */
const MAX_PERIODS_PER_RUN = 500;

/**
 * Renewals of the memberships Ambercare charges itself (the demo processor's saved cards): every
 * minute (server.ts) and after each jump of the test clock. A failed renewal is past due at once and
 * retried RENEWAL_RETRY_DAYS later; a second failure ends the membership and voids that invoice.
 */
export function createRenewalService(deps: MembershipDeps) {
  const { db, clock, payments } = deps;

  /** Renews, retries or ends one demo membership for every period that is due at `now`. */
  async function settle(
    tx: Executor,
    subscriptionId: string,
    now: Date,
    notices: MembershipNotice[],
  ): Promise<void> {
    const repo = notifying(createMembershipRepository(tx), notices);
    let sub = await repo.findSubscription(subscriptionId, true);
    for (let i = 0; sub && i < MAX_PERIODS_PER_RUN; i++) {
      const status = sub.status;
      const periodEnd = sub.currentPeriodEnd;
      if (status === "canceled" && periodEnd <= now) {
        sub = await repo.changeStatus(sub, "ended", "period_ended", now, { endedAt: periodEnd });
        return;
      }
      const renewalDue = (status === "trialing" || status === "active") && periodEnd <= now;
      const retryDue = status === "past_due" && sub.retryAt !== null && sub.retryAt <= now;
      if (!renewalDue && !retryDue) return;

      const nextInterval = sub.pendingInterval ?? sub.interval;
      const plan = PLAN_FOR_INTERVAL[nextInterval];
      const nextEnd = addInterval(periodEnd, nextInterval);
      const invoiceKey = `renewal:${sub.id}:${periodEnd.toISOString()}`;
      const invoice = await repo.upsertInvoice({
        userId: sub.userId,
        subscriptionId: sub.id,
        idempotencyKey: invoiceKey,
        plan,
        description: await patientInvoiceDescription(repo, deps.timeZone, sub.userId, plan, {
          start: periodEnd,
          end: nextEnd,
        }),
        amountCents: chargeForInterval(nextInterval),
        status: "open",
        periodStart: periodEnd,
        periodEnd: nextEnd,
        cardBrand: sub.cardBrand,
        cardLast4: sub.cardLast4,
        issuedAt: periodEnd,
      });
      const attempt = sub.failedAttempts + 1;
      const chargedAt = retryDue && sub.retryAt ? sub.retryAt : periodEnd;
      const paid = await attemptCharge(
        payments,
        repo,
        invoice,
        sub.paymentToken ?? "",
        `${invoiceKey}:attempt:${attempt}`,
        chargedAt,
      );
      const renewed = {
        interval: nextInterval,
        plan,
        pendingInterval: null,
        currentPeriodStart: periodEnd,
        currentPeriodEnd: nextEnd,
        failedAttempts: 0,
        retryAt: null,
      };
      if (paid) {
        notices.push(await paymentReceived(repo, invoice.id));
        sub =
          status === "active"
            ? await repo.updateSubscription(sub.id, renewed, now)
            : await repo.changeStatus(
                sub,
                "active",
                status === "trialing" ? "trial_converted" : "retry_paid",
                now,
                renewed,
              );
      } else if (status === "past_due") {
        await repo.updateInvoice(invoice.id, { status: "void" });
        sub = await repo.changeStatus(sub, "ended", "retry_failed", now, {
          endedAt: chargedAt,
          failedAttempts: attempt,
        });
        return;
      } else {
        await repo.updateInvoice(invoice.id, { status: "failed" });
        sub = await repo.changeStatus(sub, "past_due", "renewal_failed", now, {
          failedAttempts: attempt,
          retryAt: new Date(periodEnd.getTime() + RENEWAL_RETRY_DAYS * DAY_MS),
        });
      }
    }
  }

  return {
    /** Renewals, retries and endings that are due; each membership in its own transaction. */
    async runDue(): Promise<number> {
      const now = clock.now();
      const ids = await createMembershipRepository(db).dueSubscriptionIds(now);
      for (const id of ids) {
        try {
          await sendAfterCommit(deps, (notices) => db.transaction((tx) => settle(tx, id, now, notices)));
        } catch (error) {
          deps.log.error({ err: error, subscriptionId: id }, "membership renewal failed");
        }
      }
      return ids.length;
    },
  };
}
