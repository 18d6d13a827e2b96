import { PROVIDER_QUERY_MAX_LENGTH } from "@ambercare/contracts/provider-limits";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Notice, PageHeading } from "#app/components/page.tsx";
import {
  availabilityChoice,
  fetchCatalogue,
  type NamedOption,
  type SearchValues,
  searchDirectory,
} from "#app/features/directory/directory.server.ts";
import {
  activeFilterCount,
  FiltersDisclosure,
  Pagination,
  ProviderCard,
} from "#app/features/directory/directory.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import { useUsStateNames } from "#app/lib/us-state-names.ts";
import type { Route } from "./+types/find-a-doctor";

export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const url = new URL(request.url);
  const availability = availabilityChoice(request, url.searchParams);
  if (availability.redirectTo) throw redirect(availability.redirectTo);
  const locale = requestLocale(request);
  const [search, catalogue] = await Promise.all([
    searchDirectory(url.searchParams, locale, context),
    fetchCatalogue(locale, context),
  ]);
  const status = search.status === "ok" ? 200 : search.status === "invalid" ? 400 : 503;
  return data(
    { search, catalogue: catalogue ?? { specializations: [], conditions: [] } },
    {
      status,
      headers: availability.setCookie ? { "Set-Cookie": availability.setCookie } : undefined,
    },
  );
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "findADoctor");

const FORM_ID = "find-a-doctor";
const CONTROL =
  "min-h-11 w-full rounded-md border-2 border-ink-muted bg-surface px-3 py-2 text-base text-ink";

