import type { CancelFeedbackRequest, Subscription } from "@ambercare/contracts/membership";
import {
  type BillingInterval,
  MEMBERSHIP_ERRORS,
  PLAN_FOR_INTERVAL,
} from "@ambercare/contracts/membership-constants";
import type { VisitType } from "@ambercare/contracts/visit-types";
import type { Executor } from "@ambercare/db/client";
import type { AuthContext } from "#api/modules/accounts/session-service.ts";
import { callProvider } from "#api/modules/membership/charge-service.ts";
import { notifying, sendAfterCommit } from "#api/modules/membership/membership-mail.ts";
import {
  assertSelf,
  type MembershipDeps,
  ownAccountOnly,
  toSubscription,
} from "#api/modules/membership/membership-records.ts";
import {
  createMembershipRepository,
  type MembershipRepository,
  type SubscriptionRow,
} from "#api/modules/membership/membership-repository.ts";
import { givesAccess } from "#api/modules/membership/subscription-states.ts";
import { AppError } from "#api/platform/errors.ts";

export type Entitlement = { member: boolean; visitCredits: Record<VisitType, number> };

/**
 * A patient's membership once it exists: what it gives access to, cancel, resume, a new interval
 * from the next renewal on, cancel feedback, and one-time visit credits. A membership the processor
 * renews is changed there first (callProvider), then here.
 */
