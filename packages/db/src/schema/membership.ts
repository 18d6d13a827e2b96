// Membership and billing (docs/decisions/015-membership-and-billing.md).
import type {
  BillingInterval,
  CheckoutKind,
  InvoiceStatus,
  MembershipPlanKey,
  SubscriptionStatus,
} from "@ambercare/contracts/membership-constants";
import type { PlanKey } from "@ambercare/contracts/plans";
import type { ConsultationType } from "@ambercare/contracts/provider-limits";
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";
import { timestamptz } from "./columns.ts";
import { consultations } from "./consultations.ts";
import { visitTypeLiterals } from "./visit-types.ts";

/**
 * A patient's membership. At most one is not ended per patient (partial unique index); ended ones
 * stay for the history and the invoices. Status changes only through the transition table in
 * apps/api/src/modules/membership/subscription-states.ts, each one written to subscription_history. The saved
 * card is its brand, last 4 digits and the payment provider's token, never the number.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    plan: text("plan").$type<MembershipPlanKey>().notNull(),
    interval: text("interval").$type<BillingInterval>().notNull(),
    /** An interval change that takes effect at the next renewal. */
    pendingInterval: text("pending_interval").$type<BillingInterval>(),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    trialEndsAt: timestamptz("trial_ends_at"),
    currentPeriodStart: timestamptz("current_period_start").notNull(),
    currentPeriodEnd: timestamptz("current_period_end").notNull(),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    canceledAt: timestamptz("canceled_at"),
    endedAt: timestamptz("ended_at"),
    /** When a past-due renewal is charged again; failedAttempts counts the failures of this period. */
    retryAt: timestamptz("retry_at"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    provider: text("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id").unique(),
    providerCustomerId: text("provider_customer_id"),
    paymentToken: text("payment_token"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    createdAt: timestamptz("created_at").notNull(),
    updatedAt: timestamptz("updated_at").notNull(),
  },
  (table) => [
    check(
      "subscriptions_status_known",
      sql`${table.status} in ('trialing', 'active', 'canceled', 'past_due', 'ended')`,
    ),
    check("subscriptions_interval_known", sql`${table.interval} in ('month', 'year')`),
    check(
      "subscriptions_pending_interval_known",
      sql`${table.pendingInterval} is null or ${table.pendingInterval} in ('month', 'year')`,
    ),
    check("subscriptions_plan_known", sql`${table.plan} in ('subscription_monthly', 'subscription_yearly')`),
    check("subscriptions_provider_known", sql`${table.provider} in ('demo', 'stripe')`),
    check("subscriptions_period_order", sql`${table.currentPeriodEnd} > ${table.currentPeriodStart}`),
    uniqueIndex("subscriptions_one_live_per_user").on(table.userId).where(sql`${table.status} <> 'ended'`),
    index("subscriptions_user_id_idx").on(table.userId),
    index("subscriptions_period_end_idx").on(table.currentPeriodEnd),
  ],
);

/** Every status change of a membership: from (null when it was created), to, why, when. */
export const subscriptionHistory = pgTable(
  "subscription_history",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    fromStatus: text("from_status").$type<SubscriptionStatus>(),
    toStatus: text("to_status").$type<SubscriptionStatus>().notNull(),
    reason: text("reason").notNull(),
    at: timestamptz("at").notNull(),
  },
  (table) => [index("subscription_history_subscription_id_idx").on(table.subscriptionId)],
);

/** Why a patient canceled (the cancel-subscription feedback form). */
export const cancelFeedback = pgTable(
  "cancel_feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    comment: text("comment"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (table) => [
    check("cancel_feedback_comment_length", sql`char_length(${table.comment}) <= 1000`),
    index("cancel_feedback_subscription_id_idx").on(table.subscriptionId),
  ],
);

/**
 * A started purchase of a membership or a one-time visit. Paying it (demo page or Stripe webhook)
 * happens once: the row is locked while it is paid and `paid_at` is set in the same transaction.
 */
export const checkouts = pgTable(
  "checkouts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<CheckoutKind>().notNull(),
    plan: text("plan").$type<PlanKey>().notNull(),
    amountCents: integer("amount_cents").notNull(),
    trialDays: integer("trial_days").notNull(),
    returnPath: text("return_path").notNull(),
    provider: text("provider").notNull(),
    providerSessionId: text("provider_session_id").unique(),
    createdAt: timestamptz("created_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    paidAt: timestamptz("paid_at"),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
  },
  (table) => [
    check("checkouts_kind_known", sql`${table.kind} in ('subscription', 'visit')`),
    check("checkouts_amount_positive", sql`${table.amountCents} > 0`),
    index("checkouts_user_id_idx").on(table.userId),
  ],
);

