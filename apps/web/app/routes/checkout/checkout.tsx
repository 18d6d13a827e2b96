import {
  CARD_NAME_MAX_LENGTH,
  DEFAULT_RETURN_PATHS,
  TEST_CARDS,
} from "@ambercare/contracts/membership-constants";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary, SubmitButton, TextField, useHydrated } from "#app/components/forms.tsx";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import {
  BILLING_ERROR_OPTIONS,
  getCheckout,
  lookupSubscription,
  payCheckout,
  subscriptionCookies,
} from "#app/features/membership/membership.server.ts";
import {
  CARD_FIELDS,
  type CardField,
  checkCard,
  echoedCardValues,
} from "#app/features/membership/membership-forms.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { type FormErrorResult, formError, readFields } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { safeRedirect } from "#app/lib/misc.ts";
import { orNotFound } from "#app/lib/not-found.server.ts";
import { headersWithCookies, requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/checkout";

/**
 * The demo payment provider's hosted checkout (PAYMENTS=demo, ADR 015). With
 * PAYMENTS=stripe the API sends patients to Stripe Checkout instead and this page is never linked.
 *
 * The card number and the security code never travel back to the browser: a failed payment returns
 * the expiry and the name only. With JavaScript the form is not reloaded, so the number stays in its
 * field as typed and the patient can simply press Pay again or change it; without JavaScript the page
 * is rendered anew and asks for the number and code again (a hint says so).
 */

export async function loader({ request, pattern, params }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const checkout = await orNotFound(() => getCheckout(request, user, params.checkoutId));
  // A paid checkout (a reload after paying, the back button) goes where paying would have gone.
  if (checkout.status === "paid") {
    throw redirect(safeRedirect(checkout.return_url, DEFAULT_RETURN_PATHS[checkout.kind]));
  }
  return { checkout };
}

type CheckoutResult = FormErrorResult<CardField>;

export async function action({ request, pattern, params }: Route.ActionArgs) {
  const { user } = await requireRouteUser(request, pattern);
  const values = readFields(await readFormData(request), CARD_FIELDS);
  const checked = checkCard(values, new Date());
  if (!checked.card) {
    const result: CheckoutResult = {
      ...formError(values, checked.errors),
      values: echoedCardValues(values),
    };
    return data(result, { status: 400 });
  }
  let returnUrl: string;
  try {
    ({ returnUrl } = await payCheckout(request, user, params.checkoutId, checked.card));
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 404) throw data("Page Not Found", { status: 404 });
    const failure = describeApiError(error, BILLING_ERROR_OPTIONS);
    const result: CheckoutResult = {
      ...(failure.field
        ? formError(values, { [failure.field]: failure.message })
        : formError(values, {}, failure.message)),
      values: echoedCardValues(values),
    };
    return data(result, { status: failure.status });
  }
  // The membership changed: record the session's subscription flags before leaving.
  const cookies = await lookupSubscription(request, user)
    .then((subscription) => subscriptionCookies(request, subscription))
    .catch((error: unknown) => {
      if (isApiError(error)) return [];
      throw error;
    });
  // The API only ever answers a path on this site; anything else falls back to the home page.
  throw redirect(safeRedirect(returnUrl, "/"), { headers: headersWithCookies(cookies) });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "checkout");

/** A payment page has no distractions: no marketing footer, newsletter form or membership popup. */
export const handle = { focused: true };

const FORM_ID = "checkout";

function TestModeBanner() {
  const { t } = useTranslation();
  const cards = [
    { number: TEST_CARDS.success, key: "success" },
    { number: TEST_CARDS.declined, key: "declined" },
    { number: TEST_CARDS.insufficientFunds, key: "insufficientFunds" },
  ] as const;
  return (
    <aside
      aria-labelledby="test-mode"
      className="mb-8 rounded-md border-2 border-secondary bg-surface-muted px-4 py-3 text-ink"
    >
      <h2 id="test-mode" className="font-bold text-lg">
        {t("billing.checkout.testMode.title")}
      </h2>
      <p className="mt-1">{t("billing.checkout.testMode.text")}</p>
      <ul className="mt-2 flex flex-col gap-1">
        {cards.map((card) => (
          <li key={card.key}>
            <span className="font-mono font-semibold">{card.number.replace(/(\d{4})(?=\d)/g, "$1 ")}</span>
            {" — "}
            {t(`billing.checkout.testMode.cards.${card.key}`)}
          </li>
        ))}
      </ul>
    </aside>
  );
}

