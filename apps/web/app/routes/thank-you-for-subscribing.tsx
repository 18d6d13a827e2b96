import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/thank-you-for-subscribing";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "thankYouForSubscribing");

const NEXT = ["consult", "trial", "manage"] as const;

export default function ThankYouForSubscribingPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="thankYouForSubscribing" />
      <section aria-labelledby="subscribed-next" className="mt-8 max-w-3xl">
        <h2 id="subscribed-next" className="font-bold text-2xl text-ink">
          {t("membership.thankYou.nextHeading")}
        </h2>
        <ul className="mt-4 flex list-disc flex-col gap-2 pl-6 text-ink">
          {NEXT.map((item) => (
            <li key={item}>{t(`membership.thankYou.subscribed.${item}`, { days: TRIAL_DAYS })}</li>
          ))}
        </ul>
        <div className="mt-8 flex flex-col gap-3 tablet:flex-row">
          <Link to="/consultation/consult" className="button-primary">
            {t("membership.thankYou.consultLink")}
          </Link>
          <Link to="/my-profile/manage-subscription" className="button-secondary">
            {t("membership.thankYou.manageLink")}
          </Link>
        </div>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
