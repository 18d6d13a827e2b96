import type { z } from "zod";
import {
  changePasswordRequest,
  companionLoginRequest,
  completeProfileRequest,
  confirmEmailRequest,
  confirmEmailResponse,
  emailRequest,
  forgotPasswordRequest,
  loginRequest,
  loginResponse,
  logoutRequest,
  logoutResponse,
  mainRegisterRequest,
  passwordChangedResponse,
  registerRequest,
  registrationResponse,
  resetMailResponse,
  resetPasswordRequest,
  updateUserRequest,
  userIdParams,
  userResponse,
} from "./auth.ts";
import {
  accountDeletedResponse,
  addToContactsRequest,
  addToContactsResponse,
  captchaChallengeResponse,
  confirmSubscriptionRequest,
  consentsRequest,
  consentsResponse,
  contactEntryRequest,
  contactEntryResponse,
  deleteMyDataRequest,
  listChangeRequest,
  listStatusResponse,
  listUnsubscribeQuery,
  myDataExportResponse,
  oneClickUnsubscribeResponse,
  supportMessagesResponse,
} from "./communications.ts";
import {
  addendumRequest,
  cancelVisitRequest,
  completeVisitRequest,
  consoleVisitListResponse,
  consoleVisitResponse,
  dutyStatusResponse,
  queueResponse,
  saveVisitNotesRequest,
  setDutyRequest,
  visitDocumentParams,
  visitNotesResponse,
  visitStatusResponse,
  visitWorkspaceResponse,
} from "./console.ts";
import {
  attachmentParams,
  auditLogQuery,
  auditLogResponse,
  consultationDetailResponse,
  consultationIdParams,
  consultationListResponse,
  consultationResponse,
  createConsultationRequest,
  createMessageRequest,
  medicalDocumentIdParams,
  medicalDocumentListResponse,
  medicalDocumentResponse,
  messageIdParams,
  messageListQuery,
  messageListResponse,
  messageReceiptRequest,
  messageReceiptResponse,
  messageResponse,
  visitRecordsResponse,
} from "./consultation.ts";
import { noContentResponse } from "./envelope.ts";
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
  stripeWebhookResponse,
  subscriptionCheckoutRequest,
  subscriptionResponse,
  userIdRequest,
  visitCheckoutRequest,
  visitEntitlementResponse,
} from "./membership.ts";
import {
  providerDetailQuery,
  providerListQuery,
  providerListResponse,
  providerResponse,
  providerSlugParams,
  ratingResponse,
  submitRatingRequest,
} from "./provider.ts";
import { clinicianProfileResponse } from "./roles.ts";
import {
  confirmSecondFactorRequest,
  disableSecondFactorRequest,
  loginStepResponse,
  lostDeviceRequest,
  lostDeviceResetRequest,
  lostDeviceResponse,
  recoveryCodesResponse,
  secondFactorDisabledResponse,
  secondFactorLoginRequest,
  secondFactorSetupResponse,
  secondFactorStatusResponse,
} from "./second-factor.ts";
import { specializationListQuery, specializationListResponse } from "./specialization.ts";
import { callEventRequest, callEventResponse, callSetupResponse } from "./video-call.ts";
import { waitingRoomResponse } from "./waiting-room.ts";

/**
 * Every endpoint of both APIs in one table: which API serves it, its method and path, and the
 * schemas of its path parameters, query, body and successful answer. The API declares its routes
 * with these same schemas; the web's client is generated from this table (apps/web
 * `lib/api.server.ts`), and a test checks each row against the API's OpenAPI document, so the
 * table cannot drift from the routes it describes.
 *
 * Paths are relative to their API's base: the main API's to `/api/v1`, the care API's to its root.
 * `:name` is a path parameter (from `params`); `{product}` is the product slug (PRODUCT_SLUG), which
 * the client fills in itself.
 */

export type ApiName = "main" | "care";
export type RouteMethod = "GET" | "POST" | "PUT" | "DELETE";

export type RouteSpec = {
  api: ApiName;
  method: RouteMethod;
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body. */
  body?: z.ZodType;
  /**
   * What the call sends and gets when it is not JSON: `upload` sends raw bytes (the API decides
   * their type); `download` answers raw bytes (the file), handed over as the HTTP response.
   */
  raw?: "upload" | "download";
  /** The successful answer (any 2xx); absent only for a `download`. */
  response?: z.ZodType;
  /** Who calls it: `external` routes are called by someone else than the web (Stripe, mail clients). */
  caller?: "web" | "external";
  /** Registered only in some configurations (the Stripe webhook with PAYMENTS=stripe). */
  when?: "stripe";
};