export default function CheckoutPage() {
  const { t } = useTranslation();
  const { checkout } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = result?.status === "error" ? result : undefined;
  const values = errors?.values ?? {};
  const fieldErrors = errors?.fieldErrors ?? {};
  const planName = t(`billing.plans.${checkout.plan}`);
  const trial = checkout.trial_days > 0;
  const backTo = checkout.kind === "subscription" ? "/membership" : "/one-time-visit";
  // After a failed payment the number is still in its field only when JavaScript kept the page.
  const hydrated = useHydrated();
  const cardHint =
    errors && !hydrated
      ? t("billing.checkout.hints.retype")
      : errors?.formError
        ? t("billing.checkout.hints.checkNumber")
        : t("billing.checkout.hints.cardNumber");

  return (
    <div className="page-container py-10 tablet:py-14">
      <div className="mx-auto max-w-xl">
        <h1 className="font-bold text-3xl text-ink tablet:text-4xl">{t("pages.checkout.title")}</h1>
        <p className="mt-4 text-ink-muted text-lg">{t("pages.checkout.description")}</p>

        <section aria-labelledby="checkout-summary" className="mt-8 rounded-lg border-2 border-border p-5">
          <h2 id="checkout-summary" className="font-bold text-ink text-xl">
            {t("billing.checkout.summaryHeading")}
          </h2>
          <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-ink">
            <dt>{planName}</dt>
            <dd className="text-right">
              {checkout.kind === "subscription"
                ? t(`billing.checkout.per.${checkout.plan === "subscription_yearly" ? "year" : "month"}`, {
                    amount: formatAmount(checkout.amount_cents),
                  })
                : formatAmount(checkout.amount_cents)}
            </dd>
            <dt className="font-bold">{t("billing.checkout.dueToday")}</dt>
            <dd className="text-right font-bold">{formatAmount(trial ? 0 : checkout.amount_cents)}</dd>
          </dl>
          {trial ? (
            <p className="mt-3 text-ink">
              {t("billing.checkout.trialNote", {
                days: checkout.trial_days,
                amount: formatAmount(checkout.amount_cents),
              })}
            </p>
          ) : null}
        </section>

        <div className="mt-8">
          {checkout.status === "expired" ? (
            <p className="rounded-md border-danger border-l-4 bg-surface-muted px-4 py-3 text-ink">
              {t("billing.errors.checkoutExpired")}{" "}
              <Link to="/pricing-options" className="link">
                {t("billing.checkout.startAgain")}
              </Link>
            </p>
          ) : (
            <>
              <TestModeBanner />
              <ErrorSummary formId={FORM_ID} result={errors} order={CARD_FIELDS} />
              <Form method="post" noValidate className="flex flex-col gap-5">
                <TextField
                  formId={FORM_ID}
                  name="card_number"
                  label={t("billing.checkout.fields.cardNumber")}
                  hint={cardHint}
                  inputMode="numeric"
                  autoComplete="cc-number"
                  maxLength={23}
                  error={fieldErrors.card_number}
                />
                <div className="grid gap-5 mobile-l:grid-cols-2">
                  <TextField
                    formId={FORM_ID}
                    name="expiry"
                    label={t("billing.checkout.fields.expiry")}
                    hint={t("billing.checkout.hints.expiry")}
                    inputMode="numeric"
                    autoComplete="cc-exp"
                    maxLength={7}
                    defaultValue={values.expiry}
                    error={fieldErrors.expiry}
                  />
                  <TextField
                    formId={FORM_ID}
                    name="cvc"
                    label={t("billing.checkout.fields.cvc")}
                    hint={t("billing.checkout.hints.cvc")}
                    inputMode="numeric"
                    autoComplete="cc-csc"
                    maxLength={4}
                    error={fieldErrors.cvc}
                  />
                </div>
                <TextField
                  formId={FORM_ID}
                  name="name"
                  label={t("billing.checkout.fields.name")}
                  autoComplete="cc-name"
                  maxLength={CARD_NAME_MAX_LENGTH}
                  defaultValue={values.name}
                  error={fieldErrors.name}
                />
                <div className="flex flex-col gap-3 tablet:flex-row tablet:items-center">
                  <SubmitButton pendingLabel={t("billing.checkout.paying")}>
                    {trial
                      ? t("billing.checkout.startTrial")
                      : t("billing.checkout.pay", { amount: formatAmount(checkout.amount_cents) })}
                  </SubmitButton>
                  <Link to={backTo} className="link">
                    {t("billing.checkout.cancel")}
                  </Link>
                </div>
              </Form>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
