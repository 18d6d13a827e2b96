import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage, Notice } from "#app/components/page.tsx";
import { CAREER_OPENINGS } from "#app/lib/careers.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/index";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/careers");
  return { openings: CAREER_OPENINGS.map(({ slug, title }) => ({ slug, title })) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "careers");

export default function CareersPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <InfoPage page="careers">
      {loaderData.openings.length === 0 ? <Notice>{t("careers.noOpenings")}</Notice> : null}
    </InfoPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
