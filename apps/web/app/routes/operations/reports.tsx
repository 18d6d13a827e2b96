import type { ReportName, Reports } from "@ambercare/contracts/operations-reports";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import type { ReactNode } from "react";
import { data, Form, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SelectField, TextField } from "#app/components/forms.tsx";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import { type ChartBar, ChartLegend, ReportChart } from "#app/features/operations/report-chart.tsx";
import { reportsApi } from "#app/features/operations/reports.server.ts";
import {
  parseReportsSearch,
  REPORTS_FIELDS,
  type ReportsField,
  reportsSearchParams,
} from "#app/features/operations/reports-search.ts";
import { type FormErrorResult, formError } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/reports";

const PERIOD_FORM = "reports-period";
const HEADERS = { "Cache-Control": "private, no-store" };

type LoaderData = {
  values: Record<ReportsField, string>;
  reports: Reports | null;
  failed: FormErrorResult<ReportsField> | null;
};

/**
 * /operations/reports: a period's figures (ADR 066) — visits per day and type, the wait to be
 * accepted, what became of the requests, ratings, money — each a chart drawn on the server, a
 * summary in words, its table and its CSV. A GET form chooses the period and the state; the page
 * needs no JavaScript.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const parsed = parseReportsSearch(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return data<LoaderData>(
      { values: parsed.values, reports: null, failed: formError(parsed.values, parsed.errors) },
      { status: 400, headers: HEADERS },
    );
  }
  const reports = await reportsApi(request, user, context).reports(parsed.query);
  return data<LoaderData>({ values: parsed.values, reports, failed: null }, { headers: HEADERS });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsReports");

type T = ReturnType<typeof useTranslation>["t"];

/** A wait in seconds as minutes and seconds ("3 min 30 s"); a dash when there is none. */
function waitText(t: T, seconds: number | null): string {
  if (seconds === null) return "—";
  return t("operations.reports.duration", { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
}

export default function OperationsReportsPage() {
  const { t } = useTranslation();
  const { values, reports, failed } = useLoaderData<typeof loader>();
  const errors = failed?.fieldErrors ?? {};
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <h1 className="font-bold text-3xl text-ink">{t("operations.reports.heading")}</h1>
      <p className="text-ink-muted">{t("operations.reports.lead")}</p>
      <ErrorSummary formId={PERIOD_FORM} result={failed ?? undefined} order={REPORTS_FIELDS} />
      <Form method="get" noValidate className="grid max-w-3xl grid-cols-1 gap-4 tablet:grid-cols-3">
        {(["from", "to"] as const).map((name) => (
          <TextField
            key={name}
            formId={PERIOD_FORM}
            name={name}
            type="date"
            optional
            label={t(`operations.reports.${name}`)}
            hint={t("operations.reports.dayHint")}
            defaultValue={reports?.[name] ?? values[name]}
            error={errors[name]}
          />
        ))}
        <SelectField
          formId={PERIOD_FORM}
          name="state"
          optional
          label={t("operations.reports.state")}
          defaultValue={values.state}
          error={errors.state}
          options={US_STATE_CODES.map((code) => ({
            value: code,
            label: t(`profile.states.${code}` as "profile.states.TX"),
          }))}
        />
        <div>
          <button type="submit" className="button-primary">
            {t("operations.reports.submit")}
          </button>
        </div>
      </Form>
      {reports ? <AllReports reports={reports} /> : null}
    </div>
  );
}

function AllReports({ reports }: { reports: Reports }) {
  const { t } = useTranslation();
  const query = {
    from: reports.from,
    to: reports.to,
    ...(reports.state ? { state: reports.state } : {}),
  };
  const csv = (report: ReportName) => `/operations/reports/export?${reportsSearchParams(query, report)}`;
  const typeLabel = (type: string) => t(`consultation.types.${type}` as TranslationKey);
  const { visits, wait, outcomes, ratings, money } = reports;
  const busiest = visits.days.reduce<(typeof visits.days)[number] | null>(
    (best, day) => (day.total > (best?.total ?? 0) ? day : best),
    null,
  );
  const outcomeRows: Array<[string, number]> = [
    [t("operations.reports.outcomes.requested"), outcomes.requested],
    [t("operations.reports.outcomes.expired"), outcomes.expired],
    [t("operations.reports.outcomes.refunded"), outcomes.refunded],
    [t("operations.reports.outcomes.booked"), outcomes.booked],
    [t("operations.reports.outcomes.missed"), outcomes.missed],
  ];
  const starLabel = (index: number) => t("operations.reports.ratings.stars", { count: index + 1 });
  return (
    <>
      <p role="status" className="text-ink" data-testid="reports-period">
        {t("operations.reports.period", {
          from: reports.from,
          to: reports.to,
          state: reports.state
            ? t(`profile.states.${reports.state}` as "profile.states.TX")
            : t("operations.reports.everyState"),
        })}
      </p>
      <Report
        id="visits"
        title={t("operations.reports.visits.title")}
        summary={
          busiest
            ? t("operations.reports.visits.summary", {
                count: visits.total,
                days: visits.days.length,
                day: busiest.day,
                most: busiest.total,
              })
            : t("operations.reports.visits.none", { days: visits.days.length })
        }
        series={visits.types.map((type) => ({ label: typeLabel(type) }))}
        bars={visits.days.map((day) => ({
          label: day.day.slice(5),
          values: visits.types.map((type) => day.counts[type] ?? 0),
        }))}
        csv={csv("visits")}
        table={
          <>
            <thead>
              <tr>
                <th scope="col">{t("operations.reports.visits.day")}</th>
                {visits.types.map((type) => (
                  <th key={type} scope="col">
                    {typeLabel(type)}
                  </th>
                ))}
                <th scope="col">{t("operations.reports.total")}</th>
              </tr>
            </thead>
            <tbody>
              {visits.days.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  {visits.types.map((type) => (
                    <td key={type}>{day.counts[type] ?? 0}</td>
                  ))}
                  <td>{day.total}</td>
                </tr>
              ))}
            </tbody>
          </>
        }
      />
      <Report
        id="wait"
        title={t("operations.reports.wait.title")}
        summary={
          wait.accepted > 0
            ? t("operations.reports.wait.summary", {
                count: wait.accepted,
                median: waitText(t, wait.median_seconds),
                p90: waitText(t, wait.p90_seconds),
              })
            : t("operations.reports.wait.none")
        }
        series={[{ label: t("operations.reports.wait.minutes") }]}
        bars={[
          { label: t("operations.reports.wait.median"), values: [(wait.median_seconds ?? 0) / 60] },
          { label: t("operations.reports.wait.p90"), values: [(wait.p90_seconds ?? 0) / 60] },
        ]}
        formatValue={(minutes) => t("operations.reports.minutes", { count: Math.round(minutes) })}
        csv={csv("wait")}
        table={
          <FigureRows
            rows={[
              [t("operations.reports.wait.accepted"), wait.accepted],
              [t("operations.reports.wait.median"), waitText(t, wait.median_seconds)],
              [t("operations.reports.wait.p90"), waitText(t, wait.p90_seconds)],
            ]}
          />
        }
      />
      <Report
        id="outcomes"
        title={t("operations.reports.outcomes.title")}
        summary={t("operations.reports.outcomes.summary", { ...outcomes })}
        series={[{ label: t("operations.reports.outcomes.title") }]}
        bars={outcomeRows.map(([label, value]) => ({ label, values: [value] }))}
        csv={csv("outcomes")}
        table={<FigureRows rows={outcomeRows} />}
      />
      <Report
        id="ratings"
        title={t("operations.reports.ratings.title")}
        summary={
          ratings.count > 0
            ? t("operations.reports.ratings.summary", {
                count: ratings.count,
                average: ratings.average?.toFixed(2) ?? "—",
              })
            : t("operations.reports.ratings.none")
        }
        series={[{ label: t("operations.reports.ratings.title") }]}
        bars={ratings.distribution.map((count, index) => ({ label: starLabel(index), values: [count] }))}
        csv={csv("ratings")}
        table={
          <FigureRows
            rows={[
              ...ratings.distribution.map((count, index): [string, number | string] => [
                starLabel(index),
                count,
              ]),
              [t("operations.reports.ratings.average"), ratings.average?.toFixed(2) ?? "—"],
            ]}
          />
        }
      />
      <Report
        id="money"
        title={t("operations.reports.money.title")}
        summary={t("operations.reports.money.summary", {
          revenue: formatAmount(money.revenue_cents),
          payments: money.payments,
          refunded: formatAmount(money.refunds_cents),
          refunds: money.refunds,
          net: formatAmount(money.net_cents),
        })}
        series={[{ label: t("operations.reports.money.title") }]}
        bars={[
          { label: t("operations.reports.money.revenue"), values: [money.revenue_cents] },
          { label: t("operations.reports.money.refunded"), values: [money.refunds_cents] },
        ]}
        formatValue={formatAmount}
        csv={csv("money")}
        table={
          <FigureRows
            rows={[
              [t("operations.reports.money.payments"), money.payments],
              [t("operations.reports.money.revenue"), formatAmount(money.revenue_cents)],
              [t("operations.reports.money.refunds"), money.refunds],
              [t("operations.reports.money.refunded"), formatAmount(money.refunds_cents)],
              [t("operations.reports.money.net"), formatAmount(money.net_cents)],
            ]}
          />
        }
      />
      {reports.state ? (
        <p className="text-ink-muted text-sm">{t("operations.reports.money.stateNote")}</p>
      ) : null}
    </>
  );
}

