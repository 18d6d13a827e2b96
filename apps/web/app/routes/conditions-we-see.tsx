import { data, Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Notice, PageHeading } from "#app/components/page.tsx";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/conditions-we-see";

/** The conditions of the main API's specializations, grouped by specialization as the API lists them. */
export async function loader({ request, pattern, context }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  const specializations = await fetchSpecializations(requestLocale(request), { context });
  const groups =
    specializations
      ?.filter((specialization) => specialization.conditions.length > 0)
      .map(({ slug, name, conditions }) => ({ slug, name, conditions })) ?? null;
  return data({ groups }, { status: groups ? 200 : 503 });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "conditionsWeSee");

export default function ConditionsWeSeePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { groups } = loaderData;
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="conditionsWeSee">
        {groups ? <p className="mt-2 text-ink">{t("directory.conditionsPage.lead")}</p> : null}
      </PageHeading>
      {groups === null ? (
        <Notice>{t("directory.conditionsPage.unavailable")}</Notice>
      ) : (
        <div className="mt-10 grid gap-8 tablet:grid-cols-2 laptop:grid-cols-3">
          {groups.map((group) => (
            <section key={group.slug} aria-labelledby={`conditions-${group.slug}`}>
              <h2 id={`conditions-${group.slug}`} className="font-bold text-ink text-xl">
                {group.name}
              </h2>
              <ul className="mt-3 flex flex-col gap-2">
                {group.conditions.map((condition) => (
                  <li key={condition.slug}>
                    <Link
                      to={`/find-a-doctor?condition=${condition.slug}`}
                      className="link"
                      aria-label={t("directory.conditionsPage.findDoctors", { name: condition.name })}
                    >
                      {condition.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
