import { z } from "zod";
import { dataEnvelope } from "./envelope.ts";
import { US_STATE_CODES } from "./us-states.ts";

/**
 * The operations console's reports (ADR 065, ADR 066): counts and sums over a period of UTC days,
 * optionally for one state. Figures only: no patient, no clinician, no health data.
 */

/** The longest period one report covers, in days. */
export const REPORT_MAX_DAYS = 366;
/** The period a report covers when none is chosen: the last 30 days, today included. */
export const REPORT_DEFAULT_DAYS = 30;

/** The reports, each a chart, its table and its CSV. */
export const REPORT_NAMES = Object.freeze(["visits", "wait", "outcomes", "ratings", "money"] as const);
export type ReportName = (typeof REPORT_NAMES)[number];

const DAY_MS = 86_400_000;

const periodFields = {
  /** First and last day (UTC), both included; absent: the last 30 days. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  state: z.enum(US_STATE_CODES as [string, ...string[]]).optional(),
};

/** A period's last day is not before its first, and it is at most REPORT_MAX_DAYS long. */
function checkPeriod(query: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if (!query.from || !query.to) return;
  if (query.from > query.to) {
    ctx.addIssue({ code: "custom", message: "The first day must not be after the last", path: ["to"] });
  } else if ((Date.parse(query.to) - Date.parse(query.from)) / DAY_MS + 1 > REPORT_MAX_DAYS) {
    ctx.addIssue({
      code: "custom",
      message: `A report covers at most ${REPORT_MAX_DAYS} days`,
      path: ["from"],
    });
  }
}

export const reportsQuery = z.object(periodFields).strict().superRefine(checkPeriod);
export type ReportsQuery = z.infer<typeof reportsQuery>;

export const reportCsvQuery = z
  .object({ report: z.enum(REPORT_NAMES), ...periodFields })
  .strict()
  .superRefine(checkPeriod);
export type ReportCsvQuery = z.infer<typeof reportCsvQuery>;

const count = z.number().int().min(0);
const cents = z.number().int();

export const reportsSchema = z
  .object({
    /** The period the figures cover (the defaults filled in). */
    from: z.iso.date(),
    to: z.iso.date(),
    state: z.string().nullable(),
    /** Visits requested or booked, per day (the day it was asked for) and type; every day of the period. */
    visits: z.object({
      types: z.array(z.string()),
      days: z.array(z.object({ day: z.iso.date(), counts: z.record(z.string(), count), total: count })),
      total: count,
    }),
    /** From request to accept of the on-demand visits accepted, in seconds (null when none). */
    wait: z.object({
      accepted: count,
      median_seconds: z.number().int().min(0).nullable(),
      p90_seconds: z.number().int().min(0).nullable(),
    }),
    /** What became of the visits asked for in the period. */
    outcomes: z.object({
      requested: count,
      expired: count,
      refunded: count,
      booked: count,
      missed: count,
    }),
    /** Ratings given in the period. */
    ratings: z.object({
      count,
      /** Two decimals; null when none. */
      average: z.number().nullable(),
      /** Index 0 is one star, index 4 five stars. */
      distribution: z.array(count).length(5),
    }),
    /** Payments taken and refunds given in the period (integer cents). */
    money: z.object({
      payments: count,
      revenue_cents: cents,
      refunds: count,
      refunds_cents: cents,
      net_cents: cents,
    }),
  })
  .strict();
export type Reports = z.infer<typeof reportsSchema>;
export const reportsResponse = dataEnvelope(reportsSchema);