/** A table body of one figure per row: its name, then the figure. */
function FigureRows({ rows }: { rows: ReadonlyArray<readonly [string, number | string]> }) {
  return (
    <tbody>
      {rows.map(([label, value]) => (
        <tr key={label}>
          <th scope="row">{label}</th>
          <td>{value}</td>
        </tr>
      ))}
    </tbody>
  );
}

/** One report: its heading, the chart, the summary in words, the table under it and its CSV. */
function Report({
  id,
  title,
  summary,
  series,
  bars,
  formatValue,
  csv,
  table,
}: {
  id: string;
  title: string;
  summary: string;
  series: ReadonlyArray<{ label: string }>;
  bars: readonly ChartBar[];
  formatValue?: (value: number) => string;
  csv: string;
  table: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-labelledby={`report-${id}`}
      className="flex min-w-0 flex-col gap-3"
      data-testid={`report-${id}`}
    >
      <h2 id={`report-${id}`} className="font-semibold text-ink text-xl">
        {title}
      </h2>
      <div className="max-w-3xl">
        <ReportChart
          id={`chart-${id}`}
          title={title}
          summary={summary}
          series={series}
          bars={bars}
          {...(formatValue ? { formatValue } : {})}
        />
      </div>
      <ChartLegend series={series} />
      <p className="text-ink">{summary}</p>
      <div className="relative overflow-x-auto">
        <table className="text-left [&_td]:py-1 [&_td]:pr-4 [&_th]:py-1 [&_th]:pr-4 [&_th]:font-normal [&_thead_th]:font-semibold">
          <caption className="text-left font-semibold text-ink">
            {t("operations.reports.tableOf", { title })}
          </caption>
          {table}
        </table>
      </div>
      <p>
        <a href={csv} className="link" download>
          {t("operations.reports.csv", { title })}
        </a>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
