import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "@ambercare/contracts/membership-constants";

/**
 * The only status changes a membership can make (docs/decisions/015-membership-and-billing.md).
 * `null` is "no membership yet": a checkout creates one trialing (first membership) or active.
 * Renewing an active membership keeps its status and is not a transition.
 */
export const SUBSCRIPTION_TRANSITIONS: Readonly<
  Record<SubscriptionStatus | "none", readonly SubscriptionStatus[]>
> = Object.freeze({
  none: Object.freeze(["trialing", "active"] as const),
  /** Trial over and first charge paid; canceled during the trial; first charge failed. */
  trialing: Object.freeze(["active", "canceled", "past_due"] as const),
  /** Canceled (access until the period ends); a renewal failed. */
  active: Object.freeze(["canceled", "past_due"] as const),
  /** Resumed before the period ends (back to the trial if it was one); the period ended. */
  canceled: Object.freeze(["active", "trialing", "ended"] as const),
  /** The retry paid; the retry failed too, or the patient canceled while past due. */
  past_due: Object.freeze(["active", "ended"] as const),
  ended: Object.freeze([] as const),
});

export type TransitionReason =
  | "checkout_trial"
  | "checkout_paid"
  | "trial_converted"
  | "canceled_by_patient"
  | "resumed_by_patient"
  | "period_ended"
  | "renewal_failed"
  | "retry_paid"
  | "retry_failed"
  | "provider_update";

export class ForbiddenTransitionError extends Error {
  override name = "ForbiddenTransitionError";
  constructor(
    readonly from: SubscriptionStatus | null,
    readonly to: SubscriptionStatus,
  ) {
    super(`A membership cannot go from ${from ?? "none"} to ${to}`);
  }
}

export function canTransition(from: SubscriptionStatus | null, to: SubscriptionStatus): boolean {
  return SUBSCRIPTION_TRANSITIONS[from ?? "none"].includes(to);
}

/** Throws unless `from → to` is in the table. */
export function assertTransition(from: SubscriptionStatus | null, to: SubscriptionStatus): void {
  if (!canTransition(from, to)) throw new ForbiddenTransitionError(from, to);
}

export function isSubscriptionStatus(value: string): value is SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(value);
}

/**
 * The shortest chain of allowed transitions from `from` to `to` (empty when equal), or undefined when
 * the graph has none. A payment provider reports only the latest status; when it skipped one of ours
 * (trialing → canceled-then-resumed-as-active, say), each step is still recorded.
 */
export function transitionPath(
  from: SubscriptionStatus | null,
  to: SubscriptionStatus,
): SubscriptionStatus[] | undefined {
  if (from === to) return [];
  const queue: Array<{ at: SubscriptionStatus | null; path: SubscriptionStatus[] }> = [
    { at: from, path: [] },
  ];
  const seen = new Set<SubscriptionStatus | null>([from]);
  while (queue.length > 0) {
    const { at, path } = queue.shift() as { at: SubscriptionStatus | null; path: SubscriptionStatus[] };
    for (const next of SUBSCRIPTION_TRANSITIONS[at ?? "none"]) {
      if (next === to) return [...path, next];
      if (!seen.has(next)) {
        seen.add(next);
        queue.push({ at: next, path: [...path, next] });
      }
    }
  }
  return undefined;
}

/** Whether a membership in this status still gives access (is_subscribed, consultations). */
export function givesAccess(status: SubscriptionStatus, periodEnd: Date, now: Date): boolean {
  if (status === "ended") return false;
  // A canceled membership lasts until its period ends even before the sweep marks it ended.
  if (status === "canceled") return now < periodEnd;
  return true;
}
