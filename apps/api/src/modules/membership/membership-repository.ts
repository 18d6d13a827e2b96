import type { SubscriptionStatus } from "@ambercare/contracts/membership-constants";
import { isVisitType, NO_VISIT_CREDITS, type VisitType } from "@ambercare/contracts/visit-types";
import type { Executor } from "@ambercare/db/client";
import {
  cancelFeedback,
  checkouts,
  invoiceRefunds,
  invoices,
  payments,
  processedWebhookEvents,
  subscriptionHistory,
  subscriptions,
  users,
  visitCredits,
} from "@ambercare/db/schema";
import { and, asc, desc, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { assertTransition, type TransitionReason } from "#api/modules/membership/subscription-states.ts";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type CheckoutRow = typeof checkouts.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type RefundRow = { invoiceId: string; at: Date; amountCents: number };
type NewSubscription = Omit<typeof subscriptions.$inferInsert, "id" | "status" | "updatedAt"> & {
  status: SubscriptionStatus;
};
/** Every column but the status: a status changes only through changeStatus (the transition table). */
type SubscriptionPatch = Partial<
  Omit<typeof subscriptions.$inferInsert, "id" | "userId" | "status" | "createdAt">
>;

/** Memberships, checkouts, invoices, payments and visit credits; pass `tx` inside a transaction. */
export function createMembershipRepository(db: Executor) {
  async function history(
    subscriptionId: string,
    from: SubscriptionStatus | null,
    to: SubscriptionStatus,
    reason: TransitionReason,
    at: Date,
  ) {
    await db
      .insert(subscriptionHistory)
      .values({ subscriptionId, fromStatus: from, toStatus: to, reason, at });
  }

  return {
    /** A new membership, its creation written to the history as none → status. */
    async createSubscription(values: NewSubscription, reason: TransitionReason): Promise<SubscriptionRow> {
      assertTransition(null, values.status);
      const [row] = await db
        .insert(subscriptions)
        .values({ ...values, updatedAt: values.createdAt })
        .returning();
      if (!row) throw new Error("subscription insert returned nothing");
      await history(row.id, null, values.status, reason, values.createdAt);
      return row;
    },

    /**
     * The one way a status changes: checked against the transition table, applied only if the row
     * still has the status it was read with, and written to the history.
     */
    async changeStatus(
      subscription: Pick<SubscriptionRow, "id" | "status">,
      to: SubscriptionStatus,
      reason: TransitionReason,
      at: Date,
      patch: SubscriptionPatch = {},
    ): Promise<SubscriptionRow> {
      const from = subscription.status;
      assertTransition(from, to);
      const [row] = await db
        .update(subscriptions)
        .set({ ...patch, status: to, updatedAt: at })
        .where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.status, from)))
        .returning();
      if (!row) throw new Error(`subscription ${subscription.id} is no longer ${from}`);
      await history(row.id, from, to, reason, at);
      return row;
    },

    async updateSubscription(id: string, patch: SubscriptionPatch, at: Date): Promise<SubscriptionRow> {
      const [row] = await db
        .update(subscriptions)
        .set({ ...patch, updatedAt: at })
        .where(eq(subscriptions.id, id))
        .returning();
      if (!row) throw new Error(`subscription ${id} is gone`);
      return row;
    },

    async hasEverSubscribed(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .limit(1);
      return row !== undefined;
    },

    /** The patient's membership that has not ended, locked when `lock` (one exists at most). */
    async findLiveSubscription(userId: string, lock = false): Promise<SubscriptionRow | undefined> {
      const query = db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, "ended")));
      const [row] = lock ? await query.for("update") : await query;
      return row;
    },

    /** The live membership, else the latest ended one. */
    async findLatestSubscription(userId: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .orderBy(sql`${subscriptions.status} = 'ended'`, desc(subscriptions.createdAt))
        .limit(1);
      return row;
    },

    async findSubscription(id: string, lock = false): Promise<SubscriptionRow | undefined> {
      const query = db.select().from(subscriptions).where(eq(subscriptions.id, id));
      const [row] = lock ? await query.for("update") : await query;
      return row;
    },

    async findSubscriptionByProviderId(providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
        .for("update");
      return row;
    },

    async listHistory(subscriptionId: string) {
      return db
        .select()
        .from(subscriptionHistory)
        .where(eq(subscriptionHistory.subscriptionId, subscriptionId))
        .orderBy(asc(subscriptionHistory.id));
    },

    /** Demo memberships whose period is over, or whose past-due retry is due. */
    async dueSubscriptionIds(now: Date): Promise<string[]> {
      const rows = await db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.provider, "demo"),
            or(
              and(
                inArray(subscriptions.status, ["trialing", "active", "canceled"]),
                lte(subscriptions.currentPeriodEnd, now),
              ),
              and(eq(subscriptions.status, "past_due"), lte(subscriptions.retryAt, now)),
            ),
          ),
        );
      return rows.map((row) => row.id);
    },

    async findUserEmail(userId: string): Promise<string | undefined> {
      const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      return row?.email;
    },

    /** The time zone of the patient's profile (their invoices' days are there); null without one. */
    async findUserTimeZone(userId: string): Promise<string | null> {
      const [row] = await db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
      return row?.timeZone ?? null;
    },

    async insertFeedback(values: typeof cancelFeedback.$inferInsert): Promise<void> {
      await db.insert(cancelFeedback).values(values);
    },

    async insertCheckout(values: typeof checkouts.$inferInsert): Promise<CheckoutRow> {
      const [row] = await db.insert(checkouts).values(values).returning();
      if (!row) throw new Error("checkout insert returned nothing");
      return row;
    },

    async findCheckout(id: string, lock = false): Promise<CheckoutRow | undefined> {
      const query = db.select().from(checkouts).where(eq(checkouts.id, id));
      const [row] = lock ? await query.for("update") : await query;
      return row;
    },

    async setCheckoutSession(id: string, providerSessionId: string): Promise<void> {
      await db.update(checkouts).set({ providerSessionId }).where(eq(checkouts.id, id));
    },

    async markCheckoutPaid(id: string, paidAt: Date, subscriptionId: string | null): Promise<void> {
      await db.update(checkouts).set({ paidAt, subscriptionId }).where(eq(checkouts.id, id));
    },

    /** The invoice of this idempotency key: the existing one if it was made before. */
    async upsertInvoice(values: Omit<typeof invoices.$inferInsert, "id" | "seq">): Promise<InvoiceRow> {
      const [inserted] = await db
        .insert(invoices)
        .values(values)
        .onConflictDoNothing({ target: invoices.idempotencyKey })
        .returning();
      if (inserted) return inserted;
      const [existing] = await db
        .select()
        .from(invoices)
        .where(eq(invoices.idempotencyKey, values.idempotencyKey));
      if (!existing) throw new Error("invoice vanished");
      return existing;
    },

    async updateInvoice(
      id: string,
      patch: Partial<Pick<InvoiceRow, "status" | "paidAt" | "providerInvoiceId" | "amountCents">>,
    ) {
      await db.update(invoices).set(patch).where(eq(invoices.id, id));
    },

    async findInvoiceByProviderId(providerInvoiceId: string): Promise<InvoiceRow | undefined> {
      const [row] = await db.select().from(invoices).where(eq(invoices.providerInvoiceId, providerInvoiceId));
      return row;
    },

    async listInvoices(userId: string): Promise<InvoiceRow[]> {
      return db
        .select()
        .from(invoices)
        .where(eq(invoices.userId, userId))
        .orderBy(desc(invoices.issuedAt), desc(invoices.seq));
    },

    async findInvoice(id: string): Promise<InvoiceRow | undefined> {
      const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
      return row;
    },

    /** The refunds recorded one by one (an operator's) of these invoices, oldest first. */
    async refundsOf(invoiceIds: readonly string[]): Promise<RefundRow[]> {
      if (invoiceIds.length === 0) return [];
      return db
        .select({
          invoiceId: invoiceRefunds.invoiceId,
          at: invoiceRefunds.createdAt,
          amountCents: invoiceRefunds.amountCents,
        })
        .from(invoiceRefunds)
        .where(inArray(invoiceRefunds.invoiceId, [...invoiceIds]))
        .orderBy(asc(invoiceRefunds.createdAt), asc(invoiceRefunds.id));
    },

    /**
     * Records a charge attempt under its idempotency key. Returns the earlier attempt's outcome when
     * the key was used before, so the caller charges nothing again.
     */
    async findPayment(idempotencyKey: string) {
      const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
      return row;
    },

    async insertPayment(values: Omit<typeof payments.$inferInsert, "id">): Promise<boolean> {
      const rows = await db
        .insert(payments)
        .values(values)
        .onConflictDoNothing({ target: payments.idempotencyKey })
        .returning({ id: payments.id });
      return rows.length > 0;
    },

    async insertVisitCredit(values: Omit<typeof visitCredits.$inferInsert, "id">): Promise<void> {
      await db.insert(visitCredits).values(values).onConflictDoNothing({ target: visitCredits.checkoutId });
    },

    async countVisitCredits(userId: string): Promise<Record<VisitType, number>> {
      const rows = await db
        .select({ type: visitCredits.type, n: sql<number>`count(*)::int` })
        .from(visitCredits)
        .where(and(eq(visitCredits.userId, userId), isNull(visitCredits.consumedAt)))
        .groupBy(visitCredits.type);
      const counts: Record<VisitType, number> = { ...NO_VISIT_CREDITS };
      for (const row of rows) if (isVisitType(row.type)) counts[row.type] = Number(row.n);
      return counts;
    },

    /**
     * Spends one unused credit of this type. SKIP LOCKED lets concurrent consumers take different
     * credits instead of the same one; the `consumed_at is null` guard makes a second spend of one
     * credit update nothing.
     */
    async consumeVisitCredit(
      userId: string,
      type: VisitType,
      at: Date,
      consultationId: string | null,
    ): Promise<string | undefined> {
      const result = await db.execute<{ id: string }>(sql`
        update ${visitCredits} set consumed_at = ${at.toISOString()}::timestamptz, consultation_id = ${consultationId}
        where id = (
          select id from ${visitCredits}
          where user_id = ${userId} and type = ${type} and consumed_at is null
          order by created_at, id
          limit 1
          for update skip locked
        ) and consumed_at is null
        returning id`);
      return result.rows[0]?.id;
    },

    /**
     * Gives back the visit of this type the canceled consultation spent (or, for one spent before
     * credits named their consultation, the most recently spent).
     */
    async returnVisitCredit(
      userId: string,
      type: VisitType,
      consultationId: string | null,
    ): Promise<string | undefined> {
      const result = await db.execute<{ id: string }>(sql`
        update ${visitCredits} set consumed_at = null, consultation_id = null
        where id = (
          select id from ${visitCredits}
          where user_id = ${userId} and type = ${type} and consumed_at is not null
          order by (consultation_id is not distinct from ${consultationId}) desc, consumed_at desc, id desc
          limit 1
          for update
        )
        returning id`);
      return result.rows[0]?.id;
    },

    /**
     * What a consultation paid with a one-time visit was paid by: the visit's invoice, the processor's
     * payment (demo) or Checkout Session (Stripe), and whether it was refunded already. Undefined when
     * no bought visit paid for it.
     */
    async visitPaymentOf(consultationId: string) {
      const [row] = await db
        .select({
          invoiceId: invoices.id,
          amountCents: invoices.amountCents,
          refundedAt: invoices.refundedAt,
          refundedAmountCents: invoices.refundedAmountCents,
          checkoutSessionId: checkouts.providerSessionId,
          providerPaymentId: sql<string | null>`(
            select ${payments.providerPaymentId} from ${payments}
            where ${payments.invoiceId} = ${invoices.id} and ${payments.outcome} = 'succeeded'
            order by ${payments.createdAt} desc limit 1)`,
        })
        .from(visitCredits)
        .innerJoin(checkouts, eq(checkouts.id, visitCredits.checkoutId))
        .innerJoin(invoices, and(eq(invoices.checkoutId, checkouts.id), eq(invoices.status, "paid")))
        .where(eq(visitCredits.consultationId, consultationId));
      return row;
    },

    /** Records a refund once: false when the invoice was already refunded. */
    async markInvoiceRefunded(
      invoiceId: string,
      refund: { at: Date; amountCents: number; providerRefundId: string },
    ): Promise<boolean> {
      const rows = await db
        .update(invoices)
        .set({
          refundedAt: refund.at,
          refundedAmountCents: refund.amountCents,
          providerRefundId: refund.providerRefundId,
        })
        .where(and(eq(invoices.id, invoiceId), isNull(invoices.refundedAt)))
        .returning({ id: invoices.id });
      return rows.length > 0;
    },

    /** True the first time an event id is seen; false for a replay. */
    async markWebhookProcessed(eventId: string, type: string, at: Date): Promise<boolean> {
      const rows = await db
        .insert(processedWebhookEvents)
        .values({ eventId, type, processedAt: at })
        .onConflictDoNothing({ target: processedWebhookEvents.eventId })
        .returning({ eventId: processedWebhookEvents.eventId });
      return rows.length > 0;
    },
  };
}

export type MembershipRepository = ReturnType<typeof createMembershipRepository>;
