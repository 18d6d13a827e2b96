import { VISIT_TYPE_IDS, type VisitType } from "@ambercare/contracts/visit-types";
import { clinicians, consultations, providerLicenses } from "@ambercare/db/schema";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedWaits } from "#api/modules/care-console/expected-wait.ts";
import { createConsultationRepository } from "#api/modules/consultations/consultation-repository.ts";
import {
  createTestApp,
  offerEveryVisitType,
  registerClinician,
  registerPatient,
  type TestApp,
} from "#api/test-support.ts";

// A provider takes a visit when the visit's kind is one of the provider's kinds (ADR 056). Before,
// the SQL read `case type when 'chat' then offers_chat else offers_video end`: any other kind was
// taken as video. Here the database holds a visit of a kind the list does not have (its check is
// lifted for this file's own database) and no provider may take it, while a visit of each kind of
// the list reaches the provider that offers every kind.

const STATE = "VT";
const UNKNOWN = "fax" as VisitType;
const ACCEPT_TIMEOUT_MS = 60 * 60_000;

let t: TestApp;
let providerId: string;
let clinicianUserId: string;
let patientId: string;
const visitOf = new Map<string, string>();

async function request(type: string): Promise<string> {
  const [row] = await t.db.db
    .insert(consultations)
    .values({ userId: patientId, type: type as VisitType, state: STATE, createdAt: new Date() })
    .returning({ id: consultations.id });
  return row!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const clinician = await registerClinician(t, new Date());
  providerId = clinician.providerId;
  clinicianUserId = clinician.user_id;
  await offerEveryVisitType(t.db.db, providerId);
  await t.db.db.insert(providerLicenses).values({ providerId, state: STATE }).onConflictDoNothing();
  await t.db.db
    .update(clinicians)
    .set({ onDutySince: new Date() })
    .where(eq(clinicians.userId, clinicianUserId));
  patientId = (await registerPatient(t.app)).user_id;
  await t.db.db.execute(sql`alter table consultations drop constraint consultations_type_known`);
  for (const type of [...VISIT_TYPE_IDS, UNKNOWN]) visitOf.set(type, await request(type));
});

/** The day the licences are compared with (these calls are the repository's own, on the wall clock). */
const TODAY = new Date().toISOString().slice(0, 10);

afterAll(async () => {
  await t?.close();
});

describe("a visit's kind against the provider's kinds", () => {
  it("tells the provider's clinician of a visit of each kind of the list, of an unknown kind nobody", async () => {
    const repository = createConsultationRepository(t.db.db);
    for (const type of VISIT_TYPE_IDS) {
      expect(await repository.cliniciansWhoMayTake(visitOf.get(type)!, TODAY), type).toContain(
        clinicianUserId,
      );
    }
    expect(await repository.cliniciansWhoMayTake(visitOf.get(UNKNOWN)!, TODAY)).toEqual([]);
  });

  it("queues each kind of the list for the provider, and not the unknown kind", async () => {
    const queue = await createConsultationRepository(t.db.db).queueFor(
      providerId,
      new Date(),
      new Date(Date.now() - ACCEPT_TIMEOUT_MS),
      TODAY,
    );
    const mine = queue.filter((row) => [...visitOf.values()].includes(row.id)).map((row) => row.type);
    expect(mine.sort()).toEqual([...VISIT_TYPE_IDS].sort());
  });

  it("finds a provider in the state for each kind of the list, none for an unknown kind", async () => {
    const repository = createConsultationRepository(t.db.db);
    for (const type of VISIT_TYPE_IDS)
      expect(await repository.anyProviderIn(STATE, type, TODAY), type).toBe(true);
    expect(await repository.anyProviderIn(STATE, UNKNOWN, TODAY)).toBe(false);
  });

  it("counts the visits of the list's kinds in the expected wait, not the unknown kind", async () => {
    const now = new Date(Date.now() + 1000);
    const withUnknown = await expectedWaits(t.db.db, [providerId], now, ACCEPT_TIMEOUT_MS);
    await t.db.db.delete(consultations).where(eq(consultations.id, visitOf.get(UNKNOWN)!));
    const without = await expectedWaits(t.db.db, [providerId], now, ACCEPT_TIMEOUT_MS);
    expect(without.get(providerId)).toBeGreaterThan(0);
    expect(withUnknown.get(providerId)).toBe(without.get(providerId));
    // The known kinds do count: one fewer waiting visit shortens the wait.
    await t.db.db.delete(consultations).where(eq(consultations.id, visitOf.get(VISIT_TYPE_IDS[0])!));
    const fewer = await expectedWaits(t.db.db, [providerId], now, ACCEPT_TIMEOUT_MS);
    expect(fewer.get(providerId)).toBeLessThan(without.get(providerId)!);
  });
});
