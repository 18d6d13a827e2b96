import {
  CANCEL_COMMENT_MAX_LENGTH,
  CANCEL_REASONS,
  type CancelReason,
  type Subscription,
} from "@ambercare/contracts/membership";
import { useId } from "react";
import { data, Form, Link, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import {
  ErrorSummary,
  StatusMessage,
  SubmitButton,
  Textarea,
  translateMessage,
} from "#app/components/forms.tsx";
import { PageHeading } from "#app/components/page.tsx";
import {
  BILLING_ERROR_OPTIONS,
  cancelSubscription,
  lookupSubscription,
  sendCancelFeedback,
  subscriptionCookies,
} from "#app/features/membership/membership.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormErrorResult, fieldId, formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { headersWithCookies, requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/cancel-subscription";

/**
 * Cancel the membership: an optional "why are you leaving?" (reason and comment), then the cancel
 * itself, then a confirmation with the date access ends (the end of the paid period or the trial).
 * Nobody has to give a reason to cancel; a comment without a reason is filed under "other".
 */

const FIELDS = ["reason", "comment"] as const;
type Field = (typeof FIELDS)[number];
const CANCELABLE: ReadonlySet<Subscription["status"]> = new Set(["trialing", "active", "past_due"]);

export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  try {
    const subscription = await lookupSubscription(request, user);
    return data(
      { subscription, lookupError: null },
      { headers: headersWithCookies(subscriptionCookies(request, subscription)) },
    );
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { subscription: null, lookupError: describeApiError(error, BILLING_ERROR_OPTIONS).message };
  }
}

type CancelResult =
  | FormErrorResult<Field>
  | { status: "success"; accessUntil: string; feedback: "saved" | "none" | "lost" };

function isReason(value: string): value is CancelReason {
  return (CANCEL_REASONS as readonly string[]).includes(value);
}

export async function action({ request, pattern }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const formData = await readFormData(request);
  const values = {
    reason: String(formData.get("reason") ?? ""),
    comment: String(formData.get("comment") ?? ""),
  };
  const comment = values.comment.trim();
  if (values.reason !== "" && !isReason(values.reason)) {
    return data<CancelResult>(formError(values, { reason: { key: "membership.cancel.errors.reason" } }), {
      status: 400,
    });
  }
  if (comment.length > CANCEL_COMMENT_MAX_LENGTH) {
    return data<CancelResult>(
      formError(values, {
        comment: {
          key: "membership.cancel.errors.commentTooLong",
          values: { max: CANCEL_COMMENT_MAX_LENGTH },
        },
      }),
      { status: 400 },
    );
  }
  let subscription: Subscription;
  try {
    subscription = await cancelSubscription(request, user);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, BILLING_ERROR_OPTIONS);
    return data<CancelResult>(formError(values, {}, failure.message), { status: failure.status });
  }
  const reason = isReason(values.reason) ? values.reason : comment ? "other" : null;
  let feedback: "saved" | "none" | "lost" = reason ? "saved" : "none";
  if (reason) {
    try {
      await sendCancelFeedback(request, user, { subscriptionId: subscription.id, reason, comment });
    } catch (error) {
      if (!isApiError(error)) throw error;
      // The membership is canceled either way; the page says the feedback did not arrive.
      feedback = "lost";
    }
  }
  return data<CancelResult>(
    { status: "success", accessUntil: subscription.current_period_end, feedback },
    { headers: headersWithCookies(subscriptionCookies(request, subscription)) },
  );
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "cancelSubscription");

const FORM_ID = "cancel";

