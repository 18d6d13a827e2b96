import { TOO_MANY_LOGIN_ATTEMPTS } from "@ambercare/contracts/auth";
import { type ErrorCode, type ErrorDetails, isErrorCode } from "@ambercare/contracts/error-codes";
import { ownFieldMessage } from "#app/lib/field-messages.ts";
import type { FormMessage, IssueKind } from "#app/lib/forms.ts";
import type { TranslationKey } from "#app/lib/i18n.tsx";

/**
 * What the web tells a visitor when an API refuses a call, by the answer's stable `code` (the
 * catalogue is packages/contracts/src/error-codes.ts), never by its English `error` text: a
 * Bulgarian visitor reads Bulgarian, whatever the API wrote. One table for every form; a form only
 * says how its fields are named and what to say when nothing more precise is known.
 */

/** The fields a code's message may belong to, by their role; a form names its own input for each. */
export type ErrorField =
  | "email"
  | "password"
  | "current_password"
  | "date_of_birth"
  | "captcha"
  | "code"
  | "card_number"
  | "expiry"
  | "cvc"
  | "name";

export type ErrorRule = {
  /** The message; for a rule with `kind`, the form field's own message of that kind wins. */
  key: TranslationKey;
  /** Show it beside this field rather than above the form. */
  field?: ErrorField;
  /** The field's own message of this kind (forms.ts), so "new password" forms say "new password". */
  kind?: IssueKind;
  /** Nothing the visitor can act on more precisely: the form's own fallback, when it has one, wins. */
  generic?: true;
  /** Our side is down or misconfigured: answered as 503 "try again in a few minutes". */
  outage?: true;
  /** The message counts the minutes to wait (from Retry-After). */
  wait?: true;
  /**
   * The message counts a figure of the answer's `details` (`detail`, as the API is configured), in
   * the plural form of its language; `otherwise` says it without the figure (an answer without it).
   */
  counts?: { detail: string; otherwise: TranslationKey };
};

const REJECTED = { key: "apiErrors.rejected", generic: true } as const satisfies ErrorRule;
const NOT_FOUND = { key: "apiErrors.notFound", generic: true } as const satisfies ErrorRule;
const NOT_YOURS = { key: "apiErrors.notYours", generic: true } as const satisfies ErrorRule;
const UNAVAILABLE = { key: "auth.errors.serviceUnavailable", outage: true } as const satisfies ErrorRule;
const THROTTLED = { key: "auth.errors.throttled", wait: true } as const satisfies ErrorRule;