export function createSubscriptionService(deps: MembershipDeps) {
  const { db, clock, payments } = deps;

  async function requireLive(repo: MembershipRepository, userId: string): Promise<SubscriptionRow> {
    const row = await repo.findLiveSubscription(userId, true);
    if (!row) throw new AppError("NO_SUBSCRIPTION", 404, MEMBERSHIP_ERRORS.noSubscription);
    return row;
  }

  /** Whether a patient may have a consultation: a membership's access, or unused one-time visits. */
  async function entitlement(userId: string, executor: Executor = db): Promise<Entitlement> {
    const repo = createMembershipRepository(executor);
    const sub = await repo.findLiveSubscription(userId);
    const now = clock.now();
    return {
      member: sub ? givesAccess(sub.status, sub.currentPeriodEnd, now) : false,
      visitCredits: await repo.countVisitCredits(userId),
    };
  }

  return {
    entitlement,

    async isSubscribed(auth: AuthContext, userId: string): Promise<boolean> {
      const id = assertSelf(auth, userId);
      return (await entitlement(id)).member;
    },

    async visitEntitlement(auth: AuthContext, userId: string): Promise<Entitlement> {
      return entitlement(assertSelf(auth, userId));
    },

    async getSubscription(auth: AuthContext, userId: string): Promise<Subscription | null> {
      const id = assertSelf(auth, userId);
      const row = await createMembershipRepository(db).findLatestSubscription(id);
      return row ? toSubscription(row) : null;
    },

    /** Cancel at the period's end (access stays until then); a past-due membership ends at once. */
    async cancel(auth: AuthContext, userId: string): Promise<Subscription> {
      const id = assertSelf(auth, userId);
      return sendAfterCommit(deps, (notices) =>
        db.transaction(async (tx) => {
          const repo = notifying(createMembershipRepository(tx), notices);
          const sub = await requireLive(repo, id);
          const now = clock.now();
          if (sub.status === "canceled") return toSubscription(sub);
          if (sub.status === "past_due") {
            if (sub.providerSubscriptionId) {
              const providerId = sub.providerSubscriptionId;
              await callProvider(deps.log, () => payments.cancelNow(providerId));
            }
            return toSubscription(
              await repo.changeStatus(sub, "ended", "canceled_by_patient", now, {
                canceledAt: now,
                endedAt: now,
                retryAt: null,
              }),
            );
          }
          if (sub.providerSubscriptionId) {
            const providerId = sub.providerSubscriptionId;
            await callProvider(deps.log, () => payments.setCancelAtPeriodEnd(providerId, true));
          }
          return toSubscription(
            await repo.changeStatus(sub, "canceled", "canceled_by_patient", now, {
              cancelAtPeriodEnd: true,
              canceledAt: now,
            }),
          );
        }),
      );
    },

    /** Undo a cancel before the period ends: back to the trial if it was one, else active. */
    async resume(auth: AuthContext, userId: string): Promise<Subscription> {
      const id = assertSelf(auth, userId);
      return sendAfterCommit(deps, (notices) =>
        db.transaction(async (tx) => {
          const repo = notifying(createMembershipRepository(tx), notices);
          const sub = await repo.findLiveSubscription(id, true);
          const now = clock.now();
          if (
            !sub ||
            sub.status === "past_due" ||
            (sub.status === "canceled" && sub.currentPeriodEnd <= now)
          ) {
            throw new AppError("CANNOT_RESUME", 409, MEMBERSHIP_ERRORS.cannotResume);
          }
          if (sub.status !== "canceled") return toSubscription(sub);
          if (sub.providerSubscriptionId) {
            const providerId = sub.providerSubscriptionId;
            await callProvider(deps.log, () => payments.setCancelAtPeriodEnd(providerId, false));
          }
          const inTrial = sub.trialEndsAt !== null && now < sub.trialEndsAt;
          return toSubscription(
            await repo.changeStatus(sub, inTrial ? "trialing" : "active", "resumed_by_patient", now, {
              cancelAtPeriodEnd: false,
              canceledAt: null,
            }),
          );
        }),
      );
    },

    /** The interval from the next renewal on; asking for the current one drops a pending change. */
    async changeInterval(
      auth: AuthContext,
      userId: string,
      interval: BillingInterval,
    ): Promise<Subscription> {
      const id = assertSelf(auth, userId);
      return sendAfterCommit(deps, (notices) =>
        db.transaction(async (tx) => {
          const repo = createMembershipRepository(tx);
          const sub = await requireLive(repo, id);
          if (sub.status !== "trialing" && sub.status !== "active") {
            throw new AppError("CANNOT_CHANGE_INTERVAL", 409, MEMBERSHIP_ERRORS.cannotChangeInterval);
          }
          const pendingInterval = interval === sub.interval ? null : interval;
          if (pendingInterval === sub.pendingInterval) return toSubscription(sub);
          if (sub.providerSubscriptionId && pendingInterval) {
            const providerId = sub.providerSubscriptionId;
            await callProvider(deps.log, () =>
              payments.changePlanAtRenewal({
                providerSubscriptionId: providerId,
                currentPlan: sub.plan,
                nextPlan: PLAN_FOR_INTERVAL[pendingInterval],
                periodStart: sub.currentPeriodStart,
                periodEnd: sub.currentPeriodEnd,
              }),
            );
          }
          notices.push({
            template: "interval-changed",
            userId: sub.userId,
            interval,
            fromDate: sub.currentPeriodEnd,
          });
          return toSubscription(await repo.updateSubscription(sub.id, { pendingInterval }, clock.now()));
        }),
      );
    },

    async feedback(auth: AuthContext, input: CancelFeedbackRequest): Promise<Subscription> {
      const userId = assertSelf(auth, input.user_id);
      const repo = createMembershipRepository(db);
      const sub = await repo.findSubscription(input.subscription_id.toLowerCase());
      if (!sub) throw new AppError("SUBSCRIPTION_NOT_FOUND", 404, MEMBERSHIP_ERRORS.subscriptionNotFound);
      if (sub.userId !== userId) throw ownAccountOnly(sub.userId, sub.id);
      await repo.insertFeedback({
        subscriptionId: sub.id,
        reason: input.reason,
        comment: input.comment === undefined || input.comment === "" ? null : input.comment,
        createdAt: clock.now(),
      });
      return toSubscription(sub);
    },

    /**
     * Spends one one-time visit of this type inside the caller's transaction (the consultation that
     * uses it rolls back with it). False when none is left; two concurrent calls never spend one twice.
     */
    async consumeVisitCredit(
      tx: Executor,
      userId: string,
      type: VisitType,
      consultationId: string | null = null,
    ): Promise<boolean> {
      const repo = createMembershipRepository(tx);
      return (await repo.consumeVisitCredit(userId, type, clock.now(), consultationId)) !== undefined;
    },

    /** Gives a spent one-time visit back inside the caller's transaction (a canceled request). */
    async returnVisitCredit(
      tx: Executor,
      userId: string,
      type: VisitType,
      consultationId: string | null = null,
    ): Promise<void> {
      await createMembershipRepository(tx).returnVisitCredit(userId, type, consultationId);
    },

    /** The membership's status history (oldest first). */
    async history(subscriptionId: string) {
      return createMembershipRepository(db).listHistory(subscriptionId);
    },
  };
}
