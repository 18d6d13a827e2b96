import { callProvider } from "#api/modules/membership/charge-service.ts";
import type { MembershipDeps } from "#api/modules/membership/membership-records.ts";
import { createMembershipRepository } from "#api/modules/membership/membership-repository.ts";

/** What became of the money of a visit that did not take place. */
export type VisitRefund =
  | { kind: "refunded"; amountCents: number }
  /** No bought one-time visit paid for it (a membership did): nothing to give back. */
  | { kind: "nothing_paid" };

/** A one-time visit's payment and its refund (null until it is made). */
export type VisitPayment = { amountCents: number; refundedCents: number | null };

/**
 * Gives back the payment of a one-time visit whose consultation expired or was canceled by the
 * clinician. Safe to repeat: the processor gets the same idempotency key each time (a retry after a
 * crash returns the same refund), and the invoice records the refund once.
 */
export function createVisitRefundService(deps: Pick<MembershipDeps, "db" | "clock" | "payments" | "log">) {
  return {
    /**
     * What a one-time visit's payment became, read only (the visit page says it): null when no
     * bought visit paid for it; `refundedCents` null while its refund is still to be made.
     */
    async visitPayment(consultationId: string): Promise<VisitPayment | null> {
      const paid = await createMembershipRepository(deps.db).visitPaymentOf(consultationId);
      if (!paid) return null;
      return {
        amountCents: paid.amountCents,
        refundedCents: paid.refundedAt ? (paid.refundedAmountCents ?? paid.amountCents) : null,
      };
    },

    async refundVisit(consultationId: string): Promise<VisitRefund> {
      const repo = createMembershipRepository(deps.db);
      const paid = await repo.visitPaymentOf(consultationId);
      if (!paid) return { kind: "nothing_paid" };
      if (paid.refundedAt)
        return { kind: "refunded", amountCents: paid.refundedAmountCents ?? paid.amountCents };
      const refund = await callProvider(deps.log, () =>
        deps.payments.refund({
          providerPaymentId: paid.providerPaymentId,
          checkoutSessionId: paid.checkoutSessionId,
          amountCents: paid.amountCents,
          idempotencyKey: `refund:${paid.invoiceId}`,
        }),
      );
      await repo.markInvoiceRefunded(paid.invoiceId, {
        at: deps.clock.now(),
        amountCents: paid.amountCents,
        providerRefundId: refund.providerRefundId,
      });
      return { kind: "refunded", amountCents: paid.amountCents };
    },
  };
}
