import { MEMBERSHIP_ERRORS, TEST_CARDS } from "@ambercare/contracts/membership-constants";
import { cardBrand } from "@ambercare/contracts/payment-card";
import { describe, expect, it } from "vitest";
import { createDemoPayments } from "#api/integrations/payments/demo-payments.ts";

const now = new Date("2026-11-22T10:00:00Z");
const demo = createDemoPayments({ webUrl: "http://web.test" });
const checkoutInput = {
  plan: "subscription_monthly" as const,
  mode: "subscription" as const,
  trialDays: 7,
  customerEmail: "jane@example.com",
  successUrl: "http://web.test/membership",
  cancelUrl: "http://web.test/pricing-options",
};
const card = { card_number: TEST_CARDS.success, exp_month: 11, exp_year: 2026, cvc: "123", name: "J" };

describe("demo card checks", () => {
  it("sends the patient to the web app's own checkout page", async () => {
    expect(await demo.startCheckout({ ...checkoutInput, checkoutId: "c1" })).toEqual({
      url: "http://web.test/checkout/c1",
      sessionId: null,
    });
  });

  it("accepts a card expiring this month and keeps brand and last 4 only", () => {
    const result = demo.checkCard(card, now);
    expect(result).toMatchObject({ ok: true, card: { brand: "visa", last4: "4242" } });
    if (result.ok) expect(result.card.token).not.toContain("4242424242424242");
  });

  it("tells brands apart and wants 4 CVC digits for American Express", () => {
    expect(cardBrand("5555555555554444")).toBe("mastercard");
    expect(cardBrand("2223003122003222")).toBe("mastercard");
    expect(cardBrand("378282246310005")).toBe("amex");
    expect(cardBrand("6011111111111117")).toBe("discover");
    expect(demo.checkCard({ ...card, card_number: "378282246310005" }, now)).toMatchObject({
      ok: false,
      message: MEMBERSHIP_ERRORS.invalidCvc,
    });
    expect(demo.checkCard({ ...card, card_number: "378282246310005", cvc: "1234" }, now).ok).toBe(true);
  });

  it("refuses a card expired last month and one 21 years ahead", () => {
    expect(demo.checkCard({ ...card, exp_month: 10 }, now)).toMatchObject({
      message: MEMBERSHIP_ERRORS.cardExpired,
    });
    expect(demo.checkCard({ ...card, exp_year: 2047 }, now)).toMatchObject({
      message: MEMBERSHIP_ERRORS.invalidExpiry,
    });
  });

  it("charges a saved card, except the one that fails every charge", async () => {
    const good = demo.checkCard(card, now);
    const failing = demo.checkCard({ ...card, card_number: TEST_CARDS.renewalFails }, now);
    if (!good.ok || !failing.ok) throw new Error("both cards are accepted at checkout");
    expect(await demo.charge(good.card.token, 900)).toMatchObject({ ok: true });
    expect(await demo.charge(failing.card.token, 900)).toEqual({ ok: false, reason: "card_declined" });
  });
});
