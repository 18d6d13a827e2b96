import { data, Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Notice, PageHeading } from "#app/components/page.tsx";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/specializations";

/** The specializations of the main API (the same list as the find-a-doctor filter). */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const specializations = await fetchSpecializations(requestLocale(request), { context });
  return data({ specializations }, { status: specializations ? 200 : 503 });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "specializations");

export default function SpecializationsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { specializations } = loaderData;
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="specializations" />
      {specializations === null ? (
        <Notice>{t("directory.specializationsPage.unavailable")}</Notice>
      ) : (
        <ul className="mt-10 grid gap-6 tablet:grid-cols-2">
          {specializations.map((specialization) => (
            <li key={specialization.slug}>
              <section
                aria-labelledby={`specialization-${specialization.slug}`}
                className="flex h-full flex-col gap-3 rounded-lg border border-border bg-surface p-5"
              >
                <h2 id={`specialization-${specialization.slug}`} className="font-bold text-ink text-xl">
                  {specialization.name}
                </h2>
                <p className="text-ink-muted">{specialization.description}</p>
                {specialization.conditions.length > 0 ? (
                  <>
                    <h3 className="font-semibold text-ink">
                      {t("directory.specializationsPage.conditions")}
                    </h3>
                    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                      {specialization.conditions.map((condition) => (
                        <li key={condition.slug}>
                          <Link to={`/find-a-doctor?condition=${condition.slug}`} className="link">
                            {condition.name}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                <p className="mt-auto pt-2">
                  <Link
                    to={`/find-a-doctor?specialization=${specialization.slug}`}
                    className="button-secondary"
                  >
                    {t("directory.specializationsPage.findDoctors", { name: specialization.name })}
                  </Link>
                </p>
              </section>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
