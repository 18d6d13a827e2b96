import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { Link, useActionData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { BenefitsList, StartMembershipForm } from "#app/features/membership/membership.tsx";
import { startMembership } from "#app/features/membership/membership-actions.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/membership";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

/** Monthly or yearly → the checkout (anonymous visitors log in first and come back here). */
export async function action({ request, pattern }: Route.ActionArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  return startMembership(request, user, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "membership");

export default function MembershipPage() {
  const { t } = useTranslation();
  const result = useActionData<typeof action>();
  return (
    <div className="page-container grid gap-10 py-10 tablet:py-14 laptop:grid-cols-2">
      <div>
        <PageHeading page="membership" />
        <section aria-labelledby="membership-benefits" className="mt-8">
          <h2 id="membership-benefits" className="font-bold text-2xl text-ink">
            {t("membership.benefitsHeading")}
          </h2>
          <BenefitsList className="mt-4" />
        </section>
        <p className="mt-8 text-ink">
          {t("membership.compareText")}{" "}
          <Link to="/pricing-options" className="link">
            {t("membership.compareLink")}
          </Link>
        </p>
      </div>
      <section aria-labelledby="membership-join" className="rounded-lg border-2 border-border p-6">
        <h2 id="membership-join" className="font-bold text-2xl text-ink">
          {t("membership.joinHeading")}
        </h2>
        <p className="mt-2 text-ink-muted">{t("membership.joinLead", { days: TRIAL_DAYS })}</p>
        <StartMembershipForm result={result} submitLabel={t("membership.join")} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
