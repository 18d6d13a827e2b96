import { TRIAL_DAYS } from "@ambercare/contracts/membership-constants";
import { useActionData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { BenefitsList, StartMembershipForm } from "#app/features/membership/membership.tsx";
import { startMembership } from "#app/features/membership/membership-actions.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/membership-trial";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

/** Start the trial: the membership checkout, which charges nothing until the trial ends. */
export async function action({ request, pattern }: Route.ActionArgs) {
  const { user } = await requireRouteAccess(request, pattern);
  return startMembership(request, user, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "membershipTrial");

const STEPS = ["choose", "card", "trial", "charge"] as const;

export default function MembershipTrialPage() {
  const { t } = useTranslation();
  const result = useActionData<typeof action>();
  return (
    <div className="page-container grid gap-10 py-10 tablet:py-14 laptop:grid-cols-2">
      <div>
        <PageHeading page="membershipTrial" />
        <section aria-labelledby="trial-how" className="mt-8">
          <h2 id="trial-how" className="font-bold text-2xl text-ink">
            {t("membership.trial.howHeading")}
          </h2>
          <ol className="mt-4 flex list-decimal flex-col gap-2 pl-6 text-ink">
            {STEPS.map((step) => (
              <li key={step}>{t(`membership.trial.steps.${step}`, { days: TRIAL_DAYS })}</li>
            ))}
          </ol>
          <p className="mt-4 text-ink">{t("membership.trial.once")}</p>
        </section>
        <section aria-labelledby="trial-benefits" className="mt-8">
          <h2 id="trial-benefits" className="font-bold text-2xl text-ink">
            {t("membership.benefitsHeading")}
          </h2>
          <BenefitsList className="mt-4" />
        </section>
      </div>
      <section aria-labelledby="trial-start" className="rounded-lg border-2 border-border p-6">
        <h2 id="trial-start" className="font-bold text-2xl text-ink">
          {t("membership.trial.startHeading", { days: TRIAL_DAYS })}
        </h2>
        <StartMembershipForm
          result={result}
          formId="start-trial"
          submitLabel={t("membership.trial.start", { days: TRIAL_DAYS })}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
