import { MEMBERSHIP_ERRORS, TEST_CARDS } from "@ambercare/contracts/membership-constants";
import { cardBrand } from "@ambercare/contracts/payment-card";
import { describe, expect, it } from "vitest";
import { createDemoPayments } from "#api/integrations/payments/demo-payments.ts";
import { addInterval } from "#api/modules/membership/membership-service.ts";

const now = new Date("2026-11-22T10:00:00Z");
const demo = createDemoPayments();
const card = { card_number: TEST_CARDS.success, exp_month: 11, exp_year: 2026, cvc: "123", name: "J" };

describe("demo card checks", () => {
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

describe("billing periods", () => {
  it("adds calendar months and years in UTC, keeping to the month's last day", () => {
    expect(addInterval(new Date("2026-01-31T09:00:00Z"), "month").toISOString()).toBe(
      "2026-02-28T09:00:00.000Z",
    );
    expect(addInterval(new Date("2026-12-15T09:00:00Z"), "month").toISOString()).toBe(
      "2027-01-15T09:00:00.000Z",
    );
    expect(addInterval(new Date("2028-02-29T09:00:00Z"), "year").toISOString()).toBe(
      "2029-02-28T09:00:00.000Z",
    );
  });
});
