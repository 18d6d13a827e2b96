import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { useProductName } from "#app/lib/root-data.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/home";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/");
  return null;
}

// The home page has no page name: its title is the product name alone (spec §1).
export const meta: Route.MetaFunction = (args) => pageMeta(args, null);

const FEATURES = [
  { key: "consultations", to: "/find-a-doctor" },
  { key: "membership", to: "/membership" },
  { key: "oneTimeVisit", to: "/one-time-visit" },
] as const;

export default function HomePage() {
  const { t } = useTranslation();
  const product = useProductName();
  return (
    <>
      <section aria-labelledby="home-title" className="bg-surface-muted">
        <div className="page-container py-14 tablet:py-20">
          <div className="max-w-3xl">
            <h1 id="home-title" className="font-bold text-3xl text-ink leading-tight tablet:text-5xl">
              {t("home.heroTitle")}
            </h1>
            <p className="mt-5 text-ink-muted text-lg tablet:text-xl">{t("home.heroLead", { product })}</p>
            <div className="mt-8 flex flex-col gap-3 mobile-l:flex-row">
              <Link to="/find-a-doctor" className="button-primary">
                {t("home.ctaFindDoctor")}
              </Link>
              <Link to="/pricing-options" className="button-secondary">
                {t("home.ctaPricing")}
              </Link>
            </div>
          </div>
        </div>
      </section>
      <section aria-labelledby="home-features" className="page-container py-12 tablet:py-16">
        <h2 id="home-features" className="font-bold text-2xl text-ink tablet:text-3xl">
          {t("home.featuresHeading", { product })}
        </h2>
        <ul className="mt-8 grid gap-6 tablet:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.key} className="rounded-lg border border-border bg-surface p-6 shadow-sm">
              <h3 className="font-semibold text-ink text-xl">
                <Link to={feature.to} className="link">
                  {t(`home.features.${feature.key}.title`)}
                </Link>
              </h3>
              <p className="mt-3 text-ink-muted">{t(`home.features.${feature.key}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
