import type { Invoice } from "@ambercare/contracts/membership";
import { describe, expect, it } from "vitest";
import {
  InvoiceRefundLines,
  InvoiceRefundRows,
  useInvoiceStatus,
} from "#app/features/membership/invoice-status.tsx";
import { paidInvoice } from "#app/features/membership/invoice-test-support.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";

const paid = paidInvoice("2026-11-20T15:00:00.000Z");

const inParts: Invoice = {
  ...paid,
  refunded_at: "2026-11-24T10:00:00.000Z",
  refunded_amount_cents: 1750,
  refunds: [
    { at: "2026-11-21T10:00:00.000Z", amount_cents: 1000 },
    { at: "2026-11-24T10:00:00.000Z", amount_cents: 750 },
  ],
};

function Status({ invoice }: { invoice: Invoice }) {
  return <p data-testid="status">{useInvoiceStatus()(invoice)}</p>;
}

function render(invoice: Invoice, locale: Locale = "en"): string {
  return renderInPage(
    <>
      <Status invoice={invoice} />
      <InvoiceRefundLines invoice={invoice} />
      <table>
        <tbody>
          <InvoiceRefundRows invoice={invoice} />
        </tbody>
      </table>
    </>,
    locale,
  );
}

describe("an invoice's refunds in the billing history", () => {
  it("lists each refund of a payment refunded in parts, with its day and amount, under the sum", () => {
    const html = render(inParts);
    expect(html).toContain("Refunded $17.50 in all");
    expect(html).toContain('aria-label="Refunds of invoice AC-000042"');
    const lines = [...html.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1]);
    expect(lines).toEqual(["Refunded $10 on November 21, 2026", "Refunded $7.50 on November 24, 2026"]);
    const rows = html.match(/data-testid="invoice-refund-row"/g) ?? [];
    expect(rows).toHaveLength(2);
    expect(html).toContain("−$10");
    expect(html).toContain("−$7.50");
  });

  it("says the same in Bulgarian", () => {
    const html = render(inParts, "bg");
    expect(html).toContain("Възстановени общо $17.50");
    expect(html).toContain('aria-label="Възстановявания по фактура AC-000042"');
    expect(html).toContain("Възстановени $10 на 21 ноември 2026");
    expect(html).toContain("Възстановяване");
  });

  it("keeps one refund as the status line, and lists nothing for a payment not refunded", () => {
    const once: Invoice = {
      ...paid,
      refunded_at: "2026-11-21T10:00:00.000Z",
      refunded_amount_cents: 4900,
      refunds: [{ at: "2026-11-21T10:00:00.000Z", amount_cents: 4900 }],
    };
    const single = render(once);
    expect(single).toContain("Refunded $49 on November 21, 2026");
    expect(single).not.toContain("<li>");
    expect(single).not.toContain("invoice-refund-row");
    const none = render(paid);
    expect(none).toContain(">Paid<");
    expect(none).not.toContain("Refund");
  });
});
