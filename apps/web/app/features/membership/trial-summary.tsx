import type { Subscription } from "@ambercare/contracts/membership";
import { Link } from "react-router";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * Whether the membership's current period is its free trial: trialing, or canceled during the
 * trial (then the trial is the last period, and nothing will be charged).
 */
export function inFreeTrial(subscription: Subscription | null): subscription is Subscription & {
  trial_ends_at: string;
} {
  if (!subscription?.trial_ends_at) return false;
  if (subscription.status === "trialing") return true;
  return (
    subscription.status === "canceled" &&
    new Date(subscription.trial_ends_at).getTime() >= new Date(subscription.current_period_end).getTime()
  );
}

/**
 * The free trial as billing history tells it: a trial has no invoice yet, so the page says when
 * the trial ends and when, and how much, the first charge will be — or that none will come.
 */
export function TrialSummary({ subscription }: { subscription: Subscription & { trial_ends_at: string } }) {
  const { t } = useTranslation();
  const date = useDateTime("date");
  const charge =
    subscription.status === "trialing" &&
    subscription.next_charge_at !== null &&
    subscription.next_charge_amount_cents !== null
      ? { at: subscription.next_charge_at, cents: subscription.next_charge_amount_cents }
      : null;
  return (
    <section
      aria-labelledby="billing-trial"
      className="rounded-lg border-2 border-primary bg-surface p-5 text-ink"
      data-testid="billing-trial"
    >
      <h2 id="billing-trial" className="font-bold text-xl">
        {t("billing.trial.heading")}
      </h2>
      <p className="mt-2">
        {t("billing.trial.endsOn", {
          plan: t(`billing.plans.${subscription.plan}`),
          date: date(subscription.trial_ends_at),
        })}
      </p>
      <p className="mt-2 font-semibold">
        {charge
          ? t("billing.trial.firstCharge", { amount: formatAmount(charge.cents), date: date(charge.at) })
          : t("billing.trial.noCharge")}
      </p>
      <p className="mt-2 text-ink-muted">{t("billing.trial.invoicesLater")}</p>
      <p className="mt-4">
        <Link to="/my-profile/manage-subscription" className="link">
          {t("billing.trial.manage")}
        </Link>
      </p>
    </section>
  );
}