/** Every code of the catalogue: tsc refuses a code without its message. */
export const API_ERROR_MESSAGES: Readonly<Record<ErrorCode, ErrorRule>> = {
  BAD_REQUEST: REJECTED,
  VALIDATION_FAILED: REJECTED,
  INVALID_JSON: REJECTED,
  EMPTY_BODY: REJECTED,
  UNSUPPORTED_MEDIA_TYPE: REJECTED,
  PAYLOAD_TOO_LARGE: REJECTED,
  NOT_FOUND,
  RATE_LIMITED: THROTTLED,
  INTERNAL_ERROR: UNAVAILABLE,
  DATABASE_UNAVAILABLE: UNAVAILABLE,

  INVALID_ACCESS_TOKEN: { key: "apiErrors.sessionEnded" },
  INVALID_CREDENTIALS: { key: "auth.errors.wrongCredentials" },
  TOO_MANY_LOGIN_ATTEMPTS: THROTTLED,
  EMAIL_NOT_CONFIRMED: { key: "auth.errors.emailNotConfirmed" },
  SIGN_UP_LINK_INVALID: { key: "auth.confirmSignUp.invalidLink" },
  RESET_LINK_INVALID: { key: "auth.resetPassword.invalidLink" },
  OWN_ACCOUNT_ONLY: NOT_YOURS,
  SERVICE_TOKEN_REQUIRED: UNAVAILABLE,
  WRONG_CURRENT_PASSWORD: {
    key: "forms.errors.currentPassword.incorrect",
    field: "current_password",
    kind: "incorrect",
  },
  PASSWORD_TOO_COMMON: { key: "forms.errors.password.common", field: "password", kind: "common" },
  PASSWORD_IS_EMAIL: { key: "forms.errors.password.isEmail", field: "password", kind: "isEmail" },
  PASSWORD_HAS_PRODUCT_NAME: {
    key: "forms.errors.password.hasProductName",
    field: "password",
    kind: "hasProductName",
  },
  DATE_OF_BIRTH_IN_FUTURE: { key: "forms.errors.dateOfBirth.future", field: "date_of_birth", kind: "future" },
  SECOND_FACTOR_CODE_INVALID: { key: "secondFactor.errors.codeInvalid", field: "code", kind: "incorrect" },
  PENDING_LOGIN_INVALID: { key: "secondFactor.errors.pendingExpired" },
  // Never shown in practice: a refused trade falls back to the password login (accounts.server.ts).
  COMPANION_LOGIN_REFUSED: { key: "secondFactor.errors.pendingExpired" },
  SECOND_FACTOR_ALREADY_ENABLED: { key: "secondFactor.errors.alreadyOn" },
  SECOND_FACTOR_NOT_SET_UP: { key: "secondFactor.errors.notSetUp" },
  SECOND_FACTOR_RESET_LINK_INVALID: { key: "secondFactor.errors.resetLinkInvalid" },
  CLINICIAN_ONLY: NOT_YOURS,
  PATIENT_ONLY: NOT_YOURS,
  OPERATOR_ONLY: NOT_YOURS,
  CLINICIAN_NOT_FOUND: { key: "operations.errors.clinicianNotFound" },
  CLINICIAN_EMAIL_TAKEN: { key: "operations.errors.emailTaken", field: "email" },
  PROVIDER_ALREADY_LINKED: { key: "operations.errors.providerLinked" },
  PAYMENT_NOT_FOUND: { key: "operations.errors.paymentNotFound" },
  REFUND_ABOVE_PAID: { key: "operations.errors.refundAbovePaid" },
  PROVIDER_SLUG_TAKEN: { key: "operations.directory.errors.slugTaken" },
  CATALOGUE_ITEM_UNKNOWN: { key: "operations.directory.errors.catalogueUnknown" },
  PHOTO_NOT_AN_IMAGE: { key: "operations.directory.errors.photoNotImage" },
  SECOND_FACTOR_SETUP_REQUIRED: { key: "console.secondFactorRequired" },

  CAPTCHA_MISSING: { key: "captcha.errors.missing", field: "captcha" },
  CAPTCHA_INVALID: { key: "captcha.errors.invalid", field: "captcha" },
  CAPTCHA_USED: { key: "captcha.errors.expired", field: "captcha" },
  CAPTCHA_EXPIRED: { key: "captcha.errors.expired", field: "captcha" },
  CONTACT_RATE_LIMITED: { key: "contact.errors.rateLimited" },
  SUBSCRIBE_RATE_LIMITED: { key: "lists.errors.rateLimited" },
  LIST_LINK_INVALID: { key: "lists.errors.linkInvalid" },
  CONFIRMATION_LINK_INVALID: { key: "lists.errors.confirmationInvalid" },
  MEMBERSHIP_STILL_ACTIVE: { key: "dataRights.errors.membershipStillActive" },

  CARD_DECLINED: { key: "billing.errors.cardDeclined" },
  INSUFFICIENT_FUNDS: { key: "billing.errors.insufficientFunds" },
  CARD_NUMBER_INVALID: { key: "billing.checkout.errors.cardNumber.invalid", field: "card_number" },
  CARD_EXPIRY_INVALID: { key: "billing.checkout.errors.expiry.invalid", field: "expiry" },
  CARD_EXPIRED: { key: "billing.checkout.errors.expiry.expired", field: "expiry" },
  CVC_INVALID: { key: "billing.checkout.errors.cvc.invalid", field: "cvc" },
  CARD_NAME_REQUIRED: { key: "billing.checkout.errors.name.required", field: "name" },
  CHECKOUT_NOT_FOUND: NOT_FOUND,
  CHECKOUT_EXPIRED: { key: "billing.errors.checkoutExpired" },
  DEMO_PAYMENTS_ONLY: { key: "billing.errors.demoPaymentsOnly" },
  ALREADY_SUBSCRIBED: { key: "billing.errors.alreadySubscribed" },
  NO_SUBSCRIPTION: { key: "billing.errors.noSubscription" },
  CANNOT_RESUME: { key: "billing.errors.cannotResume" },
  CANNOT_CHANGE_INTERVAL: { key: "billing.errors.cannotChangeInterval" },
  SUBSCRIPTION_NOT_FOUND: NOT_FOUND,
  SUBSCRIPTION_UNKNOWN_YET: REJECTED,
  INVOICE_NOT_FOUND: NOT_FOUND,
  RETURN_URL_INVALID: REJECTED,
  PAYMENT_PROVIDER_UNAVAILABLE: { key: "billing.errors.serviceUnavailable", outage: true },
  WEBHOOK_SIGNATURE_INVALID: REJECTED,
  WEBHOOK_EVENT_INVALID: REJECTED,

  CONSULTATION_PAYMENT_REQUIRED: { key: "consultation.form.paymentRequired" },
  NO_PROVIDER_IN_STATE: { key: "consultation.form.errors.noProviderInState" },
  PROVIDER_NOT_FOUND: { key: "consultation.form.errors.providerNotFound" },
  PROVIDER_NOT_LICENSED_IN_STATE: { key: "consultation.form.errors.providerNotLicensed" },
  PROVIDER_DOES_NOT_OFFER_VISIT_TYPE: { key: "consultation.form.errors.providerType" },
  CONSULTATION_NOT_FOUND: NOT_FOUND,
  CONSULTATION_NOT_YOURS: NOT_YOURS,
  CONSULTATION_NOT_CANCELABLE: { key: "apiErrors.consultationNotCancelable" },
  CONSULTATION_TRANSITION_REFUSED: { key: "apiErrors.consultationTransitionRefused" },
  CONSULTATION_ALREADY_TAKEN: { key: "apiErrors.consultationAlreadyTaken" },
  CONSULTATION_NOT_IN_QUEUE: { key: "apiErrors.consultationNotInQueue" },
  CONSULTATION_OTHER_CLINICIAN: { key: "apiErrors.consultationOtherClinician" },
  CANCEL_REASON_REQUIRED: { key: "apiErrors.cancelReasonRequired" },
  CONSULTATION_CANCELED: { key: "apiErrors.consultationCanceled" },
  CONSULTATION_NOT_COMPLETED: { key: "apiErrors.consultationNotCompleted" },
  CONSULTATION_ALREADY_RATED: { key: "consultation.past.alreadyRated" },
  DATE_IN_FUTURE: { key: "consultation.form.errors.future" },
  DOCUMENT_NOT_FOUND: NOT_FOUND,
  DOCUMENT_NOT_YOURS: NOT_YOURS,
  DOCUMENT_TYPE_UNSUPPORTED: { key: "records.errors.type" },
  DOCUMENT_TOO_LARGE: { key: "records.errors.tooLarge" },
  DOCUMENT_EMPTY: { key: "records.errors.noFile" },
  DOCUMENT_NAME_MISSING: { key: "records.errors.failed" },
  VISIT_THREAD_NOT_OPEN: { key: "apiErrors.visitThreadNotOpen" },
  VISIT_THREAD_CLOSED: { key: "apiErrors.visitThreadClosed" },
  VISIT_THREAD_READ_ONLY: { key: "apiErrors.visitThreadReadOnly" },
  MESSAGE_NOT_FOUND: NOT_FOUND,
  MESSAGE_NOT_YOURS: { key: "apiErrors.messageNotYours" },
  ATTACHMENT_NOT_FOUND: { key: "apiErrors.attachmentNotFound" },
  CLIENT_ID_REUSED: { key: "apiErrors.clientIdReused" },
  NOTES_STALE: { key: "console.notes.stale" },
  NOTES_SIGNED: { key: "console.notes.signedAlready" },
  NOTES_NOT_SIGNED: { key: "console.notes.notSigned" },
  VISIT_NOT_VIDEO: { key: "apiErrors.visitNotVideo" },
  CALL_NOT_OPEN: { key: "apiErrors.callNotOpen" },
  SLOT_TAKEN: { key: "apiErrors.slotTaken" },
  SLOT_HELD: { key: "apiErrors.slotHeld" },
  HOLD_EXPIRED: { key: "apiErrors.holdExpired" },
  HOLD_NOT_FOUND: { key: "apiErrors.holdNotFound" },
  OUTSIDE_HOURS: { key: "apiErrors.outsideHours" },
  TOO_LATE_TO_CANCEL: { key: "apiErrors.tooLateToCancel" },
  NOT_TAKING_VISITS: { key: "apiErrors.notTakingVisits" },
  CHECK_IN_NOT_OPEN: {
    key: "apiErrors.checkInNotOpen",
    counts: { detail: "minutes", otherwise: "apiErrors.checkInNotOpenWindow" },
  },
  NOT_MISSED_YET: {
    key: "apiErrors.notMissedYet",
    counts: { detail: "minutes", otherwise: "apiErrors.notMissedYetGrace" },
  },
  SCHEDULE_INVALID: { key: "apiErrors.scheduleInvalid" },
  DEVICE_NOT_FOUND: NOT_FOUND,
  PUSH_SUBSCRIPTION_INVALID: REJECTED,
  PHONE_NUMBER_INVALID: { key: "notifications.texts.errors.phoneInvalid" },
  PHONE_NUMBER_MISSING: { key: "notifications.texts.errors.phoneMissing" },
  TEXT_CODE_INVALID: { key: "notifications.texts.errors.codeInvalid" },
  TEXT_CODE_EXPIRED: { key: "notifications.texts.errors.codeExpired" },
  TEXT_CODE_TOO_SOON: { key: "notifications.texts.errors.tooSoon" },
  PHONE_NOT_CONFIRMED: { key: "notifications.texts.errors.notConfirmed" },
  CONSENT_WORDING_CHANGED: { key: "notifications.texts.errors.wordingChanged" },
  TEXT_MESSAGES_OFF: { key: "notifications.texts.errors.off" },
};

