import { NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES } from "@ambercare/contracts/timing";
import { describe, expect, it } from "vitest";
import {
  isPopupExcludedPath,
  shouldOfferSubscription,
} from "#app/features/membership/not-subscribed-popup-rules.ts";

describe("isPopupExcludedPath", () => {
  it.each([
    "/consultation",
    "/consultation/consult",
    "/consultation/form",
    "/my-profile",
    "/my-profile/",
    "/my-profile/manage-subscription",
    "/my-profile/billing-history/inv_1",
    "/sign-up",
    "/login",
    "/logout",
    "/unsubscribe",
    "/checkout/chk_123",
    "/call-ended",
    "/my-profile/consultations/8b7e0a53-5a0c-4d8e-9a55-0b7b9c1f2a10",
  ])("excludes %s", (path) => {
    expect(isPopupExcludedPath(path)).toBe(true);
  });

  it.each([
    "/",
    "/membership",
    "/pricing-options",
    "/find-a-doctor",
    "/thank-you-for-ordering",
    "/cancel-subscription",
    "/consultations-guide",
    "/login-help",
    "/my-profiles",
    "/blog/consultation",
  ])("does not exclude %s", (path) => {
    expect(isPopupExcludedPath(path)).toBe(false);
  });

  it("covers every excluded prefix", () => {
    expect([...NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES].sort()).toEqual(
      ["/consultation", "/login", "/logout", "/my-profile", "/sign-up", "/unsubscribe"].sort(),
    );
    for (const prefix of NOT_SUBSCRIBED_POPUP_EXCLUDED_PREFIXES) {
      expect(isPopupExcludedPath(prefix)).toBe(true);
      expect(isPopupExcludedPath(`${prefix}/anything`)).toBe(true);
    }
  });
});

describe("shouldOfferSubscription", () => {
  const member = { isLoggedIn: true, isSubscribed: false, pathname: "/", dismissed: false } as const;

  it("offers it to a logged-in, non-subscribed visitor outside the exclusions", () => {
    expect(shouldOfferSubscription(member)).toBe(true);
  });

  it("never offers it to anonymous visitors, members, after a dismissal or on excluded pages", () => {
    expect(shouldOfferSubscription({ ...member, isLoggedIn: false })).toBe(false);
    expect(shouldOfferSubscription({ ...member, isSubscribed: true })).toBe(false);
    expect(shouldOfferSubscription({ ...member, dismissed: true })).toBe(false);
    expect(shouldOfferSubscription({ ...member, pathname: "/my-profile" })).toBe(false);
  });

  it("does not guess when the status is unknown", () => {
    expect(shouldOfferSubscription({ ...member, isSubscribed: null })).toBe(false);
  });
});
