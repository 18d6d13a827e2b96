import type { Subscription } from "@ambercare/contracts/membership";
import { describe, expect, it } from "vitest";
import { inFreeTrial, TrialSummary } from "#app/features/membership/trial-summary.tsx";
import type { Locale } from "#app/lib/i18n.tsx";
import { renderInPage } from "#app/lib/render-test-support.tsx";

const trialing: Subscription = {
  id: "sub_1",
  plan: "subscription_monthly",
  interval: "month",
  status: "trialing",
  trial_ends_at: "2026-12-01T09:00:00.000Z",
  current_period_start: "2026-11-24T09:00:00.000Z",
  current_period_end: "2026-12-01T09:00:00.000Z",
  cancel_at_period_end: false,
  canceled_at: null,
  ended_at: null,
  next_charge_at: "2026-12-01T09:00:00.000Z",
  next_charge_amount_cents: 900,
  pending_interval: null,
  payment_method: { brand: "visa", last4: "4242" },
};

function summary(subscription: Subscription, locale: Locale = "en"): string {
  if (!inFreeTrial(subscription)) throw new Error("expected a trial");
  return renderInPage(<TrialSummary subscription={subscription} />, locale);
}

describe("billing history during a free trial", () => {
  it("tells the trial, its end, and the date and amount of the first charge, in both languages", () => {
    const html = summary(trialing);
    expect(html).toContain("Your free trial");
    expect(html).toContain("Membership, billed monthly");
    expect(html).toContain("runs until December 1, 2026");
    expect(html).toContain("Your first charge: $9 on December 1, 2026");
    expect(html).toContain('href="/my-profile/manage-subscription"');
    const inBulgarian = summary(trialing, "bg");
    expect(inBulgarian).toContain("Първото плащане: $9 на 1 декември 2026");
  });

  it("says nothing will be charged when the trial was canceled", () => {
    const canceled: Subscription = {
      ...trialing,
      status: "canceled",
      cancel_at_period_end: true,
      canceled_at: "2026-11-25T09:00:00.000Z",
      next_charge_at: null,
      next_charge_amount_cents: null,
    };
    expect(inFreeTrial(canceled)).toBe(true);
    const html = summary(canceled);
    expect(html).toContain("nothing will be charged");
    expect(html).not.toContain("Your first charge");
  });

  it("is no trial once paid periods began, nor without a trial", () => {
    const active: Subscription = {
      ...trialing,
      status: "active",
      current_period_start: "2026-12-01T09:00:00.000Z",
      current_period_end: "2027-01-01T09:00:00.000Z",
    };
    expect(inFreeTrial(active)).toBe(false);
    expect(inFreeTrial({ ...active, status: "canceled" })).toBe(false);
    expect(inFreeTrial({ ...trialing, trial_ends_at: null })).toBe(false);
    expect(inFreeTrial(null)).toBe(false);
  });
});
