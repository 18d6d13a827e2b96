import { CARD_NAME_MAX_LENGTH } from "@ambercare/contracts/membership-constants";
import {
  cardBrand,
  cardDigits,
  expiryProblem,
  isValidCardNumber,
  isValidCvc,
  parseExpiry,
} from "@ambercare/contracts/payment-card";
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
  else if (!isValidCardNumber(digits))
    errors.card_number = { key: "billing.checkout.errors.cardNumber.invalid" };

  const expiry = parseExpiry(values.expiry);
  const expiryCheck = expiry ? expiryProblem(expiry.month, expiry.year, now) : "invalid";
  if (values.expiry.trim() === "") errors.expiry = { key: "billing.checkout.errors.expiry.required" };
  else if (expiryCheck === "invalid") errors.expiry = { key: "billing.checkout.errors.expiry.invalid" };
  else if (expiryCheck === "expired") errors.expiry = { key: "billing.checkout.errors.expiry.expired" };

  const cvc = values.cvc.trim();
  if (cvc === "") errors.cvc = { key: "billing.checkout.errors.cvc.required" };
  else if (!isValidCvc(cvc, cardBrand(digits))) errors.cvc = { key: "billing.checkout.errors.cvc.invalid" };

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
