import { createCheckoutService } from "#api/modules/membership/checkout-service.ts";
import { createInvoiceService } from "#api/modules/membership/invoice-service.ts";
import type { MembershipDeps } from "#api/modules/membership/membership-records.ts";
import { createPaymentEventService } from "#api/modules/membership/payment-event-service.ts";
import { createRenewalService } from "#api/modules/membership/renewal-service.ts";
import { createSubscriptionService } from "#api/modules/membership/subscription-service.ts";
import { createVisitRefundService } from "#api/modules/membership/visit-refund-service.ts";

export type { MembershipDeps } from "#api/modules/membership/membership-records.ts";

/**
 * Memberships, checkouts, invoices and one-time visits (docs/decisions/015-membership-and-billing.md),
 * one service of the app made of the module's parts. Status changes go through the repository's
 * changeStatus, which enforces the transition table.
 */
export function createMembershipService(deps: MembershipDeps) {
  const checkouts = createCheckoutService(deps);
  const subscriptions = createSubscriptionService(deps);
  const invoices = createInvoiceService(deps);
  const renewals = createRenewalService(deps);
  const paymentEvents = createPaymentEventService(deps);
  const visitRefunds = createVisitRefundService(deps);
  return {
    startSubscriptionCheckout: checkouts.startSubscriptionCheckout,
    startVisitCheckout: checkouts.startVisitCheckout,
    getCheckout: checkouts.getCheckout,
    payCheckout: checkouts.payCheckout,
    isSubscribed: subscriptions.isSubscribed,
    visitEntitlement: subscriptions.visitEntitlement,
    getSubscription: subscriptions.getSubscription,
    cancel: subscriptions.cancel,
    resume: subscriptions.resume,
    changeInterval: subscriptions.changeInterval,
    feedback: subscriptions.feedback,
    entitlement: subscriptions.entitlement,
    consumeVisitCredit: subscriptions.consumeVisitCredit,
    returnVisitCredit: subscriptions.returnVisitCredit,
    history: subscriptions.history,
    listInvoices: invoices.listInvoices,
    getInvoice: invoices.getInvoice,
    runDue: renewals.runDue,
    applyPaymentEvent: paymentEvents.applyPaymentEvent,
    refundVisit: visitRefunds.refundVisit,
    visitPayment: visitRefunds.visitPayment,
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