/** What a refused call carries that the table reads (ApiError of api-client.server.ts). */
export type RefusedCall = {
  status: number;
  code?: ErrorCode | undefined;
  headers: Headers;
  message: string;
  /** The figures the answer's message needs (the API's `details`). */
  details?: ErrorDetails | undefined;
};

export type ApiErrorOptions = {
  /** The form's input for a field role, when it is named otherwise (`password` → `new_password`). */
  fields?: Partial<Record<ErrorField, string>>;
  /** What to say for a generic or unknown code; default "something went wrong". */
  fallback?: FormMessage;
  /** What to say when the service is down; default "the service is not available". */
  unavailable?: TranslationKey;
};

/** A refused call as a form shows it: a translated message, beside a field or about the whole form. */
export type ApiFailure = { message: FormMessage; status: number; field?: string };

/** Minutes to wait from a 429: its Retry-After (seconds or an HTTP date), else its text; at least 1. */
export function retryAfterMinutes(error: RefusedCall, now: number = Date.now()): number {
  const header = error.headers.get("Retry-After");
  let seconds: number | undefined;
  if (header) {
    const asNumber = Number(header);
    if (Number.isFinite(asNumber)) seconds = asNumber;
    else {
      const at = Date.parse(header);
      if (!Number.isNaN(at)) seconds = (at - now) / 1000;
    }
  }
  if (seconds === undefined) {
    const fromText = TOO_MANY_LOGIN_ATTEMPTS.exec(error.message)?.[1];
    seconds = fromText ? Number(fromText) * 60 : 60;
  }
  return Math.max(1, Math.ceil(seconds / 60));
}

