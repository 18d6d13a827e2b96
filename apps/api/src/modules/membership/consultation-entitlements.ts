import type { ConsultationType } from "@ambercare/contracts/provider";
import type { Executor } from "@ambercare/db/client";
import type { MembershipService } from "#api/modules/membership/membership-service.ts";

/**
 * What creating and canceling a consultation needs to know about payment: whether the patient is a
 * member (trialing or active), and their one-time visit credits. The membership module owns that
 * data (membershipEntitlements below); consultations depend on this port only, so their tests can
 * grant by hand (test-support.ts createTestEntitlements).
 *
 * `consumeVisitCredit` and `returnVisitCredit` run inside the caller's transaction (`tx`), so a
 * consultation that fails to be created gives its credit back by rolling back. `consumeVisitCredit`
 * must take a credit at most once even when two requests race (a row lock or a conditional update),
 * and answer false when there is none.
 */
export interface ConsultationEntitlements {
  isMember(userId: string): Promise<boolean>;
  consumeVisitCredit(tx: Executor, userId: string, type: ConsultationType): Promise<boolean>;
  returnVisitCredit(tx: Executor, userId: string, type: ConsultationType): Promise<void>;
}

/** The membership module's answer (subscription-service.ts; ADR 015): the real one. */
export function membershipEntitlements(
  membership: Pick<MembershipService, "entitlement" | "consumeVisitCredit" | "returnVisitCredit">,
): ConsultationEntitlements {
  return {
    isMember: async (userId) => (await membership.entitlement(userId)).member,
    consumeVisitCredit: (tx, userId, type) => membership.consumeVisitCredit(tx, userId, type),
    returnVisitCredit: (tx, userId, type) => membership.returnVisitCredit(tx, userId, type),
  };
}
