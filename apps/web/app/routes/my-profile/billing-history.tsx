import { Link, useLoaderData } from "react-router";
import { EmptyState } from "#app/components/empty-state.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { ErrorSummary } from "#app/components/forms.tsx";
import { AccountPage } from "#app/components/page.tsx";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import {
  InvoiceRefundLines,
  InvoiceRefundRows,
  useInvoiceStatus,
} from "#app/features/membership/invoice-status.tsx";
import {
  BILLING_ERROR_OPTIONS,
  listInvoices,
  lookupSubscription,
} from "#app/features/membership/membership.server.ts";
import { inFreeTrial, TrialSummary } from "#app/features/membership/trial-summary.tsx";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { formError } from "#app/lib/forms.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteUser } from "#app/lib/session.server.ts";
import type { Route } from "./+types/billing-history";

/**
 * The patient's invoices, newest first (the API's order), each with a printable receipt; and a free
 * trial, which has no invoice yet, with its end and first charge.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteUser(request, pattern);
  // The trial is extra information: a failed lookup of it leaves the invoices as they are.
  const trial = lookupSubscription(request, user).then(
    (subscription) => (inFreeTrial(subscription) ? subscription : null),
    (error: unknown) => {
      if (!isApiError(error)) throw error;
      return null;
    },
  );
  try {
    const [invoices, subscription] = await Promise.all([listInvoices(request, user), trial]);
    return { invoices, trial: subscription, lookupError: null };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return {
      invoices: [],
      trial: await trial,
      lookupError: describeApiError(error, BILLING_ERROR_OPTIONS).message,
    };
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "billingHistory");

function ReceiptLink({ id, number, className = "" }: { id: string; number: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <Link
      to={`/my-profile/billing-history/${encodeURIComponent(id)}`}
      className={`link ${className}`}
      aria-label={t("billing.history.receiptLabel", { number })}
    >
      {t("billing.history.receipt")}
    </Link>
  );
}

export default function BillingHistoryPage() {
  const { t } = useTranslation();
  const day = useDateTime("date");
  const { invoices, trial, lookupError } = useLoaderData<typeof loader>();
  const status = useInvoiceStatus();
  return (
    <AccountPage page="billingHistory">
      <div className="mt-8 flex flex-col gap-6">
        {trial ? <TrialSummary subscription={trial} /> : null}
        {lookupError ? (
          <ErrorSummary formId="billing" result={formError({}, {}, lookupError)} order={[] as const} />
        ) : invoices.length === 0 ? (
          trial ? null : (
            <EmptyState
              title={t("billing.history.empty")}
              headingLevel={2}
              testId="billing-empty"
              action={
                <>
                  <Link to="/pricing-options" className="button-primary">
                    {t("billing.history.pricingLink")}
                  </Link>
                  <Link to="/one-time-visit" className="link">
                    {t("billing.history.oneTimeLink")}
                  </Link>
                </>
              }
            >
              <p>{t("billing.history.emptyText")}</p>
            </EmptyState>
          )
        ) : (
          <>
            {/* Phones: one card per invoice; wider screens: a table to compare them. */}
            <ul aria-label={t("billing.history.caption")} className="flex flex-col gap-4 tablet:hidden">
              {invoices.map((invoice) => (
                <li key={invoice.id} className="rounded-lg border-2 border-border p-4 text-ink">
                  <p className="font-semibold">{t(`billing.plans.${invoice.plan}`)}</p>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                    <dt className="text-ink-muted">{t("billing.history.columns.date")}</dt>
                    <dd>{day(invoice.issued_at)}</dd>
                    <dt className="text-ink-muted">{t("billing.history.columns.number")}</dt>
                    <dd className="whitespace-nowrap font-mono">{invoice.number}</dd>
                    <dt className="text-ink-muted">{t("billing.history.columns.amount")}</dt>
                    <dd>{formatAmount(invoice.amount_cents)}</dd>
                    <dt className="text-ink-muted">{t("billing.history.columns.status")}</dt>
                    <dd>{status(invoice)}</dd>
                  </dl>
                  <InvoiceRefundLines invoice={invoice} />
                  <ReceiptLink id={invoice.id} number={invoice.number} className="mt-3 inline-block" />
                </li>
              ))}
            </ul>
            <table className="hidden w-full border-collapse text-left text-ink tablet:table">
              <caption className="mb-3 text-left text-ink-muted">{t("billing.history.caption")}</caption>
              <thead>
                <tr className="border-border border-b-2">
                  <th scope="col" className="py-2 pr-4">
                    {t("billing.history.columns.date")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("billing.history.columns.number")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("billing.history.columns.description")}
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    {t("billing.history.columns.amount")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("billing.history.columns.status")}
                  </th>
                  <th scope="col" className="py-2">
                    {t("billing.history.columns.receipt")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {invoices.map((invoice) => [
                  <tr key={invoice.id} className="border-border border-b">
                    <td className="py-2 pr-4">{day(invoice.issued_at)}</td>
                    <td className="whitespace-nowrap py-2 pr-4 font-mono">{invoice.number}</td>
                    <td className="py-2 pr-4">{t(`billing.plans.${invoice.plan}`)}</td>
                    <td className="py-2 pr-4 text-right">{formatAmount(invoice.amount_cents)}</td>
                    <td className="py-2 pr-4">{status(invoice)}</td>
                    <td className="py-2">
                      <ReceiptLink id={invoice.id} number={invoice.number} />
                    </td>
                  </tr>,
                  <InvoiceRefundRows key={`${invoice.id}-refunds`} invoice={invoice} />,
                ])}
              </tbody>
            </table>
          </>
        )}
      </div>
    </AccountPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
