import {
  CONSULTATION_STATUSES,
  type ConsultationStatus,
  VISIT_ACTOR_KINDS,
} from "@ambercare/contracts/consultation-limits";
import { consultationStatusHistory, consultations, providers } from "@ambercare/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  canTransition,
  changeVisitStatus,
  VISIT_TRANSITIONS,
  type VisitActor,
} from "#api/modules/consultations/visit-lifecycle.ts";
import { createManualClock } from "#api/platform/clock.ts";
import { AppError } from "#api/platform/errors.ts";
import { createTestApp, registerPatient, type TestApp } from "#api/test-support.ts";

const clock = createManualClock(new Date("2026-04-02T08:00:00Z"));
let t: TestApp;
let userId: string;
let providerId: string;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: "100000" } });
  userId = (await registerPatient(t.app)).user_id;
  const [provider] = await t.db.db.select({ id: providers.id }).from(providers).limit(1);
  providerId = provider!.id;
});

afterAll(async () => {
  await t.close();
});

/** The column each status's check constraint wants set. */
const REACHED: Partial<Record<ConsultationStatus, keyof typeof consultations.$inferInsert>> = {
  accepted: "acceptedAt",
  in_progress: "startedAt",
  completed: "completedAt",
  canceled: "canceledAt",
  expired: "expiredAt",
  missed: "missedAt",
};

async function visitIn(status: ConsultationStatus): Promise<string> {
  const at = clock.now();
  const stamp = REACHED[status];
  const [row] = await t.db.db
    .insert(consultations)
    .values({
      userId,
      providerId,
      type: "chat",
      status,
      state: "CA",
      intake: {},
      paidWith: "membership",
      createdAt: at,
      updatedAt: at,
      ...(stamp ? { [stamp]: at } : {}),
      ...(status === "scheduled" || status === "missed" ? { scheduledStart: at } : {}),
    })
    .returning({ id: consultations.id });
  return row!.id;
}

function actorOf(kind: (typeof VISIT_ACTOR_KINDS)[number]): VisitActor {
  if (kind === "patient") return { kind, userId };
  if (kind === "clinician") return { kind, userId, providerId };
  return { kind };
}

const TARGETS = CONSULTATION_STATUSES.filter(
  (status): status is Exclude<ConsultationStatus, "requested" | "scheduled"> =>
    status !== "requested" && status !== "scheduled",
);
const cases = CONSULTATION_STATUSES.flatMap((from) =>
  TARGETS.flatMap((to) =>
    VISIT_ACTOR_KINDS.map((by) => ({ from, to, by, allowed: canTransition(from, to, by) })),
  ),
);

describe("the visit transition table", () => {
  it("allows exactly the thirteen documented changes", () => {
    expect(cases.filter((c) => c.allowed).map((c) => `${c.from}→${c.to} by ${c.by}`)).toEqual([
      "requested→accepted by clinician",
      "requested→canceled by patient",
      "requested→canceled by clinician",
      "requested→expired by system",
      "accepted→in_progress by clinician",
      "accepted→canceled by patient",
      "accepted→canceled by clinician",
      "in_progress→completed by clinician",
      "scheduled→in_progress by clinician",
      "scheduled→canceled by patient",
      "scheduled→canceled by clinician",
      "scheduled→canceled by system",
      "scheduled→missed by clinician",
    ]);
    expect(VISIT_TRANSITIONS).toHaveLength(13);
  });

  it.each(cases)("$from → $to by $by: allowed $allowed", async ({ from, to, by, allowed }) => {
    const id = await visitIn(from);
    clock.advance(1000);
    const change = t.db.db.transaction((tx) =>
      changeVisitStatus(tx, { consultationId: id, to, actor: actorOf(by), reason: "why", at: clock.now() }),
    );
    if (allowed) await expect(change).resolves.toBe(from);
    else {
      await expect(change).rejects.toBeInstanceOf(AppError);
      await expect(change).rejects.toMatchObject({ status: 409, code: "CONSULTATION_TRANSITION_REFUSED" });
    }
    const [after] = await t.db.db.select().from(consultations).where(eq(consultations.id, id));
    const history = await t.db.db
      .select()
      .from(consultationStatusHistory)
      .where(eq(consultationStatusHistory.consultationId, id));
    if (allowed) {
      expect(after!.status).toBe(to);
      expect(after![REACHED[to]!]).toEqual(clock.now());
      expect(history).toEqual([
        expect.objectContaining({
          fromStatus: from,
          toStatus: to,
          actorKind: by,
          actorUserId: by === "system" ? null : userId,
          reason: "why",
          at: clock.now(),
        }),
      ]);
    } else {
      expect(after!.status).toBe(from);
      expect(history).toEqual([]);
    }
  });

  it("changes nothing when the visit left the expected status first (a lost race)", async () => {
    const id = await visitIn("accepted");
    const error = await t.db.db
      .transaction((tx) =>
        changeVisitStatus(tx, {
          consultationId: id,
          from: "requested",
          to: "expired",
          actor: { kind: "system" },
          at: clock.now(),
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: "CONSULTATION_TRANSITION_REFUSED" });
    const [row] = await t.db.db.select().from(consultations).where(eq(consultations.id, id));
    expect(row!.status).toBe("accepted");
  });
});
