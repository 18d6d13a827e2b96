import { apiRoutes } from "@ambercare/contracts/api-routes";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";
import { serve } from "#api/platform/contract-routes.ts";

/**
 * Membership and billing on the care API (docs/decisions/015-membership-and-billing.md):
 * the patient's own token, and only the patient's own user id, checkouts and invoices (403).
 */
export const careMembershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const membership = app.membership;
  const routes = apiRoutes.membership;
  const patient = { onRequest: guards.patient };

  serve(app, routes.startSubscriptionCheckout, patient, async (request) => ({
    data: await membership.startSubscriptionCheckout(authOf(request), request.body),
  }));

  serve(app, routes.startVisitCheckout, patient, async (request) => ({
    data: await membership.startVisitCheckout(authOf(request), request.body),
  }));

  serve(app, routes.getCheckout, patient, async (request) => ({
    data: await membership.getCheckout(authOf(request), request.params.checkoutId),
  }));

  serve(app, routes.payCheckout, patient, async (request) => ({
    data: await membership.payCheckout(authOf(request), request.params.checkoutId, request.body),
  }));

  serve(app, routes.isSubscribed, patient, async (request) => ({
    data: { is_subscribed: await membership.isSubscribed(authOf(request), request.params.userId) },
  }));

  serve(app, routes.visitEntitlement, patient, async (request) => {
    const { member, visitCredits } = await membership.visitEntitlement(
      authOf(request),
      request.params.userId,
    );
    return { data: { is_subscribed: member, visit_credits: visitCredits } };
  });

  serve(app, routes.getSubscription, patient, async (request) => ({
    data: await membership.getSubscription(authOf(request), request.params.userId),
  }));

  serve(app, routes.cancelSubscription, patient, async (request) => ({
    data: await membership.cancel(authOf(request), request.body.user_id),
  }));

  serve(app, routes.sendCancelFeedback, patient, async (request) => ({
    data: await membership.feedback(authOf(request), request.body),
  }));

  serve(app, routes.resumeSubscription, patient, async (request) => ({
    data: await membership.resume(authOf(request), request.body.user_id),
  }));

  serve(app, routes.changeInterval, patient, async (request) => ({
    data: await membership.changeInterval(authOf(request), request.body.user_id, request.body.interval),
  }));

  serve(app, routes.listInvoices, patient, async (request) => ({
    data: await membership.listInvoices(authOf(request)),
  }));

  serve(app, routes.getInvoice, patient, async (request) => ({
    data: await membership.getInvoice(authOf(request), request.params.invoiceId),
  }));
};
