import {
  BILLING_INTERVALS,
  type BillingInterval,
  chargeForInterval,
  type Subscription,
} from "@ambercare/contracts/membership";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, StatusMessage, SubmitButton } from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { formatAmount, formatCardBrand } from "#app/features/membership/billing-format.ts";
import {
  BILLING_ERROR_OPTIONS,
  changeInterval,
  lookupSubscription,
  resumeSubscription,
  subscriptionCookies,
} from "#app/features/membership/membership.server.ts";
import { StartMembershipForm } from "#app/features/membership/membership.tsx";
import { type StartResult, startMembership } from "#app/features/membership/membership-actions.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormErrorResult, type FormMessage, formError, formSuccess } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { headersWithCookies, requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/manage-subscription";

/**
 * The patient's membership: its status (trial, active, canceled…), the next charge, and what can be
 * done with it — cancel (through /cancel-subscription and its feedback form), resume before the
 * period ends, change the billing interval, or start one when there is none.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  try {
    const subscription = await lookupSubscription(request, user);
    // The lookup is fresh: the session's subscription flags follow it.
    return data(
      { subscription, lookupError: null },
      { headers: headersWithCookies(subscriptionCookies(request, subscription)) },
    );
  } catch (error) {
    if (!isApiError(error)) throw error;
    // A failed lookup shows the response's error, or 'An unexpected error occurred'.
    return { subscription: null, lookupError: describeApiError(error, BILLING_ERROR_OPTIONS).message };
  }
}

type ManageAction =
  | { intent: "subscribe"; result: StartResult }
  | {
      intent: "resume" | "interval";
      result: FormErrorResult<"interval"> | { status: "success"; message: FormMessage };
    };

export async function action({ request, pattern }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent === "subscribe") {
    const answer = await startMembership(request, user, formData);
    if (answer instanceof Response) return answer;
    return data<ManageAction>({ intent: "subscribe", result: answer.data }, { status: answer.init?.status });
  }
  const kind = intent === "resume" ? "resume" : "interval";
  const rawInterval = formData.get("interval");
  const interval = BILLING_INTERVALS.find((value) => value === rawInterval);
  const values = { interval: typeof rawInterval === "string" ? rawInterval : "" };
  if (kind === "interval" && !interval) {
    return data<ManageAction>(
      { intent: kind, result: formError(values, { interval: { key: "membership.errors.interval" } }) },
      { status: 400 },
    );
  }
  try {
    const subscription =
      kind === "resume"
        ? await resumeSubscription(request, user)
        : await changeInterval(request, user, interval as BillingInterval);
    const message: FormMessage =
      kind === "resume" ? { key: "membership.manage.resumed" } : { key: "membership.manage.intervalChanged" };
    return data<ManageAction>(
      { intent: kind, result: formSuccess(message) },
      { headers: headersWithCookies(subscriptionCookies(request, subscription)) },
    );
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, BILLING_ERROR_OPTIONS);
    return data<ManageAction>(
      { intent: kind, result: formError(values, {}, failure.message) },
      { status: failure.status },
    );
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "manageSubscription");

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 border-border border-b py-3 tablet:flex-row tablet:gap-4">
      <dt className="font-semibold text-ink tablet:w-56 tablet:shrink-0">{term}</dt>
      <dd className="text-ink">{children}</dd>
    </div>
  );
}

function SubscriptionDetails({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const date = useDateTime("date");
  const { status } = subscription;
  return (
    <dl className="mt-4">
      <Detail term={t("membership.manage.status")}>
        <span data-testid="subscription-status" className="font-semibold">
          {t(`membership.status.${status}`)}
        </span>
      </Detail>
      <Detail term={t("membership.manage.plan")}>
        {t(`membership.interval.${subscription.interval}`)} —{" "}
        {formatAmount(chargeForInterval(subscription.interval))}{" "}
        {t(`membership.pricing.per.${subscription.interval}`)}
      </Detail>
      {status === "trialing" && subscription.trial_ends_at ? (
        <Detail term={t("membership.manage.trialEnds")}>{date(subscription.trial_ends_at)}</Detail>
      ) : null}
      {subscription.next_charge_at && subscription.next_charge_amount_cents !== null ? (
        <Detail term={t("membership.manage.nextCharge")}>
          {t("membership.manage.nextChargeValue", {
            amount: formatAmount(subscription.next_charge_amount_cents),
            date: date(subscription.next_charge_at),
          })}
        </Detail>
      ) : null}
      {status === "canceled" ? (
        <Detail term={t("membership.manage.accessUntil")}>{date(subscription.current_period_end)}</Detail>
      ) : null}
      {status === "ended" && subscription.ended_at ? (
        <Detail term={t("membership.manage.endedOn")}>{date(subscription.ended_at)}</Detail>
      ) : null}
      {subscription.pending_interval ? (
        <Detail term={t("membership.manage.pendingInterval")}>
          {t("membership.manage.pendingIntervalValue", {
            interval: t(`membership.interval.${subscription.pending_interval}`),
            date: date(subscription.current_period_end),
          })}
        </Detail>
      ) : null}
      {subscription.payment_method ? (
        <Detail term={t("membership.manage.card")}>
          {t("membership.manage.cardValue", {
            brand: formatCardBrand(subscription.payment_method.brand),
            last4: subscription.payment_method.last4,
          })}
        </Detail>
      ) : null}
    </dl>
  );
}

function StatusExplanation({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const day = useDateTime("date");
  const values = {
    date: day(subscription.current_period_end),
    next: day(subscription.next_charge_at),
  };
  return (
    <p className="mt-4 max-w-3xl text-ink">{t(`membership.manage.explain.${subscription.status}`, values)}</p>
  );
}

function MembershipActions({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const { status } = subscription;
  const other: BillingInterval =
    (subscription.pending_interval ?? subscription.interval) === "month" ? "year" : "month";
  return (
    <div className="mt-8 flex flex-col gap-6">
      {status === "canceled" ? (
        <Form method="post">
          <input type="hidden" name="intent" value="resume" />
          <SubmitButton intent="resume" pendingLabel={t("membership.manage.resuming")}>
            {t("membership.manage.resume")}
          </SubmitButton>
        </Form>
      ) : null}
      {status === "trialing" || status === "active" ? (
        <section aria-labelledby="change-interval" className="max-w-3xl">
          <h3 id="change-interval" className="font-bold text-ink text-xl">
            {t("membership.manage.changeIntervalHeading")}
          </h3>
          <p className="mt-2 text-ink-muted">{t("membership.manage.changeIntervalText")}</p>
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="interval" />
            <input type="hidden" name="interval" value={other} />
            <SubmitButton
              intent="interval"
              pendingLabel={t("membership.manage.changing")}
              className="button-secondary w-full tablet:w-auto"
            >
              {t(`membership.manage.switchTo.${other}`, { amount: formatAmount(chargeForInterval(other)) })}
            </SubmitButton>
          </Form>
        </section>
      ) : null}
      {status === "trialing" || status === "active" || status === "past_due" ? (
        <p>
          <Link to="/cancel-subscription" className="link">
            {t("membership.manage.cancelLink")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

export default function ManageSubscriptionPage() {
  const { t } = useTranslation();
  const { subscription, lookupError } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const changeResult = actionData?.intent === "subscribe" ? undefined : actionData?.result;
  const startResult = actionData?.intent === "subscribe" ? actionData.result : undefined;
  const canStart = !lookupError && (subscription === null || subscription.status === "ended");
  return (
    <AccountPage page="manageSubscription">
      <div className="mt-8">
        <StatusMessage message={changeResult?.status === "success" ? changeResult.message : undefined} />
        {changeResult?.status === "error" ? (
          <ErrorSummary formId="manage" result={changeResult} order={["interval"] as const} />
        ) : null}
        {lookupError ? (
          <ErrorSummary formId="manage" result={formError({}, {}, lookupError)} order={[] as const} />
        ) : null}
        {subscription && subscription.status !== "ended" ? (
          <section aria-labelledby="membership-current">
            <h2 id="membership-current" className="font-bold text-2xl text-ink">
              {t("membership.manage.currentHeading")}
            </h2>
            <StatusExplanation subscription={subscription} />
            <SubscriptionDetails subscription={subscription} />
            <MembershipActions subscription={subscription} />
          </section>
        ) : null}
        {subscription?.status === "ended" ? (
          <section aria-labelledby="membership-ended" className="mb-8">
            <h2 id="membership-ended" className="font-bold text-2xl text-ink">
              {t("membership.manage.endedHeading")}
            </h2>
            <SubscriptionDetails subscription={subscription} />
          </section>
        ) : null}
        {canStart ? (
          <section aria-labelledby="membership-start">
            <h2 id="membership-start" className="font-bold text-2xl text-ink">
              {subscription ? t("membership.manage.restartHeading") : t("membership.manage.noneHeading")}
            </h2>
            <p className="mt-2 max-w-3xl text-ink-muted">
              {subscription ? t("membership.manage.restartText") : t("membership.manage.noneText")}
            </p>
            <StartMembershipForm
              result={startResult}
              formId="manage-start"
              always
              submitLabel={
                subscription ? t("membership.manage.subscribe") : t("membership.manage.startTrial")
              }
            />
          </section>
        ) : null}
      </div>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
