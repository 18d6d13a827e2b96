import type { Locale } from "@ambercare/contracts/locales";
import type { AccessLogQuery, OperatorAction, VisitSearchQuery } from "@ambercare/contracts/operations";
import { VISIT_SEARCH_LIMIT } from "@ambercare/contracts/operations";
import type { Executor } from "@ambercare/db/client";
import {
  accessTokens,
  auditLog,
  checkouts,
  clinicians,
  consultationStatusHistory,
  consultations,
  invoiceRefunds,
  invoices,
  operatorActions,
  payments,
  providers,
  secondFactors,
  users,
  visitCallEvents,
  visitCredits,
} from "@ambercare/db/schema";
import { and, asc, count, desc, eq, gt, gte, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { dayAfter, midnightIn } from "#api/platform/clinic-day.ts";
import { escapeLike } from "#api/platform/sql-like.ts";

export type OperatorActionEvent = {
  actorUserId: string;
  action: OperatorAction;
  targetType: string | null;
  targetId: string | null;
  detail: Record<string, string | number | boolean | null>;
  ip: string | null;
  at: Date;
};

const providerName = sql<string>`${providers.firstName} || ' ' || ${providers.lastName} || ', ' || ${providers.credentials}`;

/** What the operations console reads and writes; never a visit's notes, intake or chat. */
export function createOperationsRepository(db: Executor) {
  return {
    async recordAction(event: OperatorActionEvent): Promise<void> {
      await db.insert(operatorActions).values(event);
    },

    /** A page of the operations log, newest first. */
    async actions(page: number, perPage: number) {
      const rows = await db
        .select({
          id: operatorActions.id,
          actorUserId: operatorActions.actorUserId,
          actorEmail: users.email,
          action: operatorActions.action,
          targetType: operatorActions.targetType,
          targetId: operatorActions.targetId,
          detail: operatorActions.detail,
          ip: operatorActions.ip,
          at: operatorActions.at,
        })
        .from(operatorActions)
        .leftJoin(users, eq(users.id, operatorActions.actorUserId))
        .orderBy(desc(operatorActions.at), desc(operatorActions.id))
        .limit(perPage)
        .offset((page - 1) * perPage);
      const [total] = await db.select({ n: count() }).from(operatorActions);
      return { rows, total: total?.n ?? 0 };
    },

    /** `email` lower-cased already. */
    async findAccountByEmail(email: string) {
      const [row] = await db
        .select({
          id: users.id,
          role: users.role,
          isServiceAccount: users.isServiceAccount,
          locale: users.locale,
        })
        .from(users)
        .where(eq(users.email, email));
      return row;
    },

    async insertOperator(account: { email: string; passwordHash: string; locale: Locale; now: Date }) {
      const [row] = await db
        .insert(users)
        .values({
          email: account.email,
          passwordHash: account.passwordHash,
          locale: account.locale,
          role: "operator",
          createdAt: account.now,
          updatedAt: account.now,
        })
        .returning({ id: users.id });
      if (!row) throw new Error("The operator account was not written");
      return row;
    },

    async operatorProfile(userId: string) {
      const [row] = await db
        .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.role, "operator")));
      return row;
    },

    /** Every clinician, with their live sessions now and whether they are on duty. */
    async team(now: Date) {
      const sessions = db
        .select({ userId: accessTokens.userId, n: count().as("n") })
        .from(accessTokens)
        .where(and(isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, now)))
        .groupBy(accessTokens.userId)
        .as("sessions");
      return db
        .select({
          userId: clinicians.userId,
          email: users.email,
          providerSlug: providers.slug,
          providerName,
          secondFactor: sql<boolean>`${isNotNull(secondFactors.enabledAt)}`,
          disabledAt: clinicians.disabledAt,
          onDutySince: clinicians.onDutySince,
          sessions: sql<number>`coalesce(${sessions.n}, 0)::int`,
        })
        .from(clinicians)
        .innerJoin(users, eq(users.id, clinicians.userId))
        .innerJoin(providers, eq(providers.id, clinicians.providerId))
        .leftJoin(secondFactors, eq(secondFactors.userId, clinicians.userId))
        .leftJoin(sessions, eq(sessions.userId, clinicians.userId))
        .orderBy(asc(users.email));
    },

    async clinician(userId: string) {
      const [row] = await db
        .select({ userId: clinicians.userId, email: users.email, disabledAt: clinicians.disabledAt })
        .from(clinicians)
        .innerJoin(users, eq(users.id, clinicians.userId))
        .where(eq(clinicians.userId, userId));
      return row;
    },

    /** Disabling also takes the clinician off duty: a disabled account takes no requests. */
    async setDisabled(userId: string, disabledAt: Date | null): Promise<void> {
      await db
        .update(clinicians)
        .set(disabledAt ? { disabledAt, onDutySince: null } : { disabledAt: null })
        .where(eq(clinicians.userId, userId));
    },

    /** Visits by the patient's address, state, status and the clinic's day (`timeZone`) they were asked on. */
    async searchVisits(query: VisitSearchQuery, timeZone: string) {
      const where: SQL[] = [];
      if (query.email) where.push(sql`${users.email} like ${`%${escapeLike(query.email.toLowerCase())}%`}`);
      if (query.date) {
        where.push(gte(consultations.createdAt, midnightIn(query.date, timeZone)));
        where.push(lt(consultations.createdAt, midnightIn(dayAfter(query.date), timeZone)));
      }
      if (query.state) where.push(eq(consultations.state, query.state));
      if (query.status) where.push(eq(consultations.status, query.status));
      return db
        .select(visitColumns)
        .from(consultations)
        .innerJoin(users, eq(users.id, consultations.userId))
        .leftJoin(providers, eq(providers.id, consultations.providerId))
        .where(where.length > 0 ? and(...where) : undefined)
        .orderBy(desc(consultations.createdAt), desc(consultations.id))
        .limit(VISIT_SEARCH_LIMIT);
    },

    async visit(id: string) {
      const [row] = await db
        .select({ ...visitColumns, patientUserId: consultations.userId })
        .from(consultations)
        .innerJoin(users, eq(users.id, consultations.userId))
        .leftJoin(providers, eq(providers.id, consultations.providerId))
        .where(eq(consultations.id, id));
      return row;
    },

    async statusHistory(id: string) {
      return db
        .select({
          at: consultationStatusHistory.at,
          toStatus: consultationStatusHistory.toStatus,
          actorKind: consultationStatusHistory.actorKind,
        })
        .from(consultationStatusHistory)
        .where(eq(consultationStatusHistory.consultationId, id))
        .orderBy(asc(consultationStatusHistory.at), asc(consultationStatusHistory.id));
    },

    async callEvents(id: string) {
      return db
        .select({ at: visitCallEvents.at, side: visitCallEvents.side, event: visitCallEvents.event })
        .from(visitCallEvents)
        .where(eq(visitCallEvents.consultationId, id))
        .orderBy(asc(visitCallEvents.at), asc(visitCallEvents.id));
    },

    /** The paid invoices of a one-time visit (the checkout that bought its credit). */
    async visitInvoices(consultationId: string) {
      return db
        .select(invoiceColumns)
        .from(visitCredits)
        .innerJoin(checkouts, eq(checkouts.id, visitCredits.checkoutId))
        .innerJoin(invoices, and(eq(invoices.checkoutId, checkouts.id), eq(invoices.status, "paid")))
        .where(eq(visitCredits.consultationId, consultationId))
        .orderBy(asc(invoices.issuedAt));
    },

    /**
     * The refunds an operator made of the visit's paid invoices, one row each (invoice_refunds),
     * oldest first; an automatic refund has none, only the invoice's own refunded_at.
     */
    async visitRefunds(consultationId: string) {
      return db
        .select(refundColumns)
        .from(visitCredits)
        .innerJoin(
          invoices,
          and(eq(invoices.checkoutId, visitCredits.checkoutId), eq(invoices.status, "paid")),
        )
        .innerJoin(invoiceRefunds, eq(invoiceRefunds.invoiceId, invoices.id))
        .where(eq(visitCredits.consultationId, consultationId))
        .orderBy(asc(invoiceRefunds.createdAt), asc(invoiceRefunds.id));
    },

    /** The visit's paid invoice, locked until the transaction ends (one refund at a time). */
    async lockVisitInvoice(consultationId: string, invoiceId: string) {
      const result = await db.execute<{
        invoice_id: string;
        user_id: string;
        amount_cents: number;
        refunded_at: string | Date | null;
        refunded_amount_cents: number | null;
        checkout_session_id: string | null;
        provider_payment_id: string | null;
      }>(sql`
        select i.id as invoice_id, i.user_id, i.amount_cents, i.refunded_at, i.refunded_amount_cents,
          c.provider_session_id as checkout_session_id,
          (select p.provider_payment_id from ${payments} p
            where p.invoice_id = i.id and p.outcome = 'succeeded' order by p.created_at desc limit 1)
            as provider_payment_id
        from ${invoices} i
        join ${checkouts} c on c.id = i.checkout_id
        join ${visitCredits} v on v.checkout_id = c.id
        where i.id = ${invoiceId}::uuid and v.consultation_id = ${consultationId}::uuid and i.status = 'paid'
        for update of i`);
      return result.rows[0];
    },

    /** The refund made under this key of the invoice, if any (a double submit). */
    async refundByKey(invoiceId: string, idempotencyKey: string) {
      const [row] = await db
        .select({ id: invoiceRefunds.id })
        .from(invoiceRefunds)
        .where(
          and(eq(invoiceRefunds.invoiceId, invoiceId), eq(invoiceRefunds.idempotencyKey, idempotencyKey)),
        );
      return row;
    },

    /**
     * One more refund of the locked invoice: its row, and the invoice's last refund time and the sum
     * of its refunds (`refundedSoFar` + this one).
     */
    async addRefund(
      invoiceId: string,
      refund: {
        at: Date;
        amountCents: number;
        refundedSoFar: number;
        providerRefundId: string;
        reason: string;
        idempotencyKey: string;
      },
    ) {
      await db.insert(invoiceRefunds).values({
        invoiceId,
        idempotencyKey: refund.idempotencyKey,
        amountCents: refund.amountCents,
        providerRefundId: refund.providerRefundId,
        reason: refund.reason,
        createdAt: refund.at,
      });
      const [row] = await db
        .update(invoices)
        .set({
          refundedAt: refund.at,
          refundedAmountCents: refund.refundedSoFar + refund.amountCents,
          providerRefundId: refund.providerRefundId,
          refundReason: refund.reason,
        })
        .where(eq(invoices.id, invoiceId))
        .returning(invoiceColumns);
      return row;
    },

    async invoice(invoiceId: string) {
      const [row] = await db.select(invoiceColumns).from(invoices).where(eq(invoices.id, invoiceId));
      return row;
    },
  };
}

