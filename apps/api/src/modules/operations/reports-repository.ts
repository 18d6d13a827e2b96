import type { Executor } from "@ambercare/db/client";
import { consultations, invoiceRefunds, invoices, ratings, visitCredits } from "@ambercare/db/schema";
import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * A report's period as instants, from the first day's midnight to the next day's after the last, in
 * the clinic's time zone (CLINIC_TIME_ZONE), whose days the figures are counted in.
 */
export type ReportPeriod = { start: Date; end: Date; state: string | null; timeZone: string };

/** The visit's day in the clinic's zone as YYYY-MM-DD. */
const dayOf = (column: AnyColumn, period: ReportPeriod) =>
  sql<string>`to_char(${column} at time zone ${period.timeZone}, 'YYYY-MM-DD')`;

/** A timestamp column within the period. */
const during = (column: AnyColumn, period: ReportPeriod): SQL =>
  sql`${column} >= ${period.start.toISOString()}::timestamptz and ${column} < ${period.end.toISOString()}::timestamptz`;

/** The period's condition on a timestamp column, and the state's on the visit's. */
function within(column: AnyColumn, period: ReportPeriod): SQL {
  const range = during(column, period);
  return period.state === null ? range : sql`${range} and ${consultations.state} = ${period.state}`;
}

/**
 * The reports' figures, each one query computed by the database (PGlite and PostgreSQL alike):
 * counts, sums and the percentiles of the wait. Reads only, no patient's data leaves.
 */
export function createReportsRepository(db: Executor) {
  return {
    /** Visits asked for (requested or booked) per day and type. */
    async visitsPerDay(period: ReportPeriod) {
      const result = await db.execute<{ day: string; type: string; n: number }>(sql`
        select ${dayOf(consultations.createdAt, period)} as day, ${consultations.type} as type, count(*)::int as n
        from ${consultations}
        where ${within(consultations.createdAt, period)}
        group by 1, 2
        order by 1, 2`);
      return result.rows;
    },

    /**
     * The wait from request to accept of the on-demand visits asked for in the period and accepted:
     * how many, the median and the 90th percentile (continuous, in whole seconds).
     */
    async wait(period: ReportPeriod) {
      const seconds = sql`extract(epoch from (${consultations.acceptedAt} - ${consultations.createdAt}))`;
      const result = await db.execute<{ n: number; median: number | null; p90: number | null }>(sql`
        select count(*)::int as n,
          round(percentile_cont(0.5) within group (order by ${seconds}))::int as median,
          round(percentile_cont(0.9) within group (order by ${seconds}))::int as p90
        from ${consultations}
        where ${within(consultations.createdAt, period)}
          and ${consultations.scheduledStart} is null and ${consultations.acceptedAt} is not null`);
      const row = result.rows[0];
      return { accepted: row?.n ?? 0, median: row?.median ?? null, p90: row?.p90 ?? null };
    },

    /** What became of the visits asked for in the period. */
    async outcomes(period: ReportPeriod) {
      const result = await db.execute<{
        requested: number;
        expired: number;
        refunded: number;
        booked: number;
        missed: number;
      }>(sql`
        select
          count(*) filter (where ${consultations.scheduledStart} is null)::int as requested,
          count(*) filter (where ${consultations.status} = 'expired')::int as expired,
          count(*) filter (where exists (
            select 1 from ${visitCredits} v join ${invoices} i on i.checkout_id = v.checkout_id
            where v.consultation_id = ${consultations.id} and i.refunded_at is not null))::int as refunded,
          count(*) filter (where ${consultations.scheduledStart} is not null)::int as booked,
          count(*) filter (where ${consultations.status} = 'missed')::int as missed
        from ${consultations}
        where ${within(consultations.createdAt, period)}`);
      return result.rows[0] ?? { requested: 0, expired: 0, refunded: 0, booked: 0, missed: 0 };
    },

    /** Ratings given in the period: how many of each number of stars. */
    async ratings(period: ReportPeriod) {
      const result = await db.execute<{ stars: number; n: number }>(sql`
        select ${ratings.stars}::int as stars, count(*)::int as n
        from ${ratings}
        join ${consultations} on ${consultations.id} = ${ratings.consultationId}
        where ${within(ratings.createdAt, period)}
        group by 1
        order by 1`);
      const average = await db.execute<{ average: number | null }>(sql`
        select round(avg(${ratings.stars}), 2)::float8 as average
        from ${ratings}
        join ${consultations} on ${consultations.id} = ${ratings.consultationId}
        where ${within(ratings.createdAt, period)}`);
      return { rows: result.rows, average: average.rows[0]?.average ?? null };
    },

    /**
     * Payments taken (invoices paid) and refunds given in the period. With a state, only the
     * one-time visits of that state count: a membership belongs to no state. Each refund counts on
     * its own day: an operator's refunds are rows of invoice_refunds (a payment may be refunded in
     * parts on different days); the automatic refund of a visit that expired or was not held is the
     * invoice's own refunded_at and amount, with no row.
     */
    async money(period: ReportPeriod) {
      const ofState =
        period.state === null
          ? sql`true`
          : sql`exists (select 1 from ${visitCredits} v join ${consultations} c on c.id = v.consultation_id
              where v.checkout_id = ${invoices.checkoutId} and c.state = ${period.state})`;
      const range = (column: AnyColumn) => during(column, period);
      const automaticRefund = sql`${range(invoices.refundedAt)} and not exists (
        select 1 from ${invoiceRefunds} where ${invoiceRefunds.invoiceId} = ${invoices.id})`;
      const result = await db.execute<{
        payments: number;
        revenue: number;
        refunds: number;
        refunded: number;
      }>(sql`
        select
          count(*) filter (where ${invoices.status} = 'paid' and ${range(invoices.paidAt)})::int as payments,
          coalesce(sum(${invoices.amountCents}) filter (
            where ${invoices.status} = 'paid' and ${range(invoices.paidAt)}), 0)::int as revenue,
          count(*) filter (where ${automaticRefund})::int as refunds,
          coalesce(sum(${invoices.refundedAmountCents}) filter (where ${automaticRefund}), 0)::int
            as refunded
        from ${invoices}
        where ${ofState}`);
      const parts = await db.execute<{ refunds: number; refunded: number }>(sql`
        select count(*)::int as refunds, coalesce(sum(${invoiceRefunds.amountCents}), 0)::int as refunded
        from ${invoiceRefunds} join ${invoices} on ${invoices.id} = ${invoiceRefunds.invoiceId}
        where ${range(invoiceRefunds.createdAt)} and ${ofState}`);
      const row = result.rows[0];
      const part = parts.rows[0];
      return {
        payments: row?.payments ?? 0,
        revenue: row?.revenue ?? 0,
        refunds: (row?.refunds ?? 0) + (part?.refunds ?? 0),
        refunded: (row?.refunded ?? 0) + (part?.refunded ?? 0),
      };
    },
  };
}
