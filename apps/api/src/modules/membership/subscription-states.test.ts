import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "@ambercare/contracts/membership-constants";
import { subscriptions, users } from "@ambercare/db/schema";
import { createTestDb, type TestDb } from "@ambercare/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMembershipRepository } from "#api/modules/membership/membership-repository.ts";
import {
  assertTransition,
  canTransition,
  ForbiddenTransitionError,
  transitionPath,
} from "#api/modules/membership/subscription-states.ts";

/** The graph of docs/decisions/015, written out independently of the module's table. */
const ALLOWED: ReadonlyArray<[SubscriptionStatus | null, SubscriptionStatus]> = [
  [null, "trialing"],
  [null, "active"],
  ["trialing", "active"],
  ["trialing", "canceled"],
  ["trialing", "past_due"],
  ["active", "canceled"],
  ["active", "past_due"],
  ["canceled", "active"],
  ["canceled", "trialing"],
  ["canceled", "ended"],
  ["past_due", "active"],
  ["past_due", "ended"],
];
const FROM: Array<SubscriptionStatus | null> = [null, ...SUBSCRIPTION_STATUSES];
const ALL_PAIRS = FROM.flatMap((from) => SUBSCRIPTION_STATUSES.map((to) => [from, to] as const));
const isAllowed = (from: SubscriptionStatus | null, to: SubscriptionStatus) =>
  ALLOWED.some(([a, b]) => a === from && b === to);
const FORBIDDEN = ALL_PAIRS.filter(([from, to]) => !isAllowed(from, to));

describe("the membership transition table", () => {
  it.each(ALLOWED)("allows %s → %s", (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each(FORBIDDEN)("forbids %s → %s", (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(ForbiddenTransitionError);
  });

  it("covers every pair: 12 allowed, the other 24 forbidden, nothing leaves ended", () => {
    expect(ALLOWED.length + FORBIDDEN.length).toBe(6 * 5);
    expect(FORBIDDEN.filter(([from]) => from === "ended")).toHaveLength(5);
  });

  it("finds the shortest chain of allowed steps, and none out of ended", () => {
    expect(transitionPath("active", "active")).toEqual([]);
    expect(transitionPath("trialing", "ended")).toEqual(["canceled", "ended"]);
    expect(transitionPath("past_due", "canceled")).toEqual(["active", "canceled"]);
    expect(transitionPath("ended", "active")).toBeUndefined();
  });
});

describe("status changes in the database", () => {
  let db: TestDb;
  let userId: string;
  const at = new Date("2026-01-01T00:00:00Z");

  beforeAll(async () => {
    db = await createTestDb();
    const [user] = await db.db
      .insert(users)
      .values({ email: "states@example.org", passwordHash: "x" })
      .returning({ id: users.id });
    userId = user!.id;
  });
  afterAll(async () => db.cleanup());

  async function membershipIn(status: SubscriptionStatus) {
    // Rows in an arbitrary status are made directly: the repository only creates trialing or active.
    // Only one membership per patient may be live.
    await db.db.update(subscriptions).set({ status: "ended" }).where(eq(subscriptions.userId, userId));
    const [row] = await db.db
      .insert(subscriptions)
      .values({
        userId,
        plan: "subscription_monthly",
        interval: "month",
        status,
        currentPeriodStart: at,
        currentPeriodEnd: new Date(at.getTime() + 86_400_000),
        provider: "demo",
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return row!;
  }

  it.each(ALLOWED.filter(([from]) => from !== null))(
    "changeStatus %s → %s writes the row and one history line",
    async (from, to) => {
      const repo = createMembershipRepository(db.db);
      const sub = await membershipIn(from as SubscriptionStatus);
      const changed = await repo.changeStatus(sub, to, "provider_update", at);
      expect(changed.status).toBe(to);
      expect(await repo.listHistory(sub.id)).toMatchObject([
        { fromStatus: from, toStatus: to, reason: "provider_update" },
      ]);
    },
  );

  it.each(FORBIDDEN.filter(([from]) => from !== null))(
    "changeStatus %s → %s throws and changes nothing",
    async (from, to) => {
      const repo = createMembershipRepository(db.db);
      const sub = await membershipIn(from as SubscriptionStatus);
      await expect(repo.changeStatus(sub, to, "provider_update", at)).rejects.toThrow(
        ForbiddenTransitionError,
      );
      expect((await repo.findSubscription(sub.id))?.status).toBe(from);
      expect(await repo.listHistory(sub.id)).toEqual([]);
    },
  );

  it("creates memberships only as trialing or active", async () => {
    const repo = createMembershipRepository(db.db);
    for (const status of ["canceled", "past_due", "ended"] as const) {
      await expect(
        repo.createSubscription(
          {
            userId,
            plan: "subscription_monthly",
            interval: "month",
            status,
            currentPeriodStart: at,
            currentPeriodEnd: new Date(at.getTime() + 1000),
            provider: "demo",
            createdAt: at,
          },
          "checkout_paid",
        ),
      ).rejects.toThrow(ForbiddenTransitionError);
    }
  });
});
