import { formatUsd } from "@ambercare/contracts/plans";

/**
 * Amounts and card brands of the membership and billing pages. Amounts keep the "$9" form of ADR 004
 * in both languages; their dates are the patient's days (`useDateTime("date")`, date-time.ts).
 */

export function formatAmount(cents: number): string {
  return formatUsd(cents);
}

const CARD_BRANDS: Readonly<Record<string, string>> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/** A card brand as its owner writes it ("visa" → "Visa"); an unknown brand is shown as sent. */
export function formatCardBrand(brand: string): string {
  return CARD_BRANDS[brand.toLowerCase()] ?? brand;
}