function FeedbackForm({ result }: { result: FormErrorResult<Field> | undefined }) {
  const { t } = useTranslation();
  const legendId = useId();
  const reasonError = result?.fieldErrors.reason;
  const chosen = result?.values.reason ?? "";
  return (
    <>
      <ErrorSummary formId={FORM_ID} result={result} order={FIELDS} />
      <Form method="post" noValidate className="flex flex-col gap-6">
        <fieldset
          aria-labelledby={legendId}
          aria-describedby={reasonError ? `${fieldId(FORM_ID, "reason")}-error` : undefined}
          className="flex flex-col gap-2"
        >
          <legend id={legendId} className="font-semibold text-ink">
            {t("membership.cancel.reasonLegend")}{" "}
            <span className="font-normal text-ink-muted">({t("forms.optional")})</span>
          </legend>
          {reasonError ? (
            <p id={`${fieldId(FORM_ID, "reason")}-error`} className="font-semibold text-danger">
              {translateMessage(t, reasonError)}
            </p>
          ) : null}
          {CANCEL_REASONS.map((reason, index) => {
            const id = index === 0 ? fieldId(FORM_ID, "reason") : `${fieldId(FORM_ID, "reason")}-${reason}`;
            return (
              <div key={reason} className="flex min-h-11 items-center gap-3">
                <input
                  id={id}
                  type="radio"
                  name="reason"
                  value={reason}
                  defaultChecked={chosen === reason}
                  className="size-5 shrink-0 accent-primary-ink"
                />
                <label htmlFor={id} className="text-ink">
                  {t(`membership.cancel.reasons.${reason}`)}
                </label>
              </div>
            );
          })}
        </fieldset>
        <Textarea
          optional
          formId={FORM_ID}
          name="comment"
          label={t("membership.cancel.commentLabel")}
          hint={t("membership.cancel.commentHint", { max: CANCEL_COMMENT_MAX_LENGTH })}
          maxLength={CANCEL_COMMENT_MAX_LENGTH}
          defaultValue={result?.values.comment}
          error={result?.fieldErrors.comment}
        />
        <div className="flex flex-col gap-3 tablet:flex-row tablet:items-center">
          <SubmitButton pendingLabel={t("membership.cancel.canceling")}>
            {t("membership.cancel.submit")}
          </SubmitButton>
          <Link to="/my-profile/manage-subscription" className="link">
            {t("membership.cancel.keep")}
          </Link>
        </div>
      </Form>
    </>
  );
}

export default function CancelSubscriptionPage() {
  const { t } = useTranslation();
  const day = useDateTime("date");
  const { subscription, lookupError } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const done = result?.status === "success" ? result : undefined;
  const errors = result?.status === "error" ? result : undefined;

  let body: React.ReactNode;
  if (done) {
    body = (
      <p className="text-ink">
        {t("membership.cancel.resumeText")}{" "}
        <Link to="/my-profile/manage-subscription" className="link">
          {t("membership.cancel.manageLink")}
        </Link>
      </p>
    );
  } else if (lookupError) {
    body = <ErrorSummary formId={FORM_ID} result={formError({}, {}, lookupError)} order={[] as const} />;
  } else if (subscription && CANCELABLE.has(subscription.status)) {
    body = (
      <>
        <p className="mb-6 text-ink">
          {t("membership.cancel.accessNote", {
            date: day(subscription.current_period_end),
          })}
        </p>
        <FeedbackForm result={errors} />
      </>
    );
  } else {
    body = (
      <p className="text-ink">
        {subscription?.status === "canceled"
          ? t("membership.cancel.alreadyCanceled", {
              date: day(subscription.current_period_end),
            })
          : t("membership.cancel.nothingToCancel")}{" "}
        <Link to="/my-profile/manage-subscription" className="link">
          {t("membership.cancel.manageLink")}
        </Link>
      </p>
    );
  }

  return (
    <div className="page-container py-10 tablet:py-14">
      <PageHeading page="cancelSubscription" />
      <div className="mt-8 max-w-2xl">
        {/* Always rendered, so that the confirmation is announced when it appears. */}
        <StatusMessage
          title={done ? t("membership.cancel.doneTitle") : undefined}
          message={
            done
              ? {
                  key: "membership.cancel.doneText",
                  values: { date: day(done.accessUntil) },
                }
              : undefined
          }
          details={
            done?.feedback === "saved"
              ? t("membership.cancel.feedbackThanks")
              : done?.feedback === "lost"
                ? t("membership.cancel.feedbackLost")
                : undefined
          }
        />
        {body}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
