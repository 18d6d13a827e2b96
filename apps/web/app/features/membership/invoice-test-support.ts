import type { Invoice } from "@ambercare/contracts/membership";

/** A paid one-time video visit's invoice, not refunded, for the web's tests; `at` is when it was paid. */
export function paidInvoice(at: string): Invoice {
  return {
    id: "0b7e4a52-3c1d-4f7e-9a55-2f0c6d1e8b11",
    number: "AC-000042",
    issued_at: at,
    paid_at: at,
    plan: "ppv_video",
    description: "Ambercare one-time video visit",
    amount_cents: 4900,
    currency: "usd",
    status: "paid",
    period_start: null,
    period_end: null,
    payment_method: { brand: "visa", last4: "4242" },
    refunded_at: null,
    refunded_amount_cents: null,
    refunds: [],
  };
}
