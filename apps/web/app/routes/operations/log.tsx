import { data, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { operationsApi } from "#app/features/operations/operations.server.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/log";

/** /operations/log: every operator action, newest first, a page at a time (ADR 065). */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const asked = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  const log = await operationsApi(request, user, context).actions(page);
  return data({ ...log, page }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsLog");

export default function OperationsLogPage() {
  const { t } = useTranslation();
  const when = useDateTime("dateTime");
  const { rows, total, perPage, page } = useLoaderData<typeof loader>();
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <div className="page-container flex flex-col gap-6 py-10">
      <h1 className="font-bold text-3xl text-ink">{t("operations.log.heading")}</h1>
      <p className="text-ink-muted">{t("operations.log.lead")}</p>
      {rows.length === 0 ? (
        <p>{t("operations.log.empty")}</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left" data-testid="operations-log">
            <caption className="sr-only">{t("operations.log.heading")}</caption>
            <thead>
              <tr className="text-ink-muted text-sm">
                <th scope="col" className="py-1 pr-4">
                  {t("operations.log.when")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.log.who")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.log.what")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.log.target")}
                </th>
                <th scope="col" className="py-1 pr-4">
                  {t("operations.log.from")}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className="border-border border-t align-top">
                  <td className="py-2 pr-4">{when(row.at)}</td>
                  <td className="break-all py-2 pr-4">{row.actor_email ?? "—"}</td>
                  <td className="py-2 pr-4">
                    {t(
                      `operations.log.actions.${row.action.replaceAll(".", "_")}` as "operations.log.actions.visit_read",
                    )}
                  </td>
                  <td className="break-all py-2 pr-4">
                    {typeof row.detail.email === "string"
                      ? row.detail.email
                      : typeof row.detail.slug === "string"
                        ? row.detail.slug
                        : (row.target_id ?? "—")}
                  </td>
                  <td className="py-2 pr-4">{row.ip ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav
        aria-label={t("operations.log.page", { page, pages })}
        className="flex flex-wrap items-center gap-4"
      >
        {page > 1 ? (
          <a href={`/operations/log?page=${page - 1}`} className="link">
            {t("operations.log.previous")}
          </a>
        ) : null}
        <span>{t("operations.log.page", { page, pages })}</span>
        {page < pages ? (
          <a href={`/operations/log?page=${page + 1}`} className="link">
            {t("operations.log.next")}
          </a>
        ) : null}
      </nav>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
