import type { ConsultationType } from "@ambercare/contracts/provider";
import type { Executor } from "@ambercare/db/client";
import type { MembershipService } from "#api/modules/membership/membership-service.ts";
import type { VisitPayment, VisitRefund } from "#api/modules/membership/visit-refund-service.ts";

export type { VisitPayment, VisitRefund } from "#api/modules/membership/visit-refund-service.ts";

/**
 * What creating and canceling a consultation needs to know about payment: whether the patient is a
 * member (trialing or active), and their one-time visit credits. The membership module owns that
 * data (membershipEntitlements below); consultations depend on this port only, so their tests can
 * grant by hand (test-support.ts createTestEntitlements).
 *
 * `consumeVisitCredit` and `returnVisitCredit` run inside the caller's transaction (`tx`), so a
 * consultation that fails to be created gives its credit back by rolling back. `consumeVisitCredit`
 * must take a credit at most once even when two requests race (a row lock or a conditional update),
 * and answer false when there is none; it remembers which consultation spent the credit, so that
 * `refundVisit` can give that consultation's payment back (an expired visit, or one the clinician
 * canceled). `refundVisit` is safe to call again: it refunds once. `visitPayment` only reads what
 * the payment became, for the visit's page.
 */
export interface ConsultationEntitlements {
  isMember(userId: string): Promise<boolean>;
  consumeVisitCredit(
    tx: Executor,
    userId: string,
    type: ConsultationType,
    consultationId: string,
  ): Promise<boolean>;
  returnVisitCredit(
    tx: Executor,
    userId: string,
    type: ConsultationType,
    consultationId: string,
  ): Promise<void>;
  refundVisit(consultationId: string): Promise<VisitRefund>;
  visitPayment(consultationId: string): Promise<VisitPayment | null>;
}

/** The membership module's answer (subscription-service.ts; ADR 015): the real one. */
export function membershipEntitlements(
  membership: Pick<
    MembershipService,
    "entitlement" | "consumeVisitCredit" | "returnVisitCredit" | "refundVisit" | "visitPayment"
  >,
): ConsultationEntitlements {
  return {
    isMember: async (userId) => (await membership.entitlement(userId)).member,
    consumeVisitCredit: (tx, userId, type, consultationId) =>
      membership.consumeVisitCredit(tx, userId, type, consultationId),
    returnVisitCredit: (tx, userId, type, consultationId) =>
      membership.returnVisitCredit(tx, userId, type, consultationId),
    refundVisit: (consultationId) => membership.refundVisit(consultationId),
    visitPayment: (consultationId) => membership.visitPayment(consultationId),
  };
}
