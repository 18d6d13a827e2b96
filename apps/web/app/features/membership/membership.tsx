import {
  type BillingInterval,
  PLAN_FOR_INTERVAL,
  TRIAL_DAYS,
} from "@ambercare/contracts/membership-constants";
import { PLANS } from "@ambercare/contracts/plans";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { useId } from "react";
import { Form, Link } from "react-router";
import { ErrorSummary, SubmitButton, translateMessage } from "#app/components/forms.tsx";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import type { StartField } from "#app/features/membership/membership-forms.ts";
import { type FormErrorResult, fieldId } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useRootData } from "#app/lib/root-data.ts";

/** What a membership includes (ADR 015). */
/** Each kind of visit is included (one line per kind of visit-types.ts), then the rest. */
const BENEFITS = [...VISIT_TYPE_IDS, "doctors", "records", "cancel"] as const;

export function BenefitsList({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <ul className={`flex flex-col gap-2 ${className}`}>
      {BENEFITS.map((benefit) => (
        <li key={benefit} className="flex gap-2 text-ink">
          <span aria-hidden="true" className="font-bold text-primary-ink">
            ✓
          </span>
          <span>{t(`membership.benefits.${benefit}`)}</span>
        </li>
      ))}
    </ul>
  );
}

/** "$9 a month, billed every month" / "$9 a month, billed $108 once a year" for an interval. */
export function IntervalPrice({ interval }: { interval: BillingInterval }) {
  const { t } = useTranslation();
  const plan = PLANS[PLAN_FOR_INTERVAL[interval]];
  const text =
    interval === "month"
      ? t("membership.price.monthly", { amount: formatAmount(plan.chargeCents) })
      : t("membership.price.yearly", {
          amount: formatAmount(plan.priceCents),
          total: formatAmount(plan.chargeCents),
        });
  return <>{text}</>;
}

const INTERVALS: readonly BillingInterval[] = ["month", "year"];

/**
 * Monthly or yearly, then the checkout: the form of /membership, /membership-trial and Manage
 * subscription (it posts `intent=subscribe` to the page's own action). A patient who is a member
 * already is sent to Manage subscription instead.
 */
export function StartMembershipForm({
  result,
  submitLabel,
  formId = "start-membership",
  defaultInterval = "month",
  always = false,
}: {
  result: FormErrorResult<StartField> | undefined;
  submitLabel: string;
  formId?: string;
  defaultInterval?: BillingInterval;
  /** Show the form even when the session says "subscribed" (the page has just looked it up). */
  always?: boolean;
}) {
  const { t } = useTranslation();
  const root = useRootData();
  const legendId = useId();
  if (root?.user.isSubscribed && !always) {
    return (
      <p className="mt-6 rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink">
        {t("membership.alreadyMember")}{" "}
        <Link to="/my-profile/manage-subscription" className="link">
          {t("membership.manageLink")}
        </Link>
      </p>
    );
  }
  const chosen = result?.values.interval || defaultInterval;
  const intervalError = result?.fieldErrors.interval;
  return (
    <div className="mt-6">
      <ErrorSummary formId={formId} result={result} order={["interval"] as const} />
      <Form method="post" className="flex flex-col gap-5">
        <input type="hidden" name="intent" value="subscribe" />
        <fieldset
          aria-labelledby={legendId}
          aria-describedby={intervalError ? `${fieldId(formId, "interval")}-error` : undefined}
          className="flex flex-col gap-3"
        >
          <legend id={legendId} className="font-semibold text-ink">
            {t("membership.intervalLegend")}
          </legend>
          {intervalError ? (
            <p id={`${fieldId(formId, "interval")}-error`} className="font-semibold text-danger">
              {translateMessage(t, intervalError)}
            </p>
          ) : null}
          {INTERVALS.map((interval, index) => {
            const id =
              index === 0 ? fieldId(formId, "interval") : `${fieldId(formId, "interval")}-${interval}`;
            return (
              <label
                key={interval}
                htmlFor={id}
                className="flex cursor-pointer items-start gap-3 rounded-md border-2 border-border p-4 has-checked:border-primary-ink"
              >
                <input
                  id={id}
                  type="radio"
                  name="interval"
                  value={interval}
                  defaultChecked={chosen === interval}
                  className="mt-1 size-5 shrink-0 accent-primary-ink"
                />
                <span className="flex flex-col">
                  <span className="font-semibold text-ink">{t(`membership.interval.${interval}`)}</span>
                  <span className="text-ink-muted">
                    <IntervalPrice interval={interval} />
                  </span>
                </span>
              </label>
            );
          })}
        </fieldset>
        <p className="text-ink-muted text-sm">{t("membership.trialNote", { days: TRIAL_DAYS })}</p>
        <div>
          <SubmitButton intent="subscribe" pendingLabel={t("membership.starting")}>
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
