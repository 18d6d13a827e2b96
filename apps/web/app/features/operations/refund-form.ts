import { REFUND_REASON_MAX } from "@ambercare/contracts/operations";
import type { FieldErrors } from "#app/lib/forms.ts";

export type RefundField = "amount" | "reason";
export const REFUND_FIELDS: readonly RefundField[] = ["amount", "reason"];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOLLARS = /^\d{1,6}(?:[.,]\d{1,2})?$/;

/** "$12.50" from cents. */
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The refund form: `invoice_id`, `amount` in dollars (empty: all that is left), `reason`, and
 * `idempotency_key` (one per drawn form). Checked
 * here for the visitor's sake; the API checks again, and refuses an amount above what was paid.
 */
export function parseRefundForm(form: FormData) {
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const values = { amount: field("amount"), reason: field("reason") };
  const invoiceId = field("invoice_id");
  // The form's own submit: a double submit is one refund (the key is made when the page is drawn).
  const key = field("idempotency_key");
  const errors: FieldErrors<RefundField> = {};
  let amountCents: number | undefined;
  if (values.amount) {
    if (!DOLLARS.test(values.amount)) errors.amount = { key: "operations.errors.amountInvalid" };
    else {
      amountCents = Math.round(Number(values.amount.replace(",", ".")) * 100);
      if (amountCents < 1) errors.amount = { key: "operations.errors.amountInvalid" };
    }
  }
  if (values.reason.length < 3 || values.reason.length > REFUND_REASON_MAX)
    errors.reason = { key: "operations.errors.reasonRequired" };
  if (!UUID.test(invoiceId) || Object.keys(errors).length > 0) {
    return { ok: false as const, values, errors };
  }
  return {
    ok: true as const,
    values,
    body: {
      invoice_id: invoiceId,
      reason: values.reason,
      ...(amountCents ? { amount_cents: amountCents } : {}),
      ...(UUID.test(key) ? { idempotency_key: key } : {}),
    },
  };
}
