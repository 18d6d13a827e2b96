import { CONSULTATION_STATUSES } from "@ambercare/contracts/consultation-limits";
import type { VisitSearchQuery } from "@ambercare/contracts/operations";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { data, Form, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/visits";

const SEARCH_FORM = "visit-search";
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What the search form asked, kept to what the API accepts (anything else is left out). */
function queryOf(url: URL): VisitSearchQuery {
  const value = (name: string) => url.searchParams.get(name)?.trim() ?? "";
  const query: VisitSearchQuery = {};
  const email = value("email");
  if (email) query.email = email.slice(0, 254);
  if (DAY.test(value("date"))) query.date = value("date");
  if ((US_STATE_CODES as readonly string[]).includes(value("state"))) query.state = value("state");
  const status = value("status");
  if ((CONSULTATION_STATUSES as readonly string[]).includes(status))
    query.status = status as VisitSearchQuery["status"];
  return query;
}

/**
 * /operations/visits: find visits by the patient's e-mail, the day, the state or the status (a GET
 * form: the search is in the address, and works without JavaScript). A search is logged by the API.
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const query = queryOf(new URL(request.url));
  const searched = Object.keys(query).length > 0;
  const visits = searched ? await operationsApi(request, user, context).visits(query) : [];
  return data({ query, searched, visits }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsVisits");

export default function OperationsVisitsPage() {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  const { query, searched, visits } = useLoaderData<typeof loader>();
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <h1 className="font-bold text-3xl text-ink">{t("operations.visits.heading")}</h1>
      <Form method="get" className="grid max-w-3xl grid-cols-1 gap-4 tablet:grid-cols-2">
        <TextField
          formId={SEARCH_FORM}
          name="email"
          type="search"
          optional
          autoComplete="off"
          label={t("operations.visits.email")}
          defaultValue={query.email ?? ""}
        />
        <TextField
          formId={SEARCH_FORM}
          name="date"
          type="date"
          optional
          label={t("operations.visits.date")}
          defaultValue={query.date ?? ""}
        />
        <SelectField
          formId={SEARCH_FORM}
          name="state"
          optional
          label={t("operations.visits.state")}
          defaultValue={query.state ?? ""}
          options={US_STATE_CODES.map((code) => ({
            value: code,
            label: t(`profile.states.${code}` as "profile.states.TX"),
          }))}
        />
        <SelectField
          formId={SEARCH_FORM}
          name="status"
          optional
          label={t("operations.visits.status")}
          defaultValue={query.status ?? ""}
          options={CONSULTATION_STATUSES.map((status) => ({
            value: status,
            label: t(`consultation.statuses.${status}`),
          }))}
        />
        <div>
          <button type="submit" className="button-primary">
            {t("operations.visits.submit")}
          </button>
        </div>
      </Form>
      {searched ? (
        <section aria-labelledby="results-title" className="flex flex-col gap-4">
          <h2 id="results-title" className="font-semibold text-ink text-xl">
            {t("operations.visits.results")}{" "}
            <span className="font-normal text-ink-muted">
              ({t("operations.visits.count", { count: visits.length })})
            </span>
          </h2>
          {visits.length === 0 ? (
            <p role="status">{t("operations.visits.none")}</p>
          ) : (
            <>
              <p className="text-ink-muted text-sm">{t("operations.visits.limit")}</p>
              <div className="relative overflow-x-auto">
                <table className="w-full text-left" data-testid="visit-results">
                  <caption className="sr-only">{t("operations.visits.results")}</caption>
                  <thead>
                    <tr className="text-ink-muted text-sm">
                      <th scope="col" className="py-1 pr-4">
                        {t("operations.visits.requested")}
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        {t("operations.visits.patient")}
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        {t("operations.visits.state")}
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        {t("operations.visits.type")}
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        {t("operations.visits.status")}
                      </th>
                      <th scope="col" className="py-1 pr-4">
                        {t("operations.visits.provider")}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {visits.map((visit) => (
                      <tr key={visit.id} className="border-border border-t align-top">
                        <td className="py-2 pr-4">
                          <a href={`/operations/visits/${visit.id}`} className="link">
                            {when(visit.created_at)}
                            <span className="sr-only">: {visit.patient_email}</span>
                          </a>
                        </td>
                        <td className="break-all py-2 pr-4">{visit.patient_email}</td>
                        <td className="py-2 pr-4">{visit.state ?? "—"}</td>
                        <td className="py-2 pr-4">
                          {t(`consultation.types.${visit.type}` as "consultation.types.chat")}
                        </td>
                        <td className="py-2 pr-4">{t(`consultation.statuses.${visit.status}`)}</td>
                        <td className="py-2 pr-4">{visit.provider_name ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
