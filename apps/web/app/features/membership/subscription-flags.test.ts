import { describe, expect, it } from "vitest";
import {
  flagsFromCookies,
  subscriptionCookieValues,
  subscriptionFlags,
} from "#app/features/membership/subscription-flags.ts";

describe("subscription flags (session values)", () => {
  it("marks no subscription as not subscribed", () => {
    expect(subscriptionFlags(null)).toEqual({
      isSubscribed: false,
      subscriptionId: null,
      subscriptionEnded: false,
      subscriptionCanceled: false,
      subscriptionTrialing: false,
    });
  });

  it.each([
    ["trialing", { isSubscribed: true, subscriptionTrialing: true }],
    ["active", { isSubscribed: true }],
    ["canceled", { isSubscribed: true, subscriptionCanceled: true }],
    ["past_due", { isSubscribed: true }],
    ["ended", { isSubscribed: false, subscriptionEnded: true }],
  ] as const)("maps %s", (status, expected) => {
    expect(subscriptionFlags({ id: "sub_1", status })).toEqual({
      subscriptionEnded: false,
      subscriptionCanceled: false,
      subscriptionTrialing: false,
      subscriptionId: "sub_1",
      ...expected,
    });
  });

  it("round-trips through the cookie values, and reads unchecked cookies as unknown", () => {
    const flags = subscriptionFlags({ id: "sub_9", status: "canceled" });
    const cookies = subscriptionCookieValues(flags);
    expect(cookies.subscriptionStatusChecked).toBe("true");
    expect(flagsFromCookies(cookies)).toEqual(flags);
    expect(flagsFromCookies({ isSubscribed: "true" })).toBeNull();
    expect(flagsFromCookies(subscriptionCookieValues(subscriptionFlags(null)))).toEqual(
      subscriptionFlags(null),
    );
  });
});
