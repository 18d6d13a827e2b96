import { describe, expect, it } from "vitest";
import {
  BILLING_INTERVALS,
  chargeForInterval,
  PLAN_FOR_INTERVAL,
  payCheckoutRequest,
  subscriptionCheckoutRequest,
  TEST_CARDS,
} from "./membership.ts";
import { PLANS } from "./plans.ts";

function luhn(digits: string): boolean {
  const sum = [...digits].reverse().reduce((total, char, index) => {
    const doubled = Number(char) * (index % 2 === 1 ? 2 : 1);
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return sum % 10 === 0;
}

describe("membership contract", () => {
  it("maps each billing interval to the plan of that interval and its charge", () => {
    for (const interval of BILLING_INTERVALS) {
      expect(PLANS[PLAN_FOR_INTERVAL[interval]].interval).toBe(interval);
    }
    expect(chargeForInterval("month")).toBe(900);
    expect(chargeForInterval("year")).toBe(10_800);
  });

  it("uses test card numbers a card form accepts (16 digits, Luhn-valid)", () => {
    for (const number of Object.values(TEST_CARDS)) {
      expect(number).toMatch(/^\d{16}$/);
      expect(luhn(number)).toBe(true);
    }
  });

  it("accepts the checkout body with or without last_url, and refuses unknown intervals and fields", () => {
    const user_id = "6d88e9ed-d3e8-4fc9-9f25-10894ed43a28";
    expect(subscriptionCheckoutRequest.safeParse({ user_id, interval: "year" }).success).toBe(true);
    expect(
      subscriptionCheckoutRequest.safeParse({ user_id, interval: "month", last_url: "/x" }).success,
    ).toBe(true);
    expect(subscriptionCheckoutRequest.safeParse({ user_id, interval: "monthly" }).success).toBe(false);
    expect(subscriptionCheckoutRequest.safeParse({ user_id, interval: "year", plan: "x" }).success).toBe(
      false,
    );
  });

  it("takes card fields as typed (strings, or numbers for the expiry)", () => {
    const card = {
      card_number: "4242 4242 4242 4242",
      exp_month: "04",
      exp_year: 2031,
      cvc: "123",
      name: "J",
    };
    expect(payCheckoutRequest.safeParse(card).success).toBe(true);
    expect(payCheckoutRequest.safeParse({ ...card, cvc: 123 }).success).toBe(false);
  });
});
