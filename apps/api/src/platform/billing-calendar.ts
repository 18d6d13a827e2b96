import type { BillingInterval } from "@ambercare/contracts/membership-constants";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Calendar arithmetic in UTC: Jan 31 + 1 month = Feb 28 (or 29), never Mar 3. */
export function addInterval(date: Date, interval: BillingInterval): Date {
  const year = date.getUTCFullYear() + (interval === "year" ? 1 : 0);
  const month = date.getUTCMonth() + (interval === "month" ? 1 : 0);
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(date);
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  return result;
}
