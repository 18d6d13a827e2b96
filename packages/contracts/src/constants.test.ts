import { describe, expect, it } from "vitest";
import { ETHNICITIES, GENDERS, RACES, RELATIONSHIPS, TEMPERATURE_LOCATIONS, TRANSPORTS } from "./options.ts";
import { CURRENCY, formatUsd, PLAN_BY_INTERVAL, PLAN_KEYS, PLANS } from "./plans.ts";
import {
  FLT_USER_ID_COOKIE_MAX_AGE_S,
  isFullyLoggedIn,
  SESSION_COOKIE_MAX_AGE,
  SESSION_COOKIES,
} from "./session.ts";
import { SPEC_NAMED_SYMPTOMS, SYMPTOMS } from "./symptoms.ts";
import { THEME_COLORS } from "./theme.ts";
import { LOGOUT_REDIRECT_DELAY_MS, NOT_SUBSCRIBED_POPUP_DELAY_MS } from "./timing.ts";
import { isUsStateCode, US_STATE_CODES, US_STATES } from "./us-states.ts";

describe("option lists", () => {
  it("keeps the exact spellings of the spec", () => {
    expect(GENDERS).toEqual(["male", "female", "Unspecified", "Undisclosed", "Prefer Not to Answer"]);
    expect(RELATIONSHIPS).toHaveLength(7);
    expect(RACES).toContain("Native Hawaiian and other Pacific Islander");
    expect(RACES).toHaveLength(9);
    expect(ETHNICITIES).toEqual([
      "Hispanic or Latino",
      "Not Hispanic or Latino",
      "Other",
      "Prefer not to answer",
      "Unknown",
    ]);
    expect(TRANSPORTS).toEqual(["Private Car", "Motor Bike", "Bus", "Train", "Flight", "Ship", "Other"]);
    expect(TEMPERATURE_LOCATIONS).toEqual(["Forehead", "Mouth", "Ear", "Armpit", "Rectum"]);
  });

  it("is frozen so no caller can change a list at run time", () => {
    for (const list of [
      GENDERS,
      RELATIONSHIPS,
      RACES,
      ETHNICITIES,
      TRANSPORTS,
      TEMPERATURE_LOCATIONS,
      SYMPTOMS,
      US_STATES,
    ]) {
      expect(Object.isFrozen(list)).toBe(true);
    }
    expect(Object.isFrozen(PLANS.ppv_chat)).toBe(true);
  });

  it("has 48 distinct symptoms including the 12 the spec names", () => {
    expect(SYMPTOMS).toHaveLength(48);
    expect(new Set(SYMPTOMS).size).toBe(48);
    for (const named of SPEC_NAMED_SYMPTOMS) expect(SYMPTOMS).toContain(named);
    expect(SPEC_NAMED_SYMPTOMS).toHaveLength(12);
  });

  it("has the 50 states with distinct two-letter codes and no territories", () => {
    expect(US_STATES).toHaveLength(50);
    expect(new Set(US_STATE_CODES).size).toBe(50);
    for (const code of US_STATE_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect(isUsStateCode("WA")).toBe(true);
    expect(isUsStateCode("DC")).toBe(false);
    expect(isUsStateCode("PR")).toBe(false);
  });
});

describe("plans and prices", () => {
  it("prices the four plan keys in cents", () => {
    expect(PLAN_KEYS).toEqual(["subscription_monthly", "subscription_yearly", "ppv_chat", "ppv_video"]);
    expect(PLANS.subscription_monthly.priceCents).toBe(900);
    expect(PLANS.subscription_yearly.priceCents).toBe(900);
    expect(PLANS.subscription_yearly.chargeCents).toBe(10_800);
    expect(PLANS.ppv_chat.priceCents).toBe(2900);
    expect(PLANS.ppv_video.priceCents).toBe(4900);
    expect(PLAN_BY_INTERVAL.yearly).toBe("subscription_yearly");
  });

  it("formats whole dollars without cents", () => {
    expect(formatUsd(2900)).toBe("$29");
    expect(formatUsd(950)).toBe("$9.50");
    expect(formatUsd(123_456_705)).toBe("$1,234,567.05");
    expect(formatUsd(-500)).toBe("-$5");
    expect(formatUsd(-0)).toBe("$0");
  });

  it("writes every amount as the en-US currency format would", () => {
    const intl = (cents: number) =>
      new Intl.NumberFormat("en-US", {
        style: "currency",
        currency: CURRENCY,
        minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
      }).format(cents / 100);
    const amounts = [
      0, 1, 9, 10, 99, 100, 101, 950, 2900, 10_800, 99_999, 100_000, 123_456, 100_000_000, -1, -2900,
      -123_456,
    ];
    for (let cents = 0; cents < 250_000; cents += 997) amounts.push(cents);
    for (const cents of amounts) expect(formatUsd(cents), String(cents)).toBe(intl(cents));
    for (const odd of [2900.4, Number.NaN, Number.POSITIVE_INFINITY, 1e21])
      expect(formatUsd(odd), String(odd)).toBe(intl(odd));
  });
});

describe("session and timing constants", () => {
  it("gives every session cookie its lifetime", () => {
    expect(Object.keys(SESSION_COOKIES)).toHaveLength(12);
    expect(SESSION_COOKIE_MAX_AGE.accessToken).toBe(18_000);
    expect(SESSION_COOKIE_MAX_AGE.fltUserId).toBe(FLT_USER_ID_COOKIE_MAX_AGE_S);
    expect(FLT_USER_ID_COOKIE_MAX_AGE_S).toBe(86_400);
    expect(SESSION_COOKIE_MAX_AGE.availabilityToday).toBe(3_600);
  });

  it("needs both the login flag and the secondary token to be fully logged in", () => {
    expect(isFullyLoggedIn({ isLoggedIn: "true", fltAccessToken: "abc" })).toBe(true);
    expect(isFullyLoggedIn({ isLoggedIn: "true", fltAccessToken: "" })).toBe(false);
    expect(isFullyLoggedIn({ isLoggedIn: "false", fltAccessToken: "abc" })).toBe(false);
    expect(isFullyLoggedIn({ fltAccessToken: "abc" })).toBe(false);
  });

  it("keeps the delays of the spec", () => {
    expect(NOT_SUBSCRIBED_POPUP_DELAY_MS).toBe(5_000);
    expect(LOGOUT_REDIRECT_DELAY_MS).toBe(10);
    expect(THEME_COLORS.primary).toBe("#F59825");
  });
});
