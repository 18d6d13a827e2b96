import { describe, expect, it } from "vitest";
import { TEST_CARDS } from "./membership-constants.ts";
import {
  cardBrand,
  cardDigits,
  expiryProblem,
  isValidCardNumber,
  isValidCvc,
  parseExpiry,
  passesLuhn,
} from "./payment-card.ts";

const NOW = new Date("2026-11-22T08:00:00Z");

describe("card number", () => {
  it("accepts the test cards, typed with spaces or dashes", () => {
    for (const number of Object.values(TEST_CARDS)) {
      expect(passesLuhn(number), number).toBe(true);
      expect(isValidCardNumber(number), number).toBe(true);
    }
    expect(cardDigits("4000-0000 0000-0002")).toBe(TEST_CARDS.declined);
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("")).toBe(false);
  });

  it("tells brands apart", () => {
    expect(cardBrand("4242424242424242")).toBe("visa");
    expect(cardBrand("5555555555554444")).toBe("mastercard");
    expect(cardBrand("2223003122003222")).toBe("mastercard");
    expect(cardBrand("378282246310005")).toBe("amex");
    expect(cardBrand("6011111111111117")).toBe("discover");
    expect(cardBrand("3566002020360505")).toBe("card");
  });

  it("wants as many digits as the brand issues, and digits only", () => {
    expect(isValidCardNumber("378282246310005")).toBe(true);
    // Luhn-valid, but Mastercard numbers have 16 digits and Visa ones 13, 16 or 19.
    expect(passesLuhn("55555555555544440")).toBe(true);
    expect(isValidCardNumber("55555555555544440")).toBe(false);
    expect(isValidCardNumber("4222222222222")).toBe(true);
    expect(passesLuhn("42424242424242")).toBe(true);
    expect(isValidCardNumber("42424242424242")).toBe(false);
    expect(isValidCardNumber("4242 4242 4242 4242")).toBe(false);
    expect(isValidCardNumber("abcd")).toBe(false);
  });
});

describe("security code", () => {
  it("is 3 digits, or 4 for American Express", () => {
    expect(isValidCvc("123", "visa")).toBe(true);
    expect(isValidCvc("1234", "visa")).toBe(false);
    expect(isValidCvc("123", "amex")).toBe(false);
    expect(isValidCvc("1234", "amex")).toBe(true);
    expect(isValidCvc("12a", "mastercard")).toBe(false);
    expect(isValidCvc("12", "card")).toBe(false);
  });
});

describe("expiry", () => {
  it("reads MM/YY, MM / YYYY and MMYY, and refuses impossible months", () => {
    expect(parseExpiry("04/29")).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry(" 4 / 2031 ")).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry("1229")).toEqual({ month: 12, year: 2029 });
    expect(parseExpiry("13/29")).toBeNull();
    expect(parseExpiry("00/29")).toBeNull();
    expect(parseExpiry("April")).toBeNull();
  });

  it("takes a card through its expiry month and up to 20 years ahead", () => {
    expect(expiryProblem(11, 2026, NOW)).toBeUndefined();
    expect(expiryProblem(10, 2026, NOW)).toBe("expired");
    expect(expiryProblem(12, 2025, NOW)).toBe("expired");
    expect(expiryProblem(12, 2046, NOW)).toBeUndefined();
    expect(expiryProblem(1, 2047, NOW)).toBe("invalid");
    expect(expiryProblem(13, 2027, NOW)).toBe("invalid");
    expect(expiryProblem(0, 2027, NOW)).toBe("invalid");
  });
});