/**
 * What a patient owes or paid: one per paid checkout and one per membership period. The idempotency
 * key (`checkout:<id>`, `renewal:<subscription>:<period start>`) makes a second charge of the same
 * thing impossible. `seq` gives the human-readable number.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: integer("seq").notNull().generatedAlwaysAsIdentity(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: uuid("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    checkoutId: uuid("checkout_id").references(() => checkouts.id, { onDelete: "set null" }),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    providerInvoiceId: text("provider_invoice_id").unique(),
    plan: text("plan").$type<PlanKey>().notNull(),
    description: text("description").notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status").$type<InvoiceStatus>().notNull(),
    periodStart: timestamptz("period_start"),
    periodEnd: timestamptz("period_end"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    issuedAt: timestamptz("issued_at").notNull(),
    paidAt: timestamptz("paid_at"),
    /** A paid one-time visit given back (the visit expired or a clinician canceled it). */
    refundedAt: timestamptz("refunded_at"),
    refundedAmountCents: integer("refunded_amount_cents"),
    providerRefundId: text("provider_refund_id"),
    /** Why an operator gave the money back (their words); null for the automatic refunds. */
    refundReason: text("refund_reason"),
  },
  (table) => [
    check(
      "invoices_refund_complete",
      sql`(${table.refundedAt} is null) = (${table.refundedAmountCents} is null)`,
    ),
    check("invoices_status_known", sql`${table.status} in ('paid', 'open', 'void', 'failed')`),
    check("invoices_amount_not_negative", sql`${table.amountCents} >= 0`),
    check("invoices_paid_at_set", sql`(${table.status} = 'paid') = (${table.paidAt} is not null)`),
    index("invoices_user_id_issued_at_idx").on(table.userId, table.issuedAt),
  ],
);

/**
 * Each refund an operator made of a paid invoice (ADR 065): several partial refunds of one payment,
 * their sum never above what was paid (checked under the invoice's row lock). `idempotency_key` is
 * the refund form's submit: a double submit finds its refund here. The invoice's `refunded_at` and
 * `refunded_amount_cents` are the last refund's time and the sum of them all.
 */
export const invoiceRefunds = pgTable(
  "invoice_refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull(),
    amountCents: integer("amount_cents").notNull(),
    providerRefundId: text("provider_refund_id").notNull(),
    reason: text("reason").notNull(),
    createdAt: timestamptz("created_at").notNull(),
  },
  (table) => [
    uniqueIndex("invoice_refunds_invoice_key_idx").on(table.invoiceId, table.idempotencyKey),
    check("invoice_refunds_amount_positive", sql`${table.amountCents} > 0`),
  ],
);

/** Each attempt to charge an invoice, successful or not; the key makes a retried attempt a no-op. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    outcome: text("outcome").notNull(),
    failureReason: text("failure_reason"),
    providerPaymentId: text("provider_payment_id"),
    createdAt: timestamptz("created_at").notNull(),
  },
  (table) => [
    check("payments_outcome_known", sql`${table.outcome} in ('succeeded', 'failed')`),
    index("payments_invoice_id_idx").on(table.invoiceId),
  ],
);

/** One consultation bought with a one-time visit; consumed once (consumed_at set). */
export const visitCredits = pgTable(
  "visit_credits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<ConsultationType>().notNull(),
    checkoutId: uuid("checkout_id")
      .notNull()
      .unique()
      .references(() => checkouts.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull(),
    consumedAt: timestamptz("consumed_at"),
    /** The consultation that spent it: a refund of that consultation finds its payment here. */
    consultationId: uuid("consultation_id").references(() => consultations.id, { onDelete: "set null" }),
  },
  (table) => [
    check("visit_credits_type_known", sql`${table.type} in (${visitTypeLiterals()})`),
    index("visit_credits_user_id_idx").on(table.userId),
    uniqueIndex("visit_credits_consultation_id").on(table.consultationId),
  ],
);

/** Payment-provider webhook events already applied: a replayed event id changes nothing. */
export const processedWebhookEvents = pgTable("processed_webhook_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  processedAt: timestamptz("processed_at").notNull(),
});
