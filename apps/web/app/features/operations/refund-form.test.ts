import { describe, expect, it } from "vitest";
import { dollars, parseRefundForm } from "./refund-form.ts";

const INVOICE = "3f2c1b8e-6a4d-4c2b-9e1f-0a1b2c3d4e5f";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("the refund form", () => {
  it("reads dollars as cents, and an empty amount as all that was paid", () => {
    expect(
      parseRefundForm(form({ invoice_id: INVOICE, amount: "12.5", reason: "Dropped call" })),
    ).toMatchObject({
      ok: true,
      body: { invoice_id: INVOICE, amount_cents: 1250, reason: "Dropped call" },
    });
    expect(parseRefundForm(form({ invoice_id: INVOICE, amount: "7,05", reason: "Late" }))).toMatchObject({
      ok: true,
      body: { amount_cents: 705 },
    });
    const whole = parseRefundForm(form({ invoice_id: INVOICE, amount: "", reason: "Goodwill" }));
    expect(whole.ok && "amount_cents" in whole.body).toBe(false);
  });

  it("passes the form's idempotency key on, and none that is not a key", () => {
    const key = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d";
    expect(
      parseRefundForm(form({ invoice_id: INVOICE, reason: "Goodwill", idempotency_key: key })),
    ).toMatchObject({ ok: true, body: { idempotency_key: key } });
    const bad = parseRefundForm(form({ invoice_id: INVOICE, reason: "Goodwill", idempotency_key: "x" }));
    expect(bad.ok && "idempotency_key" in bad.body).toBe(false);
  });

  it("refuses an amount that is no amount, zero, a short reason and a missing invoice, keeping what was typed", () => {
    for (const amount of ["abc", "0", "0.00", "-3", "1.234"]) {
      const parsed = parseRefundForm(form({ invoice_id: INVOICE, amount, reason: "Goodwill" }));
      expect(parsed, amount).toMatchObject({
        ok: false,
        errors: { amount: { key: "operations.errors.amountInvalid" } },
      });
    }
    expect(parseRefundForm(form({ invoice_id: INVOICE, amount: "5", reason: "no" }))).toMatchObject({
      ok: false,
      values: { amount: "5", reason: "no" },
      errors: { reason: { key: "operations.errors.reasonRequired" } },
    });
    expect(parseRefundForm(form({ invoice_id: "x", amount: "5", reason: "Goodwill" })).ok).toBe(false);
  });

  it("writes cents as dollars", () => {
    expect(dollars(4900)).toBe("$49.00");
    expect(dollars(5)).toBe("$0.05");
  });
});
