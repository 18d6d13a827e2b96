import type { Invoice } from "@ambercare/contracts/membership";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { paidInvoice } from "#app/features/membership/invoice-test-support.ts";
import { createI18n, I18nProvider, type Locale } from "#app/lib/i18n.tsx";
import type { RootData } from "#app/lib/root-data.ts";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";
import ReceiptPage from "#app/routes/my-profile/billing-history/receipt.tsx";

/**
 * The receipt of a one-time visit says how much came back and when: each refund of a payment
 * refunded in parts on its own line, on the patient's day (their time zone), under the sum.
 */

const paid = paidInvoice("2026-06-01T15:00:00.000Z");

/** Two parts: the second at 01:30 UTC on 4 June, still 3 June in New York. */
const inParts: Invoice = {
  ...paid,
  refunded_at: "2026-06-04T01:30:00.000Z",
  refunded_amount_cents: 750,
  refunds: [
    { at: "2026-06-02T14:00:00.000Z", amount_cents: 500 },
    { at: "2026-06-04T01:30:00.000Z", amount_cents: 250 },
  ],
};

function render(invoice: Invoice, locale: Locale = "en", timeZone = "America/New_York"): string {
  const root: RootData = {
    locale,
    strings: "{}",
    env: { productName: "Ambercare", sessionIdleMinutes: 30 },
    user: { isLoggedIn: true },
    timeZone,
  };
  const router = createMemoryRouter(
    [{ id: "root", path: "/", children: [{ id: "receipt", index: true, Component: ReceiptPage }] }],
    {
      hydrationData: {
        loaderData: {
          root,
          receipt: { invoice, patient: "Ana Patient", supportEmail: "support@ambercare.example" },
        },
      },
    },
  );
  return renderToString(
    <I18nProvider i18n={createI18n(locale, locale === "en" ? en : bg)}>
      <RouterProvider router={router} />
    </I18nProvider>,
  ).replace(/<!-- -->/g, "");
}

const refundLines = (html: string) => {
  const list = html.match(/<ul[^>]*data-testid="invoice-refunds"[^>]*>(.*?)<\/ul>/)?.[1] ?? "";
  return [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1]);
};

describe("the receipt of a refunded payment", () => {
  it("lists each refund on the patient's day with its amount, under the sum", () => {
    const html = render(inParts);
    expect(html).toContain("Refunded $7.50 in all");
    expect(html).toContain('aria-label="Refunds of invoice AC-000042"');
    expect(refundLines(html)).toEqual(["Refunded $5 on June 2, 2026", "Refunded $2.50 on June 3, 2026"]);
    // In UTC the second refund is on the next day.
    expect(refundLines(render(inParts, "en", "UTC"))).toEqual([
      "Refunded $5 on June 2, 2026",
      "Refunded $2.50 on June 4, 2026",
    ]);
  });

  it("says the same in Bulgarian", () => {
    const html = render(inParts, "bg");
    expect(html).toContain("Възстановени общо $7.50");
    expect(html).toContain('aria-label="Възстановявания по фактура AC-000042"');
    const lines = refundLines(html);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("Възстановени $5 на 2 юни 2026");
    expect(lines[1]).toContain("Възстановени $2.50 на 3 юни 2026");
  });

  it("keeps a payment refunded in one go to its one line, and a payment not refunded to its status", () => {
    const once = render({
      ...paid,
      refunded_at: "2026-06-03T02:00:00.000Z",
      refunded_amount_cents: 4900,
      refunds: [{ at: "2026-06-03T02:00:00.000Z", amount_cents: 4900 }],
    });
    expect(once).toContain("Refunded $49 on June 2, 2026");
    expect(once).not.toContain("invoice-refunds");
    const none = render(paid);
    expect(none).toContain(">Paid<");
    expect(none).not.toContain("Refunded");
  });
});
