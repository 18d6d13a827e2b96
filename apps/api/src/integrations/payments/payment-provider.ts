import type { ErrorCode } from "@ambercare/contracts/error-codes";
import type { SubscriptionStatus } from "@ambercare/contracts/membership-constants";
import type { PlanKey } from "@ambercare/contracts/plans";

/**
 * What the membership module asks of a payment processor (PAYMENTS=demo or stripe). Each adapter
 * implements all of it; the membership services never ask which one they hold.
 */
export interface PaymentProvider {
  /** Recorded on checkouts and memberships, so a membership stays with the processor it began with. */
  readonly name: "demo" | "stripe";
  /**
   * Whether Ambercare's own checkout page takes the card (and Ambercare charges the saved card at
   * each renewal); otherwise the processor's hosted page takes it and the processor renews.
   */
  readonly takesCardDetails: boolean;
  /** Where the patient goes to pay a new checkout; `sessionId` is the processor's id for it, if any. */
  startCheckout(input: CheckoutSessionInput): Promise<{ url: string; sessionId: string | null }>;
  /** Checks the card typed on Ambercare's checkout page and, when accepted, gives its saved form. */
  checkCard(input: CardInput, now: Date): CardCheck;
  /** Charges a saved card. Idempotency is the caller's: one payment row per idempotency key. */
  charge(token: string, amountCents: number): Promise<ChargeResult>;
  /** Cancel at the period's end (true) or resume (false) a membership the processor renews. */
  setCancelAtPeriodEnd(providerSubscriptionId: string, cancel: boolean): Promise<void>;
  /** Ends a membership the processor renews at once (a past-due membership the patient cancels). */
  cancelNow(providerSubscriptionId: string): Promise<void>;
  /** Bills the next plan from the next renewal on, with no proration. */
  changePlanAtRenewal(change: PlanChange): Promise<void>;
  /**
   * Gives a one-time payment back to the card it came from. The same idempotency key gives the
   * same refund, so a retry after a failure or a crash never refunds twice.
   */
  refund(input: RefundInput): Promise<{ providerRefundId: string }>;
}

export type RefundInput = {
  /** The processor's payment (the demo's charge id, or a Stripe PaymentIntent), when known. */
  providerPaymentId: string | null;
  /** The processor's checkout session that took the payment (Stripe), when the payment is not known. */
  checkoutSessionId: string | null;
  amountCents: number;
  idempotencyKey: string;
};

export type CheckoutSessionInput = {
  checkoutId: string;
  plan: PlanKey;
  mode: "subscription" | "payment";
  trialDays: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
};

export type PlanChange = {
  providerSubscriptionId: string;
  currentPlan: PlanKey;
  nextPlan: PlanKey;
  periodStart: Date;
  periodEnd: Date;
};

export type CardInput = {
  card_number: string;
  exp_month: string | number;
  exp_year: string | number;
  cvc: string;
  name: string;
};

export type SavedCard = { token: string; brand: string; last4: string };

export type CardCheck =
  | { ok: true; card: SavedCard }
  | { ok: false; status: 400 | 402 | 409; code: ErrorCode; message: string };

export type ChargeResult =
  | { ok: true; providerPaymentId: string }
  | { ok: false; reason: "card_declined" | "insufficient_funds" };

/**
 * A processor's webhook event, read into what the membership module applies. `id` and `type` are
 * the processor's own (the id makes a replay change nothing).
 */
export type PaymentEvent = { id: string; type: string; change: PaymentChange };

export type PaymentChange =
  | {
      kind: "checkout_completed";
      checkoutId: string | undefined;
      providerSubscriptionId: string | undefined;
      providerCustomerId: string | undefined;
      amountCents: number | undefined;
    }
  | {
      kind: "invoice";
      paid: boolean;
      providerInvoiceId: string;
      providerSubscriptionId: string | undefined;
      amountCents: number;
      periodStart: Date | undefined;
      periodEnd: Date | undefined;
      issuedAt: Date | undefined;
      nextAttemptAt: Date | undefined;
    }
  | {
      kind: "subscription_changed";
      providerSubscriptionId: string | undefined;
      /** The status the processor reports, on Ambercare's table; undefined for one with no match. */
      status: SubscriptionStatus | undefined;
      cancelAtPeriodEnd: boolean;
      periodStart: Date | undefined;
      periodEnd: Date | undefined;
      canceledAt: Date | undefined;
      trialEndsAt: Date | undefined;
      endedAt: Date | undefined;
      /** The plan of the subscription's price, when the price is one of Ambercare's. */
      plan: PlanKey | undefined;
    }
  | { kind: "other" };

/** A webhook delivery that is not a genuine, readable event; the message is safe to answer with. */
export class WebhookRejectedError extends Error {
  override name = "WebhookRejectedError";
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}
