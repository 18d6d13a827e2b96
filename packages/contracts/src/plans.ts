import { perVisitPlan, VISIT_PLAN_KEYS, type VisitPlanKey, type VisitType } from "./visit-types.ts";

/**
 * Pricing plan keys and prices (ADR 004). Money is integer cents in USD
 * (docs/decisions/004-membership-rules.md decides the currency the spec left open). The one-time
 * plans, one per kind of visit, come from the list of visit types (visit-types.ts, ADR 056).
 */
export const PLAN_KEYS = Object.freeze([
  "subscription_monthly",
  "subscription_yearly",
  ...VISIT_PLAN_KEYS,
] as const);
export type PlanKey = "subscription_monthly" | "subscription_yearly" | VisitPlanKey;

export type Plan = Readonly<{
  key: PlanKey;
  kind: "subscription" | "one_time";
  /** The price as the spec states it, in cents (subscriptions: per month). */
  priceCents: number;
  /** What one charge costs: the yearly plan is billed 12 × the monthly price once a year. */
  chargeCents: number;
  interval: "month" | "year" | null;
  /** The consultation type a one-time visit buys. */
  visitType: VisitType | null;
}>;

export const CURRENCY = "USD";

export const PLANS: Readonly<Record<PlanKey, Plan>> = Object.freeze({
  subscription_monthly: Object.freeze({
    key: "subscription_monthly",
    kind: "subscription",
    priceCents: 900,
    chargeCents: 900,
    interval: "month",
    visitType: null,
  }),
  subscription_yearly: Object.freeze({
    key: "subscription_yearly",
    kind: "subscription",
    priceCents: 900,
    chargeCents: 12 * 900,
    interval: "year",
    visitType: null,
  }),
  ...perVisitPlan(
    (row): Plan =>
      Object.freeze({
        key: row.planKey,
        kind: "one_time",
        priceCents: row.priceCents,
        chargeCents: row.priceCents,
        interval: null,
        visitType: row.id,
      }),
  ),
});

/** Checkout intervals (the checkout takes user_id, interval, last_url). */
export const SUBSCRIPTION_INTERVALS = Object.freeze(["monthly", "yearly"] as const);
export type SubscriptionInterval = (typeof SUBSCRIPTION_INTERVALS)[number];

export const PLAN_BY_INTERVAL: Readonly<Record<SubscriptionInterval, PlanKey>> = Object.freeze({
  monthly: "subscription_monthly",
  yearly: "subscription_yearly",
});

/**
 * Whole-dollar amounts for display ("$9", "$9.50", "$1,200"), from cents, in the en-US form of
 * ADR 004 in both languages. Written out rather than with `Intl.NumberFormat`: the browser's first
 * currency formatter loads the currency tables, 25–140 ms of main thread on a desktop core, and
 * every page with a price paid it while hydrating. A test keeps the output equal to Intl's.
 */
export function formatUsd(cents: number): string {
  // Amounts are whole cents; anything else (no caller passes one) keeps Intl's own writing.
  if (!Number.isSafeInteger(cents)) return intlUsd(cents);
  const whole = Math.abs(cents);
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, ",");
  const rest = whole % 100;
  return `${cents < 0 ? "-" : ""}$${dollars}${rest === 0 ? "" : `.${String(rest).padStart(2, "0")}`}`;
}

function intlUsd(cents: number): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: CURRENCY,
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
}
