import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/thank-you-for-ordering";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "thankYouForOrdering");

const NEXT = ["consult", "receipt", "help"] as const;

export default function ThankYouForOrderingPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="thankYouForOrdering" />
      <section aria-labelledby="ordered-next" className="mt-8 max-w-3xl">
        <h2 id="ordered-next" className="font-bold text-2xl text-ink">
          {t("membership.thankYou.nextHeading")}
        </h2>
        <ul className="mt-4 flex list-disc flex-col gap-2 pl-6 text-ink">
          {NEXT.map((item) => (
            <li key={item}>{t(`membership.thankYou.ordered.${item}`)}</li>
          ))}
        </ul>
        <div className="mt-8 flex flex-col gap-3 tablet:flex-row">
          <Link to="/consultation/consult" className="button-primary">
            {t("membership.thankYou.consultLink")}
          </Link>
          <Link to="/my-profile/billing-history" className="button-secondary">
            {t("membership.thankYou.billingLink")}
          </Link>
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
