import { describe, expect, it } from "vitest";
import { visitEntitlementResponse } from "./membership.ts";
import { PLAN_KEYS, PLANS } from "./plans.ts";
import { provider, providerListQuery } from "./provider.ts";
import {
  defineVisitTypes,
  NO_VISIT_CREDITS,
  offersField,
  VISIT_PLAN_KEYS,
  VISIT_TYPE_IDS,
  VISIT_TYPES,
  type VisitType,
  type VisitTypeRow,
} from "./visit-types.ts";

/** A kind Ambercare does not offer, added to the list the way a new kind would be. */
const HOUSE_CALL = {
  id: "house_call",
  planKey: "ppv_house_call",
  priceCents: 3900,
  slotMinutes: 10,
  videoCall: false,
} as const satisfies VisitTypeRow;

describe("a new row of the list of visit types", () => {
  const withHouseCall = defineVisitTypes([...VISIT_TYPES, HOUSE_CALL] as const);

  it("is a kind, a one-time plan and a directory flag, after the others", () => {
    expect(withHouseCall.ids).toEqual([...VISIT_TYPE_IDS, "house_call"]);
    expect(withHouseCall.planKeys).toEqual([...VISIT_PLAN_KEYS, "ppv_house_call"]);
    expect(withHouseCall.isVisitType("house_call")).toBe(true);
    expect(withHouseCall.isVisitPlanKey("ppv_house_call")).toBe(true);
    expect(withHouseCall.visitTypeOfPlan("ppv_house_call")).toBe("house_call");
    expect(withHouseCall.visitTypeRow("house_call")).toEqual(HOUSE_CALL);
    expect(withHouseCall.offersField("house_call")).toBe("offers_house_call");
  });

  it("gets a value in every per-kind record, and a flag of its own", () => {
    const credits = withHouseCall.perVisitType(() => 0);
    expect(Object.keys(credits)).toEqual([...VISIT_TYPE_IDS, "house_call"]);
    expect(withHouseCall.perVisitPlan((row) => row.priceCents)).toMatchObject({ ppv_house_call: 3900 });
    const houseCallOnly = withHouseCall.offersOf(["house_call"]);
    expect(houseCallOnly).toEqual({
      ...Object.fromEntries(VISIT_TYPE_IDS.map((id) => [offersField(id), false])),
      offers_house_call: true,
    });
    expect(withHouseCall.offeredBy(houseCallOnly)).toEqual(["house_call"]);
    expect(withHouseCall.offeredBy(withHouseCall.offersOf(withHouseCall.ids))).toEqual(withHouseCall.ids);
  });

  it("leaves the kinds it does not have unknown", () => {
    expect(withHouseCall.isVisitType("fax")).toBe(false);
    expect(withHouseCall.isVisitPlanKey("ppv_fax")).toBe(false);
    expect(withHouseCall.isVisitPlanKey("subscription_monthly")).toBe(false);
    expect(withHouseCall.visitTypeOfPlan("subscription_yearly")).toBeNull();
    expect(withHouseCall.offeredBy(withHouseCall.offersOf(["fax"]))).toEqual([]);
    expect(() => withHouseCall.visitTypeRow("fax" as "house_call")).toThrow(/fax/);
  });

  it("is a kind the compiler asks a decision for wherever a record per kind is written", () => {
    type WithHouseCall = (typeof withHouseCall.ids)[number];
    // @ts-expect-error a record written for the current kinds lacks the new one
    const written: Record<WithHouseCall, number> = { chat: 0, video: 0 };
    expect(Object.keys(written)).not.toContain("house_call");
    const derived: Record<WithHouseCall, number> = withHouseCall.perVisitType(() => 1);
    expect(derived.house_call).toBe(1);
  });
});

describe("Ambercare's list of visit types", () => {
  it("has distinct kinds and distinct one-time plans", () => {
    expect(new Set(VISIT_TYPE_IDS).size).toBe(VISIT_TYPES.length);
    expect(new Set(VISIT_PLAN_KEYS).size).toBe(VISIT_TYPES.length);
    for (const id of VISIT_TYPE_IDS) expect(id).toMatch(/^[a-z][a-z_]*$/);
  });

  it("is frozen, row by row", () => {
    expect(Object.isFrozen(VISIT_TYPES)).toBe(true);
    for (const row of VISIT_TYPES) expect(Object.isFrozen(row)).toBe(true);
    expect(Object.isFrozen(VISIT_TYPE_IDS)).toBe(true);
  });

  it("gives each kind its one-time plan among the plans, priced from its row", () => {
    expect(PLAN_KEYS.filter((key) => PLANS[key].kind === "one_time")).toEqual(VISIT_PLAN_KEYS);
    for (const row of VISIT_TYPES) {
      const plan = PLANS[row.planKey];
      expect([plan.key, plan.visitType, plan.priceCents, plan.chargeCents]).toEqual([
        row.planKey,
        row.id,
        row.priceCents,
        row.priceCents,
      ]);
    }
  });

  it("shapes the API's fields from the list: a flag per kind, a credit count per kind", () => {
    const flags = Object.keys(provider.shape).filter((key) => key.startsWith("offers_"));
    expect(flags).toEqual(VISIT_TYPE_IDS.map(offersField));
    const entitlement = visitEntitlementResponse.parse({
      data: { is_subscribed: false, visit_credits: NO_VISIT_CREDITS },
    });
    expect(entitlement.data.visit_credits).toEqual(NO_VISIT_CREDITS);
    expect(Object.keys(NO_VISIT_CREDITS)).toEqual(VISIT_TYPE_IDS);
    // A credit of a kind the list does not have is refused.
    expect(
      visitEntitlementResponse.safeParse({
        data: { is_subscribed: false, visit_credits: { ...NO_VISIT_CREDITS, fax: 1 } },
      }).success,
    ).toBe(false);
  });

  it("takes each kind and no other as the directory's type filter", () => {
    for (const type of VISIT_TYPE_IDS) {
      expect(providerListQuery.parse({ type }).type).toBe(type satisfies VisitType);
    }
    expect(providerListQuery.safeParse({ type: "fax" }).success).toBe(false);
  });
});
