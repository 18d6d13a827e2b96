import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { Notice } from "#app/components/page.tsx";
import { listOpenings, loadContentPage, type OpeningSummary } from "#app/features/content/content.server.ts";
import { ContentPage } from "#app/features/content/content-page.tsx";
import { OpeningFacts } from "#app/features/content/opening-facts.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { contentMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/index";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return { ...loadContentPage(request, "careers"), openings: listOpenings(requestLocale(request)) };
}

export const meta: Route.MetaFunction = (args) => contentMeta(args, "careers");

/** The open positions, from content/<locale>/careers/*.md, each linking to its page. */
function Openings({ openings }: { openings: OpeningSummary[] }) {
  const { t } = useTranslation();
  if (openings.length === 0) return <Notice>{t("careers.noOpenings")}</Notice>;
  return (
    <ul className="grid gap-4 tablet:grid-cols-2" aria-label={t("careersPage.openingsLabel")}>
      {openings.map((opening) => (
        <li
          key={opening.slug}
          className="flex flex-col rounded-lg border border-border bg-surface p-5 shadow-sm"
        >
          <h3 className="font-semibold text-ink text-lg">
            <Link to={`/careers/${opening.slug}`} className="link">
              {opening.title}
            </Link>
          </h3>
          <OpeningFacts opening={opening} className="mt-2 text-sm" />
          <p className="mt-3 text-ink-muted">{opening.description}</p>
        </li>
      ))}
    </ul>
  );
}

/** content/<locale>/careers.md, with the live list of openings where its "Open positions" list is. */
export default function CareersPage({ loaderData }: Route.ComponentProps) {
  return (
    <ContentPage
      document={loaderData.document}
      toc
      slots={{ openings: <Openings openings={loaderData.openings} /> }}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