function Select({
  name,
  label,
  any,
  options,
  value,
}: {
  name: string;
  label: string;
  any: string;
  options: readonly NamedOption[];
  value: string | undefined;
}) {
  const id = `${FORM_ID}-${name}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-semibold text-ink">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className={CONTROL}>
        <option value="">{any}</option>
        {options.map((option) => (
          <option key={option.slug} value={option.slug}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The filters: a plain GET form, so the URL is the search (shareable, Back restores it) and it works
 * without JavaScript. Keyed by the URL so Back and the pagination refill it.
 */
function Filters({
  values,
  specializations,
  conditions,
}: {
  values: SearchValues;
  specializations: NamedOption[];
  conditions: NamedOption[];
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const { states: stateNames } = useUsStateNames();
  const states = stateNames.map((state) => ({ slug: state.code, name: state.name }));
  return (
    <section
      aria-labelledby={`${FORM_ID}-heading`}
      className="rounded-lg border border-border bg-surface-muted p-5"
    >
      <FiltersDisclosure headingId={`${FORM_ID}-heading`} activeCount={activeFilterCount(values)}>
        <Form
          key={location.search}
          method="get"
          action="/find-a-doctor"
          role="search"
          aria-label={t("directory.searchLabel")}
          className="mt-4 flex flex-col gap-4"
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={`${FORM_ID}-q`} className="font-semibold text-ink">
              {t("directory.fields.q")}
            </label>
            <p id={`${FORM_ID}-q-hint`} className="text-ink-muted text-sm">
              {t("directory.fields.qHint")}
            </p>
            <input
              id={`${FORM_ID}-q`}
              name="q"
              type="search"
              autoComplete="off"
              maxLength={PROVIDER_QUERY_MAX_LENGTH}
              defaultValue={values.q ?? ""}
              aria-describedby={`${FORM_ID}-q-hint`}
              className={CONTROL}
            />
          </div>
          <Select
            name="specialization"
            label={t("directory.fields.specialization")}
            any={t("directory.any.specialization")}
            options={specializations}
            value={values.specialization}
          />
          <Select
            name="condition"
            label={t("directory.fields.condition")}
            any={t("directory.any.condition")}
            options={conditions}
            value={values.condition}
          />
          <Select
            name="state"
            label={t("directory.fields.state")}
            any={t("directory.any.state")}
            options={states}
            value={values.state}
          />
          <fieldset className="flex flex-col gap-2">
            <legend className="font-semibold text-ink">{t("directory.fields.type")}</legend>
            {[
              ["", t("directory.any.type")] as const,
              ...VISIT_TYPE_IDS.map((type) => [type, t(`directory.types.${type}`)] as const),
            ].map(([value, label]) => (
              <label key={value || "any"} className="flex items-center gap-3 text-ink">
                <input
                  type="radio"
                  name="type"
                  value={value}
                  defaultChecked={(values.type ?? "") === value}
                  className="size-5 accent-primary-ink"
                />
                {label}
              </label>
            ))}
          </fieldset>
          <label className="flex items-center gap-3 text-ink">
            <input
              type="checkbox"
              name="available_today"
              value="true"
              defaultChecked={values.available_today === "true"}
              className="size-5 accent-primary-ink"
            />
            {t("directory.fields.availableToday")}
          </label>
          <div className="flex flex-col gap-1">
            <label htmlFor={`${FORM_ID}-sort`} className="font-semibold text-ink">
              {t("directory.fields.sort")}
            </label>
            <select
              id={`${FORM_ID}-sort`}
              name="sort"
              defaultValue={values.sort ?? "rating"}
              className={CONTROL}
            >
              <option value="rating">{t("directory.sorts.rating")}</option>
              <option value="name">{t("directory.sorts.name")}</option>
            </select>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <button type="submit" className="button-primary">
              {t("directory.submit")}
            </button>
            <ClearFilters />
          </div>
        </Form>
      </FiltersDisclosure>
    </section>
  );
}

/**
 * Back to every doctor. It carries the default sort, so the visit counts as a search and the
 * remembered "available today" choice is cleared with the rest (docs/decisions/014).
 */
function ClearFilters() {
  const { t } = useTranslation();
  return (
    <Link to="/find-a-doctor?sort=rating" className="link">
      {t("directory.clear")}
    </Link>
  );
}

function Results({ search }: { search: Route.ComponentProps["loaderData"]["search"] }) {
  const { t } = useTranslation();
  const location = useLocation();
  if (search.status === "unavailable") {
    return <Notice>{t("directory.unavailable")}</Notice>;
  }
  if (search.status === "invalid") {
    const fields = search.invalid.map((field) => t(`directory.invalid.fields.${field}`)).join(", ");
    return (
      <div role="alert" className="rounded-md border-4 border-danger bg-surface p-4">
        <h2 className="font-bold text-ink text-lg">{t("directory.invalid.title")}</h2>
        <p className="mt-2 text-ink">{t("directory.invalid.text", { fields })}</p>
        <p className="mt-3">
          <ClearFilters />
        </p>
      </div>
    );
  }
  const { providers, total, page, pageCount, perPage } = search;
  const from = (page - 1) * perPage + 1;
  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading" className="font-bold text-ink text-xl">
        {t("directory.resultsHeading")}
      </h2>
      {/* Announced when a search or a page change replaces the results. */}
      <div role="status" className="mt-2 text-ink">
        <p className="font-semibold">{t("directory.resultCount", { count: total })}</p>
        {providers.length > 0 ? (
          <p className="text-ink-muted text-sm">
            {t("directory.showing", {
              from,
              to: from + providers.length - 1,
              total,
              page,
              pages: pageCount,
            })}
          </p>
        ) : null}
      </div>
      {providers.length === 0 ? (
        <div className="mt-6">
          {total > 0 ? (
            <EmptyState
              title={t("directory.empty.title")}
              action={
                <Link to={`/find-a-doctor${pageOneSearch(location.search)}`} className="link">
                  {t("directory.empty.firstPage")}
                </Link>
              }
            >
              <p>{t("directory.empty.pastEnd", { page, pages: pageCount })}</p>
            </EmptyState>
          ) : (
            <EmptyState
              title={t("directory.empty.title")}
              testId="directory-empty"
              action={
                <>
                  <ClearFilters />
                  <Link to="/consultation/consult" className="link">
                    {t("directory.empty.anyClinician")}
                  </Link>
                </>
              }
            >
              <p>{t("directory.empty.text")}</p>
              <p className="mt-2">{t("directory.empty.purpose")}</p>
            </EmptyState>
          )}
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 desktop:grid-cols-2">
          {providers.map((provider) => (
            <li key={provider.id}>
              <ProviderCard provider={provider} />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} search={location.search} />
    </section>
  );
}

function pageOneSearch(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("page");
  const query = params.toString();
  return query ? `?${query}` : "";
}

export default function FindADoctorPage({ loaderData }: Route.ComponentProps) {
  const { search, catalogue } = loaderData;
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="findADoctor" />
      <div className="mt-8 grid gap-8 laptop:grid-cols-[20rem_1fr]">
        <Filters
          values={search.values}
          specializations={catalogue.specializations}
          conditions={catalogue.conditions}
        />
        <div className="min-w-0">
          <Results search={search} />
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
