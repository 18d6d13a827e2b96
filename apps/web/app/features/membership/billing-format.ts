import { intlTag } from "@ambercare/contracts/locales";
import { formatUsd } from "@ambercare/contracts/plans";
import type { Locale } from "#app/lib/i18n.tsx";

/**
 * Dates and amounts of the membership and billing pages, the same on the server and in the browser:
 * dates are read in UTC (the API's times are UTC), so the page does not change when it hydrates in
 * another time zone. Amounts keep the "$9" form of ADR 004 in both languages.
 */

export function formatDate(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(intlTag(locale), { dateStyle: "long", timeZone: "UTC" }).format(date);
}

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
