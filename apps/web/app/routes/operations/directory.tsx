import { data, Form, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { TextField } from "#app/components/forms.tsx";
import { directoryEditorApi } from "#app/features/operations/directory-editor.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/directory";

const SEARCH_FORM = "directory-search";

/**
 * /operations/directory: every provider, listed or not, by part of a name or slug (a GET form that
 * works without JavaScript), with their licences and whether patients find them (ADR 065).
 */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const asked = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  const found = await directoryEditorApi(request, user, context).list({ ...(q ? { q } : {}), page });
  return data({ ...found, q, page }, { headers: { "Cache-Control": "private, no-store" } });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "operationsDirectory");

export default function OperationsDirectoryPage() {
  const { t } = useTranslation();
  const { rows, total, perPage, q, page } = useLoaderData<typeof loader>();
  const pages = Math.max(1, Math.ceil(total / perPage));
  const pageLink = (to: number) =>
    `/operations/directory?${new URLSearchParams({ ...(q ? { q } : {}), page: String(to) })}`;
  return (
    <div className="page-container flex flex-col gap-8 py-10">
      <div className="flex flex-col gap-2">
        <h1 className="font-bold text-3xl text-ink">{t("operations.directory.heading")}</h1>
        <p className="text-ink-muted">{t("operations.directory.lead")}</p>
      </div>
      <div>
        <a href="/operations/directory/new" className="button-primary inline-block">
          {t("operations.directory.add")}
        </a>
      </div>
      <Form method="get" className="flex max-w-xl flex-col gap-4 tablet:flex-row tablet:items-end">
        <div className="grow">
          <TextField
            formId={SEARCH_FORM}
            name="q"
            type="search"
            optional
            autoComplete="off"
            label={t("operations.directory.search")}
            defaultValue={q}
            maxLength={100}
          />
        </div>
        <div>
          <button type="submit" className="button-secondary w-full tablet:w-auto">
            {t("operations.directory.submit")}
          </button>
        </div>
      </Form>
      <section aria-labelledby="providers-title" className="flex flex-col gap-4">
        <h2 id="providers-title" className="font-semibold text-ink text-xl">
          {t("operations.directory.results")}{" "}
          <span className="font-normal text-ink-muted">
            ({t("operations.directory.count", { count: total })})
          </span>
        </h2>
        {rows.length === 0 ? (
          <p role="status">{t("operations.directory.none")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-border" data-testid="directory-results">
            {rows.map((provider) => {
              const name = `${provider.first_name} ${provider.last_name}, ${provider.credentials}`;
              return (
                <li key={provider.id} className="flex flex-col gap-1 py-3">
                  <a href={`/operations/directory/${provider.id}`} className="link break-words font-semibold">
                    {name}
                    <span className="sr-only"> — {t("operations.directory.edit")}</span>
                  </a>
                  <span className="break-all text-ink-muted text-sm">{provider.slug}</span>
                  <span className="text-sm">
                    {provider.unlisted_at ? (
                      <strong className="text-danger">{t("operations.directory.unlisted")}</strong>
                    ) : (
                      t("operations.directory.listed")
                    )}
                  </span>
                  <span className="text-sm">
                    {t("operations.directory.licences")}:{" "}
                    {provider.licences.length === 0
                      ? t("operations.directory.noLicence")
                      : provider.licences
                          .map((licence) =>
                            licence.expires_on === null
                              ? licence.state
                              : `${licence.state} (${t(
                                  licence.in_force
                                    ? "operations.directory.expires"
                                    : "operations.directory.expired",
                                  { date: licence.expires_on },
                                )})`,
                          )
                          .join(", ")}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      {pages > 1 ? (
        <nav
          aria-label={t("operations.directory.page", { page, pages })}
          className="flex flex-wrap items-center gap-4"
        >
          {page > 1 ? (
            <a href={pageLink(page - 1)} className="link">
              {t("operations.directory.previous")}
            </a>
          ) : null}
          <span>{t("operations.directory.page", { page, pages })}</span>
          {page < pages ? (
            <a href={pageLink(page + 1)} className="link">
              {t("operations.directory.next")}
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
