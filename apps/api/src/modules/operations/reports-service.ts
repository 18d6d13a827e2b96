import {
  REPORT_DEFAULT_DAYS,
  type ReportName,
  type Reports,
  type ReportsQuery,
} from "@ambercare/contracts/operations-reports";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import type { Database } from "@ambercare/db/client";
import { createOperationsRepository } from "#api/modules/operations/operations-repository.ts";
import type { OperatorActor } from "#api/modules/operations/operations-service.ts";
import { createReportsRepository, type ReportPeriod } from "#api/modules/operations/reports-repository.ts";
import { dayAfter, dayIn, midnightIn } from "#api/platform/clinic-day.ts";
import type { Clock } from "#api/platform/clock.ts";

/**
 * The period asked for, the defaults filled in (the last 30 days up to today, by the API's clock),
 * its days counted in the clinic's time zone: from the first day's midnight there to the midnight
 * after the last (a day of a daylight-saving change is 23 or 25 hours long).
 */
export function reportPeriod(query: ReportsQuery, now: Date, timeZone = "UTC") {
  const plus = dayAfter;
  // The first wall time of a day there: midnight in most zones.
  const midnight = (day: string) => midnightIn(day, timeZone);
  const today = dayIn(now, timeZone);
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? plus(to, -(REPORT_DEFAULT_DAYS - 1));
  const days: string[] = [];
  for (let day = from; day <= to; day = plus(day, 1)) days.push(day);
  const period: ReportPeriod = {
    start: midnight(from),
    end: midnight(plus(to, 1)),
    state: query.state ?? null,
    timeZone,
  };
  return { from, to, days, period };
}

/** A report of one line of figures: its column names, then the figures in that order. */
function oneLine<T extends Record<string, number | null>>(
  figures: T,
  columns: ReadonlyArray<keyof T & string>,
) {
  return [columns, columns.map((column) => figures[column] ?? null)];
}

/** Each report as the rows of its CSV: a header line, then the same numbers as the page's table. */
export function reportCsv(report: ReportName, reports: Reports): string {
  const rows: Array<ReadonlyArray<string | number | null>> = [];
  switch (report) {
    case "visits":
      rows.push(["day", ...reports.visits.types, "total"]);
      for (const day of reports.visits.days) {
        rows.push([day.day, ...reports.visits.types.map((type) => day.counts[type] ?? 0), day.total]);
      }
      break;
    case "wait":
      rows.push(...oneLine(reports.wait, ["accepted", "median_seconds", "p90_seconds"]));
      break;
    case "outcomes":
      rows.push(...oneLine(reports.outcomes, ["requested", "expired", "refunded", "booked", "missed"]));
      break;
    case "ratings":
      rows.push(["stars", "count"]);
      reports.ratings.distribution.forEach((n, index) => {
        rows.push([index + 1, n]);
      });
      break;
    case "money":
      rows.push(
        ...oneLine(reports.money, ["payments", "revenue_cents", "refunds", "refunds_cents", "net_cents"]),
      );
      break;
  }
  // Days, type ids and integers only: nothing to quote, nothing a spreadsheet would run.
  return `${rows.map((row) => row.map((field) => (field === null ? "" : String(field))).join(",")).join("\r\n")}\r\n`;
}

/**
 * The operations console's reports (ADR 066): visits per day and type, the wait to be accepted,
 * what became of the requests, ratings, money. Figures only, computed by the database.
 */
export function createReportsService(deps: {
  db: Database;
  clock: Clock;
  /** CLINIC_TIME_ZONE: the zone whose days the reports count. */
  timeZone: string;
}) {
  const repository = createReportsRepository(deps.db);

  async function reports(query: ReportsQuery): Promise<Reports> {
    const { from, to, days, period } = reportPeriod(query, deps.clock.now(), deps.timeZone);
    const [perDay, wait, outcomes, rated, money] = await Promise.all([
      repository.visitsPerDay(period),
      repository.wait(period),
      repository.outcomes(period),
      repository.ratings(period),
      repository.money(period),
    ]);
    const types = [
      ...VISIT_TYPE_IDS,
      ...new Set(perDay.map((row) => row.type).filter((type) => !VISIT_TYPE_IDS.includes(type as never))),
    ];
    const byDay = new Map<string, Record<string, number>>();
    for (const row of perDay) {
      const counts = byDay.get(row.day) ?? {};
      counts[row.type] = row.n;
      byDay.set(row.day, counts);
    }
    const distribution = [1, 2, 3, 4, 5].map(
      (stars) => rated.rows.find((row) => row.stars === stars)?.n ?? 0,
    );
    return {
      from,
      to,
      state: period.state,
      visits: {
        types,
        days: days.map((day) => {
          const found = byDay.get(day) ?? {};
          const counts = Object.fromEntries(types.map((type) => [type, found[type] ?? 0]));
          return { day, counts, total: Object.values(counts).reduce((sum, n) => sum + n, 0) };
        }),
        total: perDay.reduce((sum, row) => sum + row.n, 0),
      },
      wait: { accepted: wait.accepted, median_seconds: wait.median, p90_seconds: wait.p90 },
      outcomes,
      ratings: {
        count: distribution.reduce((sum, n) => sum + n, 0),
        average: rated.average,
        distribution,
      },
      money: {
        payments: money.payments,
        revenue_cents: money.revenue,
        refunds: money.refunds,
        refunds_cents: money.refunded,
        net_cents: money.revenue - money.refunded,
      },
    };
  }

  return {
    reports,
    /** One report as CSV; the export is written to the operations log with its criteria. */
    async csv(actor: OperatorActor, report: ReportName, query: ReportsQuery): Promise<string> {
      const found = await reports(query);
      await createOperationsRepository(deps.db).recordAction({
        actorUserId: actor.userId,
        action: "report.export",
        targetType: null,
        targetId: null,
        detail: { report, from: found.from, to: found.to, ...(found.state ? { state: found.state } : {}) },
        ip: actor.ip,
        at: deps.clock.now(),
      });
      return reportCsv(report, found);
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
