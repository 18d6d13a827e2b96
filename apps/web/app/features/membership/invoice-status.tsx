import type { Invoice } from "@ambercare/contracts/membership";
import { formatAmount } from "#app/features/membership/billing-format.ts";
import { useDateTime } from "#app/lib/date-time.ts";
import { useTranslation } from "#app/lib/i18n.tsx";

/**
 * An invoice's status as the billing history and the receipt show it: a refunded one-time visit
 * (it expired, or the clinician canceled it) says how much came back and when.
 */
export function useInvoiceStatus(): (
  invoice: Pick<Invoice, "status" | "refunded_at" | "refunded_amount_cents">,
) => string {
  const { t } = useTranslation();
  const day = useDateTime("date");
  return (invoice) =>
    invoice.refunded_at
      ? t("billing.invoiceRefunded", {
          amount: formatAmount(invoice.refunded_amount_cents ?? 0),
          date: day(invoice.refunded_at),
        })
      : t(`billing.invoiceStatus.${invoice.status}`);
}
