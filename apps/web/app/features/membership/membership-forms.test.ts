import { TEST_CARDS } from "@ambercare/contracts/membership-constants";
import { describe, expect, it } from "vitest";
import {
  cardDigits,
  checkCard,
  echoedCardValues,
  parseExpiry,
  passesLuhn,
} from "#app/features/membership/membership-forms.ts";

const NOW = new Date("2026-11-22T08:00:00Z");
const GOOD = { card_number: "4242 4242 4242 4242", expiry: "04/29", cvc: "123", name: " Jane Tester " };

describe("card checks of the hosted checkout", () => {
  it("accepts the test cards, typed with spaces or dashes", () => {
    for (const number of Object.values(TEST_CARDS)) expect(passesLuhn(number), number).toBe(true);
    expect(cardDigits("4000-0000 0000-0002")).toBe(TEST_CARDS.declined);
    expect(passesLuhn("4242424242424241")).toBe(false);
  });

  it("reads MM/YY, MM / YYYY and MMYY, and refuses impossible months", () => {
    expect(parseExpiry("04/29")).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry(" 4 / 2031 ")).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry("1229")).toEqual({ month: 12, year: 2029 });
    expect(parseExpiry("13/29")).toBeNull();
    expect(parseExpiry("00/29")).toBeNull();
    expect(parseExpiry("April")).toBeNull();
  });

  it("turns a good form into the pay call's fields", () => {
    expect(checkCard(GOOD, NOW)).toEqual({
      card: {
        card_number: "4242424242424242",
        exp_month: "04",
        exp_year: "2029",
        cvc: "123",
        name: "Jane Tester",
      },
    });
  });

  it("names every problem next to its field", () => {
    expect(checkCard({ card_number: "", expiry: "", cvc: "", name: "" }, NOW).errors).toEqual({
      card_number: { key: "billing.checkout.errors.cardNumber.required" },
      expiry: { key: "billing.checkout.errors.expiry.required" },
      cvc: { key: "billing.checkout.errors.cvc.required" },
      name: { key: "billing.checkout.errors.name.required" },
    });
    expect(
      checkCard({ card_number: "4242 4242 4242 4241", expiry: "4/2", cvc: "12a", name: "x".repeat(101) }, NOW)
        .errors,
    ).toEqual({
      card_number: { key: "billing.checkout.errors.cardNumber.invalid" },
      expiry: { key: "billing.checkout.errors.expiry.invalid" },
      cvc: { key: "billing.checkout.errors.cvc.invalid" },
      name: { key: "billing.checkout.errors.name.tooLong", values: { max: 100 } },
    });
  });

  it("takes a card through the last day of its expiry month", () => {
    expect(checkCard({ ...GOOD, expiry: "11/26" }, NOW).errors).toBeUndefined();
    expect(checkCard({ ...GOOD, expiry: "10/26" }, NOW).errors).toEqual({
      expiry: { key: "billing.checkout.errors.expiry.expired" },
    });
  });

  it("never sends the card number or the security code back to the page", () => {
    expect(echoedCardValues(GOOD)).toEqual({ expiry: "04/29", name: " Jane Tester " });
  });
});
