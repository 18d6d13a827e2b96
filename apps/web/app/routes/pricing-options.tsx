import { TRIAL_DAYS, VISIT_PLAN_KEYS } from "@ambercare/contracts/membership-constants";
import { PLANS } from "@ambercare/contracts/plans";
import { Link } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { PageHeading } from "#app/components/page.tsx";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import { BenefitsList, IntervalPrice } from "#app/features/membership/membership.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/pricing-options";

export async function loader({ request, pattern }: Route.LoaderArgs) {
  await requireRouteAccess(request, pattern);
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "pricingOptions");

const CARD = "flex flex-col rounded-lg border-2 border-border bg-surface p-6";

/** Every plan with its price from plans.ts: both memberships and each kind of one-time visit. */
export default function PricingOptionsPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="pricingOptions" />

      <section aria-labelledby="pricing-membership" className="mt-10">
        <h2 id="pricing-membership" className="font-bold text-2xl text-ink">
          {t("membership.pricing.membershipHeading")}
        </h2>
        <p className="mt-2 max-w-3xl text-ink-muted">{t("membership.pricing.membershipLead")}</p>
        <ul className="mt-6 grid gap-6 tablet:grid-cols-2">
          {(["month", "year"] as const).map((interval) => (
            <li key={interval} className={CARD}>
              <h3 className="font-bold text-ink text-xl">{t(`membership.interval.${interval}`)}</h3>
              <p className="mt-2 font-bold text-3xl text-ink">
                {formatAmount(
                  PLANS[interval === "month" ? "subscription_monthly" : "subscription_yearly"].chargeCents,
                )}
                <span className="font-normal text-base text-ink-muted">
                  {" "}
                  {t(`membership.pricing.per.${interval}`)}
                </span>
              </p>
              <p className="mt-1 text-ink-muted">
                <IntervalPrice interval={interval} />
              </p>
              <BenefitsList className="mt-4 flex-1" />
              <Link to="/membership-trial" className="button-primary mt-6">
                {t("membership.pricing.startTrial", { days: TRIAL_DAYS })}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="pricing-visits" className="mt-12">
        <h2 id="pricing-visits" className="font-bold text-2xl text-ink">
          {t("membership.pricing.visitsHeading")}
        </h2>
        <p className="mt-2 max-w-3xl text-ink-muted">{t("membership.pricing.visitsLead")}</p>
        <ul className="mt-6 grid gap-6 tablet:grid-cols-2">
          {VISIT_PLAN_KEYS.map((plan) => (
            <li key={plan} className={CARD}>
              <h3 className="font-bold text-ink text-xl">{t(`membership.visits.${plan}.name`)}</h3>
              <p className="mt-2 font-bold text-3xl text-ink">
                {formatAmount(PLANS[plan].priceCents)}
                <span className="font-normal text-base text-ink-muted">
                  {" "}
                  {t("membership.pricing.perVisit")}
                </span>
              </p>
              <p className="mt-3 flex-1 text-ink">{t(`membership.visits.${plan}.included`)}</p>
              <Link to="/one-time-visit" className="button-secondary mt-6">
                {t("membership.pricing.buyVisit")}
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="pricing-questions" className="mt-12 max-w-3xl">
        <h2 id="pricing-questions" className="font-bold text-2xl text-ink">
          {t("membership.pricing.questionsHeading")}
        </h2>
        <p className="mt-2 text-ink">
          {t("membership.pricing.questionsText")}{" "}
          <Link to="/frequently-asked-questions" className="link">
            {t("membership.pricing.faqLink")}
          </Link>
        </p>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
