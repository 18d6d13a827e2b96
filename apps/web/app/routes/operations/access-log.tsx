import { AUDIT_ACTIONS } from "@ambercare/contracts/consultation-limits";
import type { AccessLogEntry } from "@ambercare/contracts/operations";
import { data, Form, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SelectField, TextField } from "#app/components/forms.tsx";
import {
  ACCESS_LOG_FIELDS,
  type AccessLogCriteria,
  type AccessLogField,
  accessLogSearchParams,
  parseAccessLogSearch,
} from "#app/features/operations/access-log-search.ts";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { type FormErrorResult, formError } from "#app/lib/forms.ts";
import { type TranslationKey, useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/access-log";

const SEARCH_FORM = "access-log-search";
const HEADERS = { "Cache-Control": "private, no-store" };

type Found = { rows: AccessLogEntry[]; total: number; perPage: number; page: number };
type LoaderData = {
  values: Record<AccessLogField, string>;
  /** What was searched, for the pages and the CSV link; null before a search or after a refusal. */
  criteria: AccessLogCriteria | null;
  found: Found | null;
  failed: FormErrorResult<AccessLogField> | null;
};

/**
 * /operations/access-log: every read or write of any patient's data, found by the patient's e-mail,
 * who acted, what was done and the days (a GET form: the search is in the address and works without
 * JavaScript), 50 a page, newest first, and the same search as a CSV download (ADR 065). The API
 * logs every search and export; the page as first opened asks it nothing.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const parsed = parseAccessLogSearch(new URL(request.url).searchParams);
  if (!parsed.ok) {
    return data<LoaderData>(
      { values: parsed.values, criteria: null, found: null, failed: formError(parsed.values, parsed.errors) },
      { status: 400, headers: HEADERS },
    );
  }
  if (!parsed.searched) {
    return data<LoaderData>(
      { values: parsed.values, criteria: null, found: null, failed: null },
      { headers: HEADERS },
    );
  }
  const { page, ...criteria } = parsed.query;
  try {
    const answer = await operationsApi(request, user, context).accessLog(parsed.query);
    return data<LoaderData>(
      {
        values: parsed.values,
        criteria,
        found: { ...answer, page },
        failed: null,
      },
      { headers: HEADERS },
    );
  } catch (error) {
    if (!isApiError(error) || error.status !== 400) throw error;
    const failure = describeApiError(error, { fallback: { key: "operations.errors.failed" } });
    return data<LoaderData>(
      {
        values: parsed.values,
        criteria: null,
        found: null,
        failed: formError(parsed.values, {}, failure.message),
      },
      { status: 400, headers: HEADERS },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsAccessLog");

const actionKey = (action: string) =>
  `records.audit.actions.${action.replaceAll(".", "_")}` as TranslationKey;

export default function OperationsAccessLogPage() {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  const { values, criteria, found, failed } = useLoaderData<typeof loader>();
  const errors = failed?.fieldErrors ?? {};
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <h1 className="font-bold text-3xl text-ink">{t("operations.accessLog.heading")}</h1>
      <p className="text-ink-muted">{t("operations.accessLog.lead")}</p>
      <ErrorSummary formId={SEARCH_FORM} result={failed ?? undefined} order={ACCESS_LOG_FIELDS} />
      <Form method="get" noValidate className="grid max-w-3xl grid-cols-1 gap-4 tablet:grid-cols-2">
        <TextField
          formId={SEARCH_FORM}
          name="patient"
          type="search"
          optional
          autoComplete="off"
          label={t("operations.accessLog.patient")}
          defaultValue={values.patient}
          error={errors.patient}
        />
        <TextField
          formId={SEARCH_FORM}
          name="actor"
          type="search"
          optional
          autoComplete="off"
          label={t("operations.accessLog.actor")}
          defaultValue={values.actor}
          error={errors.actor}
        />
        <SelectField
          formId={SEARCH_FORM}
          name="action"
          optional
          label={t("operations.accessLog.action")}
          defaultValue={values.action}
          error={errors.action}
          options={AUDIT_ACTIONS.map((action) => ({ value: action, label: t(actionKey(action)) }))}
        />
        <div className="hidden tablet:block" />
        <TextField
          formId={SEARCH_FORM}
          name="from"
          type="date"
          optional
          label={t("operations.accessLog.from")}
          hint={t("operations.accessLog.dayHint")}
          defaultValue={values.from}
          error={errors.from}
        />
        <TextField
          formId={SEARCH_FORM}
          name="to"
          type="date"
          optional
          label={t("operations.accessLog.to")}
          hint={t("operations.accessLog.dayHint")}
          defaultValue={values.to}
          error={errors.to}
        />
        <div>
          <button type="submit" className="button-primary">
            {t("operations.accessLog.submit")}
          </button>
        </div>
      </Form>
      {found && criteria ? <Results found={found} criteria={criteria} when={when} /> : null}
    </div>
  );
}

function Results({
  found,
  criteria,
  when,
}: {
  found: Found;
  criteria: AccessLogCriteria;
  when: (at: string) => string;
}) {
  const { t } = useTranslation();
  const { rows, total, perPage, page } = found;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const pageAddress = (at: number) => `/operations/access-log?${accessLogSearchParams(criteria, at)}`;
  return (
    <section aria-labelledby="access-log-results" className="flex flex-col gap-4">
      <h2 id="access-log-results" className="font-semibold text-ink text-xl">
        {t("operations.accessLog.results")}{" "}
        <span className="font-normal text-ink-muted">
          ({t("operations.accessLog.count", { count: total })})
        </span>
      </h2>
      <p>
        <a
          href={`/operations/access-log/export?${accessLogSearchParams(criteria)}`}
          className="link"
          download
        >
          {t("operations.accessLog.export")}
        </a>{" "}
        <span className="text-ink-muted text-sm">{t("operations.accessLog.exportHint")}</span>
      </p>
      {rows.length === 0 ? (
        <p role="status">{t("operations.accessLog.none")}</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left" data-testid="access-log-results">
            <caption className="sr-only">{t("operations.accessLog.caption")}</caption>
            <thead>
              <tr className="text-ink-muted text-sm">
                <th scope="col" className="py-1 pr-4">
                  {t("operations.accessLog.when")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.accessLog.who")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.accessLog.whose")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.accessLog.what")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.accessLog.where")}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-border border-t align-top">
                  <td className="py-2 pr-4">{when(row.at)}</td>
                  <td className="break-all py-2 pr-4">
                    {row.actor_email ?? "—"}{" "}
                    <span className="text-ink-muted text-sm">
                      ({t(`operations.accessLog.actors.${row.actor_kind}` as TranslationKey)})
                    </span>
                  </td>
                  <td className="break-all py-2 pr-4">{row.patient_email}</td>
                  <td className="py-2 pr-4">
                    {t(actionKey(row.action))}
                    {row.count > 1 ? ` (${t("records.audit.times", { count: row.count })})` : null}
                  </td>
                  <td className="py-2 pr-4">{row.ip ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 ? (
        <nav aria-label={t("operations.accessLog.pages")} className="flex flex-wrap items-center gap-4">
          {page > 1 ? (
            <a href={pageAddress(page - 1)} className="link">
              {t("operations.log.previous")}
            </a>
          ) : null}
          <span>{t("operations.log.page", { page, pages })}</span>
          {page < pages ? (
            <a href={pageAddress(page + 1)} className="link">
              {t("operations.log.next")}
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
