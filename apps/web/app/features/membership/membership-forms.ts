import { CARD_NAME_MAX_LENGTH } from "@ambercare/contracts/membership-constants";
import type { FieldErrors } from "#app/lib/forms.ts";

/**
 * The membership forms' fields and the hosted checkout's card checks. Plain functions, no server
 * code: the actions use them, the unit tests pin them.
 */

/** The fields of the start-a-membership and buy-a-visit forms. */
export type StartField = "interval" | "plan";

export const CARD_FIELDS = ["card_number", "expiry", "cvc", "name"] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** What the pay call takes, once the form's fields passed the checks below. */
export type CardDetails = {
  card_number: string;
  exp_month: string;
  exp_year: string;
  cvc: string;
  name: string;
};

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

/**
 * Checks the card form as a payment page would, in the order of the form; each problem is a
 * translation key shown next to its field. `now` decides whether the card has expired (a card is
 * good through the last day of its expiry month).
 */
export function checkCard(
  values: Record<CardField, string>,
  now: Date,
): { card: CardDetails; errors?: undefined } | { card?: undefined; errors: FieldErrors<CardField> } {
  const errors: FieldErrors<CardField> = {};
  const digits = cardDigits(values.card_number);
  if (digits === "") errors.card_number = { key: "billing.checkout.errors.cardNumber.required" };
  else if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits))
    errors.card_number = { key: "billing.checkout.errors.cardNumber.invalid" };

  const expiry = parseExpiry(values.expiry);
  if (values.expiry.trim() === "") errors.expiry = { key: "billing.checkout.errors.expiry.required" };
  else if (!expiry) errors.expiry = { key: "billing.checkout.errors.expiry.invalid" };
  else {
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (expiry.year * 12 + (expiry.month - 1) < thisMonth)
      errors.expiry = { key: "billing.checkout.errors.expiry.expired" };
  }

  const cvc = values.cvc.trim();
  if (cvc === "") errors.cvc = { key: "billing.checkout.errors.cvc.required" };
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = { key: "billing.checkout.errors.cvc.invalid" };

  const name = values.name.trim();
  if (name === "") errors.name = { key: "billing.checkout.errors.name.required" };
  else if (name.length > CARD_NAME_MAX_LENGTH)
    errors.name = { key: "billing.checkout.errors.name.tooLong", values: { max: CARD_NAME_MAX_LENGTH } };

  if (Object.keys(errors).length > 0 || !expiry) return { errors };
  return {
    card: {
      card_number: digits,
      exp_month: String(expiry.month).padStart(2, "0"),
      exp_year: String(expiry.year),
      cvc,
      name,
    },
  };
}

/**
 * What the checkout form gets back after a failed payment: the expiry and the name as typed, never
 * the card number or the security code (they are not sent back to the browser; see the checkout
 * route).
 */
export function echoedCardValues(values: Record<CardField, string>): Partial<Record<CardField, string>> {
  return { expiry: values.expiry, name: values.name };
}
