import { userIdParams } from "@ambercare/contracts/auth";
import { errorEnvelope } from "@ambercare/contracts/envelope";
import {
  cancelFeedbackRequest,
  changeIntervalRequest,
  checkoutIdParams,
  checkoutResponse,
  checkoutUrlResponse,
  getSubscriptionResponse,
  invoiceIdParams,
  invoiceResponse,
  invoicesResponse,
  isSubscribedResponse,
  payCheckoutRequest,
  payCheckoutResponse,
  subscriptionCheckoutRequest,
  subscriptionResponse,
  userIdRequest,
  visitCheckoutRequest,
  visitEntitlementResponse,
} from "@ambercare/contracts/membership";
import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authOf, createAuthGuards } from "#api/modules/accounts/auth-guards.ts";

const bearer = [{ bearerAuth: [] }];
const failures = {
  400: errorEnvelope,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
};
const providerFailure = { 502: errorEnvelope };

/**
 * Membership and billing on the care API (docs/decisions/015-membership-and-billing.md):
 * the patient's own token, and only the patient's own user id, checkouts and invoices (403).
 */
export const careMembershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const guards = createAuthGuards(app.accounts.sessions);
  const membership = app.membership;

  app.post(
    "/subscription-checkout",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: `Start a membership checkout (${TRIAL_DAYS}-day trial on a first membership); answers the page to pay on`,
        security: bearer,
        body: subscriptionCheckoutRequest,
        response: { 200: checkoutUrlResponse, ...failures, ...providerFailure },
      },
    },
    async (request) => ({ data: await membership.startSubscriptionCheckout(authOf(request), request.body) }),
  );

  app.post(
    "/visit-checkout",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Start a one-time visit checkout (ppv_chat or ppv_video); answers the page to pay on",
        security: bearer,
        body: visitCheckoutRequest,
        response: { 200: checkoutUrlResponse, ...failures, ...providerFailure },
      },
    },
    async (request) => ({ data: await membership.startVisitCheckout(authOf(request), request.body) }),
  );

  app.get(
    "/checkout/:checkoutId",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "A checkout of the caller's (plan, amount, trial, status)",
        security: bearer,
        params: checkoutIdParams,
        response: { 200: checkoutResponse, ...failures },
      },
    },
    async (request) => ({ data: await membership.getCheckout(authOf(request), request.params.checkoutId) }),
  );

  app.post(
    "/checkout/:checkoutId/pay",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Pay a checkout by card (demo payments only; paying twice charges once)",
        security: bearer,
        params: checkoutIdParams,
        body: payCheckoutRequest,
        response: { 200: payCheckoutResponse, ...failures, 402: errorEnvelope, 410: errorEnvelope },
      },
    },
    async (request) => ({
      data: await membership.payCheckout(authOf(request), request.params.checkoutId, request.body),
    }),
  );

  app.get(
    "/is-subscribed/:userId",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Whether the patient's membership gives access now",
        security: bearer,
        params: userIdParams,
        response: { 200: isSubscribedResponse, ...failures },
      },
    },
    async (request) => ({
      data: { is_subscribed: await membership.isSubscribed(authOf(request), request.params.userId) },
    }),
  );

  app.get(
    "/visit-entitlement/:userId",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "What the patient may use for a consultation now: a membership, unused one-time visits",
        security: bearer,
        params: userIdParams,
        response: { 200: visitEntitlementResponse, ...failures },
      },
    },
    async (request) => {
      const { member, visitCredits } = await membership.visitEntitlement(
        authOf(request),
        request.params.userId,
      );
      return { data: { is_subscribed: member, visit_credits: visitCredits } };
    },
  );

  app.get(
    "/get-subscription/:userId",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "The patient's membership (the live one, else the latest ended one), or null",
        security: bearer,
        params: userIdParams,
        response: { 200: getSubscriptionResponse, ...failures },
      },
    },
    async (request) => ({ data: await membership.getSubscription(authOf(request), request.params.userId) }),
  );

  app.post(
    "/cancel-subscription",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Cancel at the period's end (access stays until then); a past-due membership ends now",
        security: bearer,
        body: userIdRequest,
        response: { 200: subscriptionResponse, ...failures, ...providerFailure },
      },
    },
    async (request) => ({ data: await membership.cancel(authOf(request), request.body.user_id) }),
  );

  app.post(
    "/cancel-subscription/feedback",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Why the patient cancels (reason and optional comment)",
        security: bearer,
        body: cancelFeedbackRequest,
        response: { 200: subscriptionResponse, ...failures },
      },
    },
    async (request) => ({ data: await membership.feedback(authOf(request), request.body) }),
  );

  app.post(
    "/resume-subscription",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Undo a cancel before the period ends",
        security: bearer,
        body: userIdRequest,
        response: { 200: subscriptionResponse, ...failures, ...providerFailure },
      },
    },
    async (request) => ({ data: await membership.resume(authOf(request), request.body.user_id) }),
  );

  app.post(
    "/change-interval",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "Bill monthly or yearly from the next renewal on",
        security: bearer,
        body: changeIntervalRequest,
        response: { 200: subscriptionResponse, ...failures, ...providerFailure },
      },
    },
    async (request) => ({
      data: await membership.changeInterval(authOf(request), request.body.user_id, request.body.interval),
    }),
  );

  app.get(
    "/invoices",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "The caller's invoices, newest first",
        security: bearer,
        response: { 200: invoicesResponse, ...failures },
      },
    },
    async (request) => ({ data: await membership.listInvoices(authOf(request)) }),
  );

  app.get(
    "/invoices/:invoiceId",
    {
      onRequest: guards.patient,
      schema: {
        tags: ["care"],
        summary: "One invoice of the caller's (the printable receipt)",
        security: bearer,
        params: invoiceIdParams,
        response: { 200: invoiceResponse, ...failures },
      },
    },
    async (request) => ({ data: await membership.getInvoice(authOf(request), request.params.invoiceId) }),
  );
};
