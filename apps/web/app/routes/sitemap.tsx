import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { listOpenings } from "#app/features/content/content.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requestLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
// The one page that names every page: importing the page table itself brings their titles into this
// page's strings, and only this page's (ADR 042).
import { PAGES, pageSeo, ROUTE_PATHS, SITEMAP_GROUPS } from "#app/lib/pages.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/sitemap";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return {
    openings: listOpenings(requestLocale(request)).map(({ slug, title }) => ({ slug, title })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "sitemap");

/** The page table's pages by group (each entry's `seo.group` says where it goes, and why some do not). */
const GROUPS = SITEMAP_GROUPS.map((group) => ({
  group,
  links: ROUTE_PATHS.filter((path) => pageSeo(path).group === group).map((to) => ({
    to,
    page: PAGES[to].name,
  })),
}));

export default function SitemapPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="sitemap" />
      <div className="mt-10 grid gap-10 tablet:grid-cols-2 laptop:grid-cols-3 desktop:grid-cols-5">
        {GROUPS.map(({ group, links }) => (
          <section key={group} aria-labelledby={`sitemap-${group}`}>
            <h2 id={`sitemap-${group}`} className="font-semibold text-ink text-xl">
              {t(`sitemap.${group}`)}
            </h2>
            <ul className="mt-4 grid gap-2">
              {links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="link">
                    {t(`pages.${link.page}.title`)}
                  </Link>
                  {link.to === "/careers" && loaderData.openings.length > 0 ? (
                    <ul className="mt-2 grid gap-2 border-border border-s-2 ps-4">
                      {loaderData.openings.map((opening) => (
                        <li key={opening.slug}>
                          <Link to={`/careers/${opening.slug}`} className="link">
                            {opening.title}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
