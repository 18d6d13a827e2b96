import { UNEXPECTED_ERROR } from "@ambercare/contracts/envelope";
import { MEMBERSHIP_ERRORS } from "@ambercare/contracts/membership";
import { describe, expect, it } from "vitest";
import { BILLING_ERROR_OPTIONS, sessionSubscription } from "#app/features/membership/membership.server.ts";
import { ApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { lookup } from "#app/lib/i18n.tsx";
import en from "#app/locales/en.json";

function refused(status: number, body?: unknown): ApiError {
  return new ApiError("refused", { status, body, method: "POST", path: "/ambercare/x" });
}

const membershipFailure = (error: ApiError) => describeApiError(error, BILLING_ERROR_OPTIONS);

describe("billing failures", () => {
  it("translates the API's codes and puts card problems next to their field", () => {
    expect(
      membershipFailure(refused(402, { error: MEMBERSHIP_ERRORS.cardDeclined, code: "CARD_DECLINED" })),
    ).toEqual({
      message: { key: "billing.errors.cardDeclined" },
      status: 402,
    });
    expect(
      membershipFailure(refused(400, { error: MEMBERSHIP_ERRORS.cardExpired, code: "CARD_EXPIRED" })),
    ).toEqual({
      message: { key: "billing.checkout.errors.expiry.expired" },
      status: 400,
      field: "expiry",
    });
  });

  it("says 'An unexpected error occurred' for an unknown or generic code, never the API's English text", () => {
    expect(membershipFailure(refused(409, { error: "Something new" })).message).toEqual({
      key: "billing.errors.unexpected",
    });
    expect(
      membershipFailure(refused(400, { error: "Invalid body", code: "VALIDATION_FAILED" })).message,
    ).toEqual({
      key: "billing.errors.unexpected",
    });
    const fallback = membershipFailure(refused(400, "not json")).message;
    expect(fallback).toEqual({ key: "billing.errors.unexpected" });
    expect(lookup(en, "billing.errors.unexpected")).toBe(UNEXPECTED_ERROR);
  });

  it("reads an outage as 'service unavailable'", () => {
    expect(membershipFailure(refused(0)).status).toBe(503);
    expect(membershipFailure(refused(502, { error: "Bad gateway" })).message).toEqual({
      key: "billing.errors.serviceUnavailable",
    });
  });
});

describe("sessionSubscription", () => {
  it("asks nothing for an anonymous visitor", async () => {
    expect(await sessionSubscription(new Request("http://localhost/"), null)).toEqual({
      flags: null,
      cookies: [],
    });
  });

  it("reads a session that has looked its subscription up from the cookies, without a call", async () => {
    const request = new Request("http://localhost/", {
      headers: {
        Cookie:
          "isLoggedIn=true; fltAccessToken=t; fltUserId=9; isSubscribed=true; subscriptionId=s1; " +
          "subscriptionTrialing=true; subscriptionEnded=false; subscriptionCanceled=false; subscriptionStatusChecked=true",
      },
    });
    const user = { userId: null, accessToken: null, careUserId: "9", careAccessToken: "t" };
    expect(await sessionSubscription(request, user)).toEqual({
      flags: {
        isSubscribed: true,
        subscriptionId: "s1",
        subscriptionEnded: false,
        subscriptionCanceled: false,
        subscriptionTrialing: true,
      },
      cookies: [],
    });
  });
});
