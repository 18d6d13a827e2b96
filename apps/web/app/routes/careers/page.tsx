import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { requireOpening } from "#app/features/content/content.server.ts";
import { ContentPage } from "#app/features/content/content-page.tsx";
import { OpeningFacts } from "#app/features/content/opening-facts.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/page";

export async function loader({ request, pattern, params }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  // An unknown opening is a real 404 (not the catch-all redirect to /).
  return { opening: requireOpening(requestLocale(request), params.page) };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, "careerOpening", {
    name: args.loaderData?.opening.title,
    description: args.loaderData?.opening.description,
  });

/** One opening: content/<locale>/careers/<page>.md. */
export default function CareerOpeningPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { opening } = loaderData;
  return (
    <ContentPage document={opening} header={<OpeningFacts opening={opening} className="mt-4" />}>
      <p className="mt-10">
        <Link to="/careers" className="link">
          {t("careersPage.allOpenings")}
        </Link>
      </p>
    </ContentPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
