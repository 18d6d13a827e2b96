import { MEMBERSHIP_ERRORS } from "@ambercare/contracts/membership-constants";
import type { FastifyBaseLogger } from "fastify";
import type { PaymentProvider } from "#api/integrations/payments/payment-provider.ts";
import type { InvoiceRow, MembershipRepository } from "#api/modules/membership/membership-repository.ts";
import { AppError } from "#api/platform/errors.ts";

/**
 * One charge of an invoice under its own idempotency key: a key seen before answers with the
 * earlier outcome and charges nothing. Only cards Ambercare took are charged here (the demo
 * processor); a processor with its own hosted page renews by itself and reports by webhook.
 */
export async function attemptCharge(
  payments: PaymentProvider,
  repo: MembershipRepository,
  invoice: InvoiceRow,
  token: string,
  attemptKey: string,
  at: Date,
): Promise<boolean> {
  const earlier = await repo.findPayment(attemptKey);
  if (earlier) return earlier.outcome === "succeeded";
  const result = await payments.charge(token, invoice.amountCents);
  await repo.insertPayment({
    invoiceId: invoice.id,
    idempotencyKey: attemptKey,
    amountCents: invoice.amountCents,
    outcome: result.ok ? "succeeded" : "failed",
    failureReason: result.ok ? null : result.reason,
    providerPaymentId: result.ok ? result.providerPaymentId : null,
    createdAt: at,
  });
  if (result.ok) await repo.updateInvoice(invoice.id, { status: "paid", paidAt: at });
  return result.ok;
}

/** A call to the payment processor; its failure is logged and answered with 502. */
export async function callProvider<T>(log: FastifyBaseLogger, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    log.error({ err: error }, "payment provider call failed");
    throw new AppError("PAYMENT_PROVIDER_UNAVAILABLE", 502, MEMBERSHIP_ERRORS.providerUnavailable);
  }
}
