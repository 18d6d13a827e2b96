/**
 * The one rule for a payment card's number, security code and expiry, shared by the checkout form
 * (which names the problem next to its field before any call) and the demo payment processor (which
 * answers the pay call). No dependency, so the checkout page imports it without pulling zod into the
 * browser bundle.
 */

export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "card";

/** How many digits each brand issues; a number of another length is mistyped. */
const NUMBER_LENGTHS: Readonly<Record<CardBrand, readonly number[]>> = Object.freeze({
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  discover: [16, 17, 18, 19],
  card: [12, 13, 14, 15, 16, 17, 18, 19],
});

/** A card is not accepted with an expiry further ahead than this: no issuer prints one. */
export const CARD_MAX_YEARS_AHEAD = 20;

/** The digits of a card number typed with spaces or dashes ("4242 4242 4242 4242"). */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** The Luhn check every card number passes: catches most typing mistakes before any call. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** The brand by the number's first digits (IIN ranges); "card" for any other issuer. */
export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return "visa";
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  return "card";
}

/** Digits only, as many as the brand issues, and the Luhn check. */
export function isValidCardNumber(digits: string): boolean {
  return (
    /^\d+$/.test(digits) && NUMBER_LENGTHS[cardBrand(digits)].includes(digits.length) && passesLuhn(digits)
  );
}

/** American Express prints 4 digits on the front; every other brand 3 on the back. */
export function isValidCvc(cvc: string, brand: CardBrand): boolean {
  return (brand === "amex" ? /^\d{4}$/ : /^\d{3}$/).test(cvc);
}

/**
 * Whether a card of this month and four-digit year can pay at `now` (UTC): it is good through the
 * last day of its expiry month. "invalid" for an impossible month or a year too far ahead.
 */
export function expiryProblem(month: number, year: number, now: Date): "invalid" | "expired" | undefined {
  const thisYear = now.getUTCFullYear();
  if (!Number.isInteger(month) || month < 1 || month > 12) return "invalid";
  if (!Number.isInteger(year) || year > thisYear + CARD_MAX_YEARS_AHEAD) return "invalid";
  if (year * 12 + (month - 1) < thisYear * 12 + now.getUTCMonth()) return "expired";
  return undefined;
}

/** "MM/YY", "MM / YY", "MM/YYYY" or "MMYY" → month and four-digit year, or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*[/\-.]?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const yearText = match[2] ?? "";
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return null;
  return { month, year };
}