/** The rule of a refused call's code, or undefined when it carries none the web knows. */
export function apiErrorRule(error: Pick<RefusedCall, "code">): ErrorRule | undefined {
  return isErrorCode(error.code) ? API_ERROR_MESSAGES[error.code] : undefined;
}

/**
 * Maps a refused call to a translated message. No answer or a 5xx → "service unavailable" (503);
 * a 429 without a code of its own → "too many attempts, try again in N minutes"; a known code → its
 * message (beside its field when it has one); anything else → the form's fallback. Never the API's
 * English text.
 */
export function describeApiError(error: RefusedCall, options: ApiErrorOptions = {}): ApiFailure {
  const unavailable: ApiFailure = {
    message: { key: options.unavailable ?? "auth.errors.serviceUnavailable" },
    status: 503,
  };
  if (error.status === 0 || error.status >= 500) return unavailable;
  const rule: ErrorRule | undefined = apiErrorRule(error) ?? (error.status === 429 ? THROTTLED : undefined);
  const fallback = options.fallback ?? { key: "auth.errors.unexpected" };
  if (!rule || (rule.generic && options.fallback)) return { message: fallback, status: error.status };
  // A dedicated outage message (billing's own) beats the form's default one.
  if (rule.outage) return rule === UNAVAILABLE ? unavailable : { message: { key: rule.key }, status: 503 };
  if (rule.wait) {
    return { message: { key: rule.key, values: { count: retryAfterMinutes(error) } }, status: error.status };
  }
  if (rule.counts) {
    const figure = error.details?.[rule.counts.detail];
    return typeof figure === "number"
      ? { message: { key: rule.key, values: { count: figure } }, status: error.status }
      : { message: { key: rule.counts.otherwise }, status: error.status };
  }
  const field = rule.field ? (options.fields?.[rule.field] ?? rule.field) : undefined;
  const own = rule.kind && field ? ownFieldMessage(field, rule.kind) : undefined;
  return { message: { key: own ?? rule.key }, status: error.status, ...(field ? { field } : {}) };
}