const visitColumns = {
  id: consultations.id,
  patientEmail: users.email,
  patientFirstName: users.firstName,
  patientLastName: users.lastName,
  state: consultations.state,
  type: consultations.type,
  status: consultations.status,
  providerName: sql<string | null>`case when ${providers.id} is null then null else ${providerName} end`,
  createdAt: consultations.createdAt,
};

/** One refund as the timeline shows it: its payment, its time and its amount. */
const refundColumns = {
  invoiceId: invoiceRefunds.invoiceId,
  at: invoiceRefunds.createdAt,
  amountCents: invoiceRefunds.amountCents,
};

const invoiceColumns = {
  invoiceId: invoices.id,
  amountCents: invoices.amountCents,
  paidAt: invoices.paidAt,
  refundedAt: invoices.refundedAt,
  refundedAmountCents: invoices.refundedAmountCents,
  refundReason: invoices.refundReason,
};

export type OperationsRepository = ReturnType<typeof createOperationsRepository>;

/**
 * Rows of the access log across patients, newest first, as the operator's search filters them: from
 * the midnight that starts `from` to the one that ends `to`, days of the clinic's `timeZone`.
 */
export async function searchAccessLog(
  db: Executor,
  query: Omit<AccessLogQuery, "page">,
  timeZone: string,
  page: { limit: number; offset: number },
) {
  const patient = alias(users, "patient");
  const actor = alias(users, "actor");
  const where: SQL[] = [];
  if (query.patient) where.push(sql`${patient.email} like ${`%${escapeLike(query.patient.toLowerCase())}%`}`);
  if (query.actor) where.push(sql`${actor.email} like ${`%${escapeLike(query.actor.toLowerCase())}%`}`);
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.from) where.push(gte(auditLog.at, midnightIn(query.from, timeZone)));
  if (query.to) where.push(lt(auditLog.at, midnightIn(dayAfter(query.to), timeZone)));
  const condition = where.length > 0 ? and(...where) : undefined;
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      patientEmail: patient.email,
      actorEmail: actor.email,
      actorKind: auditLog.actorKind,
      action: auditLog.action,
      resourceType: auditLog.resourceType,
      resourceId: auditLog.resourceId,
      ip: auditLog.ip,
      count: auditLog.count,
    })
    .from(auditLog)
    .innerJoin(patient, eq(patient.id, auditLog.userId))
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .where(condition)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await db
    .select({ n: count() })
    .from(auditLog)
    .innerJoin(patient, eq(patient.id, auditLog.userId))
    .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
    .where(condition);
  return { rows, total: total?.n ?? 0 };
}