const route = <const R extends RouteSpec>(spec: R): R => spec;

export const apiRoutes = {
  accounts: {
    register: route({
      api: "main",
      method: "POST",
      path: "/api/auth/register",
      body: mainRegisterRequest,
      response: registrationResponse,
    }),
    login: route({
      api: "main",
      method: "POST",
      path: "/api/auth/login",
      body: loginRequest,
      response: loginStepResponse,
    }),
    loginSecondFactor: route({
      api: "main",
      method: "POST",
      path: "/api/auth/login/second-factor",
      body: secondFactorLoginRequest,
      response: loginResponse,
    }),
    lostDevice: route({
      api: "main",
      method: "POST",
      path: "/api/auth/login/lost-device",
      body: lostDeviceRequest,
      response: lostDeviceResponse,
    }),
    secondFactorStatus: route({
      api: "main",
      method: "GET",
      path: "/api/auth/second-factor",
      response: secondFactorStatusResponse,
    }),
    secondFactorSetup: route({
      api: "main",
      method: "POST",
      path: "/api/auth/second-factor/setup",
      body: logoutRequest,
      response: secondFactorSetupResponse,
    }),
    secondFactorConfirm: route({
      api: "main",
      method: "POST",
      path: "/api/auth/second-factor/confirm",
      body: confirmSecondFactorRequest,
      response: recoveryCodesResponse,
    }),
    secondFactorDisable: route({
      api: "main",
      method: "POST",
      path: "/api/auth/second-factor/disable",
      body: disableSecondFactorRequest,
      response: secondFactorDisabledResponse,
    }),
    secondFactorRecoveryCodes: route({
      api: "main",
      method: "POST",
      path: "/api/auth/second-factor/recovery-codes",
      body: disableSecondFactorRequest,
      response: recoveryCodesResponse,
    }),
    secondFactorReset: route({
      api: "main",
      method: "POST",
      path: "/api/auth/second-factor/reset",
      body: lostDeviceResetRequest,
      response: secondFactorDisabledResponse,
    }),
    me: route({ api: "main", method: "GET", path: "/api/auth/me", response: userResponse }),
    logout: route({
      api: "main",
      method: "POST",
      path: "/api/auth/logout",
      body: logoutRequest,
      response: logoutResponse,
    }),
    forgotPassword: route({
      api: "main",
      method: "POST",
      path: "/api/auth/forgot-password",
      body: forgotPasswordRequest,
      response: resetMailResponse,
    }),
    careLogin: route({
      api: "care",
      method: "POST",
      path: "/auth/login",
      body: loginRequest,
      response: loginStepResponse,
    }),
    careLoginCompanion: route({
      api: "care",
      method: "POST",
      path: "/auth/login/companion",
      body: companionLoginRequest,
      response: loginResponse,
    }),
    careLoginSecondFactor: route({
      api: "care",
      method: "POST",
      path: "/auth/login/second-factor",
      body: secondFactorLoginRequest,
      response: loginResponse,
    }),
    careRegister: route({
      api: "care",
      method: "POST",
      path: "/auth/register-{product}",
      body: registerRequest,
      response: registrationResponse,
    }),
    confirmEmail: route({
      api: "care",
      method: "POST",
      path: "/auth/{product}/confirm-email",
      body: confirmEmailRequest,
      response: confirmEmailResponse,
    }),
    requestPasswordReset: route({
      api: "care",
      method: "POST",
      path: "/auth/{product}/reset-password/token",
      body: emailRequest,
      response: resetMailResponse,
    }),
    resetPassword: route({
      api: "care",
      method: "POST",
      path: "/auth/{product}/reset-password",
      body: resetPasswordRequest,
      response: passwordChangedResponse,
    }),
    changePassword: route({
      api: "care",
      method: "POST",
      path: "/auth/{product}/change-password",
      body: changePasswordRequest,
      response: passwordChangedResponse,
    }),
    getUserDetails: route({
      api: "care",
      method: "GET",
      path: "/{product}/get-user-details/:userId",
      params: userIdParams,
      response: userResponse,
    }),
    updateUser: route({
      api: "care",
      method: "POST",
      path: "/{product}/update-user",
      body: updateUserRequest,
      response: userResponse,
    }),
    completeProfile: route({
      api: "care",
      method: "POST",
      path: "/{product}/complete-profile",
      body: completeProfileRequest,
      response: userResponse,
    }),
  },
  directory: {
    listSpecializations: route({
      api: "main",
      method: "GET",
      path: "/api/specialization",
      query: specializationListQuery,
      response: specializationListResponse,
    }),
    searchProviders: route({
      api: "main",
      method: "GET",
      path: "/api/provider",
      query: providerListQuery,
      response: providerListResponse,
    }),
    getProvider: route({
      api: "main",
      method: "GET",
      path: "/api/provider/:slug",
      params: providerSlugParams,
      query: providerDetailQuery,
      response: providerResponse,
    }),
    submitRating: route({
      api: "care",
      method: "POST",
      path: "/{product}/submit-rating",
      body: submitRatingRequest,
      response: ratingResponse,
    }),
  },
  membership: {
    startSubscriptionCheckout: route({
      api: "care",
      method: "POST",
      path: "/{product}/subscription-checkout",
      body: subscriptionCheckoutRequest,
      response: checkoutUrlResponse,
    }),
    startVisitCheckout: route({
      api: "care",
      method: "POST",
      path: "/{product}/visit-checkout",
      body: visitCheckoutRequest,
      response: checkoutUrlResponse,
    }),
    getCheckout: route({
      api: "care",
      method: "GET",
      path: "/{product}/checkout/:checkoutId",
      params: checkoutIdParams,
      response: checkoutResponse,
    }),
    payCheckout: route({
      api: "care",
      method: "POST",
      path: "/{product}/checkout/:checkoutId/pay",
      params: checkoutIdParams,
      body: payCheckoutRequest,
      response: payCheckoutResponse,
    }),
    isSubscribed: route({
      api: "care",
      method: "GET",
      path: "/{product}/is-subscribed/:userId",
      params: userIdParams,
      response: isSubscribedResponse,
    }),
    visitEntitlement: route({
      api: "care",
      method: "GET",
      path: "/{product}/visit-entitlement/:userId",
      params: userIdParams,
      response: visitEntitlementResponse,
    }),
    getSubscription: route({
      api: "care",
      method: "GET",
      path: "/{product}/get-subscription/:userId",
      params: userIdParams,
      response: getSubscriptionResponse,
    }),
    cancelSubscription: route({
      api: "care",
      method: "POST",
      path: "/{product}/cancel-subscription",
      body: userIdRequest,
      response: subscriptionResponse,
    }),
    sendCancelFeedback: route({
      api: "care",
      method: "POST",
      path: "/{product}/cancel-subscription/feedback",
      body: cancelFeedbackRequest,
      response: subscriptionResponse,
    }),
    resumeSubscription: route({
      api: "care",
      method: "POST",
      path: "/{product}/resume-subscription",
      body: userIdRequest,
      response: subscriptionResponse,
    }),
    changeInterval: route({
      api: "care",
      method: "POST",
      path: "/{product}/change-interval",
      body: changeIntervalRequest,
      response: subscriptionResponse,
    }),
    listInvoices: route({
      api: "care",
      method: "GET",
      path: "/{product}/invoices",
      response: invoicesResponse,
    }),
    getInvoice: route({
      api: "care",
      method: "GET",
      path: "/{product}/invoices/:invoiceId",
      params: invoiceIdParams,
      response: invoiceResponse,
    }),
    stripeWebhook: route({
      api: "care",
      method: "POST",
      path: "/{product}/stripe/webhook",
      response: stripeWebhookResponse,
      caller: "external",
      when: "stripe",
    }),
  },
  consultations: {
    create: route({
      api: "care",
      method: "POST",
      path: "/{product}/create-consultation",
      body: createConsultationRequest,
      response: consultationResponse,
    }),
    list: route({
      api: "care",
      method: "GET",
      path: "/{product}/consultations",
      response: consultationListResponse,
    }),
    visitRecords: route({
      api: "care",
      method: "GET",
      path: "/{product}/medical-records/visits",
      response: visitRecordsResponse,
    }),
    get: route({
      api: "care",
      method: "GET",
      path: "/{product}/consultations/:id",
      params: consultationIdParams,
      response: consultationDetailResponse,
    }),
    waitingRoom: route({
      api: "care",
      method: "GET",
      path: "/{product}/consultations/:id/waiting-room",
      params: consultationIdParams,
      response: waitingRoomResponse,
    }),
    callSetup: route({
      api: "care",
      method: "GET",
      path: "/{product}/consultations/:id/call",
      params: consultationIdParams,
      response: callSetupResponse,
    }),
    callEvent: route({
      api: "care",
      method: "POST",
      path: "/{product}/consultations/:id/call/events",
      params: consultationIdParams,
      body: callEventRequest,
      response: callEventResponse,
    }),
    cancel: route({
      api: "care",
      method: "POST",
      path: "/{product}/consultations/:id/cancel",
      params: consultationIdParams,
      response: consultationResponse,
    }),
    messages: route({
      api: "care",
      method: "GET",
      path: "/{product}/consultations/:id/messages",
      params: consultationIdParams,
      query: messageListQuery,
      response: messageListResponse,
    }),
    writeMessage: route({
      api: "care",
      method: "POST",
      path: "/{product}/consultations/:id/messages",
      params: consultationIdParams,
      body: createMessageRequest,
      response: messageResponse,
    }),
    uploadAttachment: route({
      api: "care",
      method: "POST",
      path: "/{product}/consultations/:id/attachments",
      params: consultationIdParams,
      raw: "upload",
      response: medicalDocumentResponse,
    }),
    downloadAttachment: route({
      api: "care",
      method: "GET",
      path: "/{product}/consultations/:id/attachments/:documentId",
      params: attachmentParams,
      raw: "download",
    }),
    acknowledgeMessages: route({
      api: "care",
      method: "POST",
      path: "/{product}/consultations/:id/receipts",
      params: consultationIdParams,
      body: messageReceiptRequest,
      response: messageReceiptResponse,
    }),
    retractMessage: route({
      api: "care",
      method: "POST",
      path: "/{product}/consultations/:id/messages/:messageId/retract",
      params: messageIdParams,
      response: messageResponse,
    }),
    auditLog: route({
      api: "care",
      method: "GET",
      path: "/{product}/audit-log",
      query: auditLogQuery,
      response: auditLogResponse,
    }),
    uploadDocument: route({
      api: "care",
      method: "POST",
      path: "/{product}/medical-records/documents",
      raw: "upload",
      response: medicalDocumentResponse,
    }),
    listDocuments: route({
      api: "care",
      method: "GET",
      path: "/{product}/medical-records/documents",
      response: medicalDocumentListResponse,
    }),
    downloadDocument: route({
      api: "care",
      method: "GET",
      path: "/{product}/medical-records/documents/:id",
      params: medicalDocumentIdParams,
      raw: "download",
    }),
    deleteDocument: route({
      api: "care",
      method: "DELETE",
      path: "/{product}/medical-records/documents/:id",
      params: medicalDocumentIdParams,
      response: noContentResponse,
    }),
  },
  communications: {
    captchaChallenge: route({
      api: "main",
      method: "GET",
      path: "/api/captcha/challenge",
      response: captchaChallengeResponse,
    }),
    addToContacts: route({
      api: "main",
      method: "POST",
      path: "/api/sendgrid/add-to-contacts",
      body: addToContactsRequest,
      response: addToContactsResponse,
    }),
    oneClickUnsubscribe: route({
      api: "main",
      method: "POST",
      path: "/api/list-unsubscribe",
      query: listUnsubscribeQuery,
      response: oneClickUnsubscribeResponse,
      caller: "external",
    }),
    saveContactEntry: route({
      api: "care",
      method: "POST",
      path: "/{product}/save-contact-entry",
      body: contactEntryRequest,
      response: contactEntryResponse,
    }),
    supportMessages: route({
      api: "care",
      method: "GET",
      path: "/{product}/support-messages",
      response: supportMessagesResponse,
    }),
    confirmSubscription: route({
      api: "care",
      method: "POST",
      path: "/{product}/confirm-subscription",
      body: confirmSubscriptionRequest,
      response: listStatusResponse,
    }),
    unsubscribe: route({
      api: "care",
      method: "POST",
      path: "/{product}/unsubscribe",
      body: listChangeRequest,
      response: listStatusResponse,
    }),
    resubscribe: route({
      api: "care",
      method: "POST",
      path: "/{product}/resubscribe",
      body: listChangeRequest,
      response: listStatusResponse,
    }),
  },
  careTeam: {
    me: route({ api: "main", method: "GET", path: "/api/care-team/me", response: clinicianProfileResponse }),
    queue: route({ api: "main", method: "GET", path: "/api/care-team/queue", response: queueResponse }),
    visits: route({
      api: "main",
      method: "GET",
      path: "/api/care-team/visits",
      response: consoleVisitListResponse,
    }),
    workspace: route({
      api: "main",
      method: "GET",
      path: "/api/care-team/visits/:id",
      params: consultationIdParams,
      response: visitWorkspaceResponse,
    }),
    downloadDocument: route({
      api: "main",
      method: "GET",
      path: "/api/care-team/visits/:id/documents/:documentId",
      params: visitDocumentParams,
      raw: "download",
    }),
    accept: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/accept",
      params: consultationIdParams,
      response: consoleVisitResponse,
    }),
    start: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/start",
      params: consultationIdParams,
      response: consoleVisitResponse,
    }),
    cancel: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/cancel",
      params: consultationIdParams,
      body: cancelVisitRequest,
      response: visitStatusResponse,
    }),
    complete: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/complete",
      params: consultationIdParams,
      body: completeVisitRequest,
      response: consoleVisitResponse,
    }),
    saveNotes: route({
      api: "main",
      method: "PUT",
      path: "/api/care-team/visits/:id/notes",
      params: consultationIdParams,
      body: saveVisitNotesRequest,
      response: visitNotesResponse,
    }),
    addAddendum: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/addenda",
      params: consultationIdParams,
      body: addendumRequest,
      response: visitNotesResponse,
    }),
    callSetup: route({
      api: "main",
      method: "GET",
      path: "/api/care-team/visits/:id/call",
      params: consultationIdParams,
      response: callSetupResponse,
    }),
    callEvent: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/call/events",
      params: consultationIdParams,
      body: callEventRequest,
      response: callEventResponse,
    }),
    startCall: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/call/start",
      params: consultationIdParams,
      response: consoleVisitResponse,
    }),
    duty: route({ api: "main", method: "GET", path: "/api/care-team/duty", response: dutyStatusResponse }),
    setDuty: route({
      api: "main",
      method: "PUT",
      path: "/api/care-team/duty",
      body: setDutyRequest,
      response: dutyStatusResponse,
    }),
  },
  /** The clinician's side of a visit's chat (the care console): the patient's calls, on the main API. */
  consoleChat: {
    messages: route({
      api: "main",
      method: "GET",
      path: "/api/care-team/visits/:id/messages",
      params: consultationIdParams,
      query: messageListQuery,
      response: messageListResponse,
    }),
    writeMessage: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/messages",
      params: consultationIdParams,
      body: createMessageRequest,
      response: messageResponse,
    }),
    uploadAttachment: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/attachments",
      params: consultationIdParams,
      raw: "upload",
      response: medicalDocumentResponse,
    }),
    downloadAttachment: route({
      api: "main",
      method: "GET",
      path: "/api/care-team/visits/:id/attachments/:documentId",
      params: attachmentParams,
      raw: "download",
    }),
    acknowledgeMessages: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/receipts",
      params: consultationIdParams,
      body: messageReceiptRequest,
      response: messageReceiptResponse,
    }),
    retractMessage: route({
      api: "main",
      method: "POST",
      path: "/api/care-team/visits/:id/messages/:messageId/retract",
      params: messageIdParams,
      response: messageResponse,
    }),
  },
  myData: {
    export: route({
      api: "care",
      method: "GET",
      path: "/{product}/my-data/export",
      response: myDataExportResponse,
    }),
    getConsents: route({
      api: "care",
      method: "GET",
      path: "/{product}/my-data/consents",
      response: consentsResponse,
    }),
    setConsents: route({
      api: "care",
      method: "POST",
      path: "/{product}/my-data/consents",
      body: consentsRequest,
      response: consentsResponse,
    }),
    delete: route({
      api: "care",
      method: "POST",
      path: "/{product}/my-data/delete",
      body: deleteMyDataRequest,
      response: accountDeletedResponse,
    }),
  },
} as const satisfies Record<string, Record<string, RouteSpec>>;

export type ApiRoutes = typeof apiRoutes;

/** Each row of the table with its feature and name, e.g. for checks over the whole table. */
export function listApiRoutes(): Array<RouteSpec & { feature: string; name: string }> {
  return Object.entries(apiRoutes).flatMap(([feature, routes]) =>
    Object.entries(routes).map(([name, spec]: [string, RouteSpec]) => ({ ...spec, feature, name })),
  );
}

/**
 * The route's path with the product slug and its parameters filled in (each percent-encoded):
 * `fillPath("/{product}/checkout/:checkoutId", "ambercare", { checkoutId })`.
 */
export function fillPath(path: string, productSlug: string, params: Record<string, unknown> = {}): string {
  return path.replaceAll("{product}", productSlug).replaceAll(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null)
      throw new Error(`Missing path parameter "${name}" for ${path}`);
    const segment = encodeURIComponent(String(value));
    // Encoding keeps "/" out, but a URL parser still resolves a whole "." or ".." segment.
    if (segment === "." || segment === "..") throw new Error(`Path parameter "${name}" is a dot segment`);
    return segment;
  });
}
