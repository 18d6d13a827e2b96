import type { Invoice } from "@ambercare/contracts/membership";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

type RefundedInvoice = Pick<Invoice, "status" | "refunded_at" | "refunded_amount_cents" | "refunds">;

/**
 * An invoice's status as the billing history and the receipt show it: a refunded one-time visit
 * (it expired, or the clinician canceled it) says how much came back and when; a payment an
 * operator refunded in several parts says the sum, and the billing history and the receipt list each
 * part under it (`InvoiceRefundLines`, `InvoiceRefundRows`).
 */
export function useInvoiceStatus(): (invoice: RefundedInvoice) => string {
  const { t } = useTranslation();
  const day = useDateTime("date");
  return (invoice) =>
    invoice.refunded_at
      ? invoice.refunds.length > 1
        ? t("billing.invoiceRefundedInAll", { amount: formatAmount(invoice.refunded_amount_cents ?? 0) })
        : t("billing.invoiceRefunded", {
            amount: formatAmount(invoice.refunded_amount_cents ?? 0),
            date: day(invoice.refunded_at),
          })
      : t(`billing.invoiceStatus.${invoice.status}`);
}

/** The refunds listed one by one: only when there are several (one is the status itself). */
const partsOf = (invoice: Pick<Invoice, "refunds">) => (invoice.refunds.length > 1 ? invoice.refunds : []);

/** An invoice's card (phones) and its receipt: one line per refund, with its day and amount. */
export function InvoiceRefundLines({ invoice }: { invoice: Pick<Invoice, "number" | "refunds"> }) {
  const { t } = useTranslation();
  const day = useDateTime("date");
  const parts = partsOf(invoice);
  if (parts.length === 0) return null;
  return (
    <ul
      aria-label={t("billing.history.refundsLabel", { number: invoice.number })}
      className="mt-2 flex flex-col gap-1 border-border border-l-2 pl-3 text-ink-muted"
      data-testid="invoice-refunds"
    >
      {parts.map((refund, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two refunds may share a time and an amount
        <li key={index}>
          {t("billing.invoiceRefunded", { amount: formatAmount(refund.amount_cents), date: day(refund.at) })}
        </li>
      ))}
    </ul>
  );
}

/** An invoice's rows of the table (wider screens): one row per refund under the invoice's own. */
export function InvoiceRefundRows({ invoice }: { invoice: Pick<Invoice, "number" | "refunds"> }) {
  const { t } = useTranslation();
  const day = useDateTime("date");
  return partsOf(invoice).map((refund, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: two refunds may share a time and an amount
    <tr key={index} className="border-border border-b text-ink-muted" data-testid="invoice-refund-row">
      <td className="py-2 pr-4 pl-4">{day(refund.at)}</td>
      <td className="whitespace-nowrap py-2 pr-4 font-mono">{invoice.number}</td>
      <td className="py-2 pr-4">{t("billing.history.refund")}</td>
      <td className="py-2 pr-4 text-right">−{formatAmount(refund.amount_cents)}</td>
      <td className="py-2 pr-4" />
      <td className="py-2" />
    </tr>
  ));
}
