import { describe, expect, it } from "vitest";
import { checkCard, echoedCardValues } from "#app/features/membership/membership-forms.ts";

const NOW = new Date("2026-11-22T08:00:00Z");
const GOOD = { card_number: "4242 4242 4242 4242", expiry: "04/29", cvc: "123", name: " Jane Tester " };

describe("card checks of the hosted checkout", () => {
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

  it("wants 3 CVC digits, 4 for American Express, and the brand's number length", () => {
    expect(checkCard({ ...GOOD, cvc: "1234" }, NOW).errors).toEqual({
      cvc: { key: "billing.checkout.errors.cvc.invalid" },
    });
    expect(checkCard({ ...GOOD, card_number: "3782 822463 10005", cvc: "123" }, NOW).errors).toEqual({
      cvc: { key: "billing.checkout.errors.cvc.invalid" },
    });
    expect(checkCard({ ...GOOD, card_number: "3782 822463 10005", cvc: "1234" }, NOW).errors).toBeUndefined();
    expect(checkCard({ ...GOOD, card_number: "4222 2222 2222 2" }, NOW).errors).toBeUndefined();
    expect(checkCard({ ...GOOD, card_number: "5555 5555 5555 4444 0" }, NOW).errors).toEqual({
      card_number: { key: "billing.checkout.errors.cardNumber.invalid" },
    });
  });

  it("refuses an expiry more than 20 years ahead", () => {
    expect(checkCard({ ...GOOD, expiry: "12/2046" }, NOW).errors).toBeUndefined();
    expect(checkCard({ ...GOOD, expiry: "01/2047" }, NOW).errors).toEqual({
      expiry: { key: "billing.checkout.errors.expiry.invalid" },
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
