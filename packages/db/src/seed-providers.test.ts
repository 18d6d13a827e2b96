import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorActions, providerConditions, providerLicenses, providers } from "./schema.ts";
import { seedDemoData } from "./seed.ts";
import { SEED_CONDITIONS, SEED_SPECIALIZATIONS } from "./seed-data.ts";
import {
  createPrng,
  DEFAULT_PROVIDER_SEED,
  DEMO_PROVIDER_COUNT,
  generateProvider,
  seedProviders,
} from "./seed-providers.ts";
import { createTestDb, type TestDb } from "./testing.ts";

const demo = Array.from({ length: DEMO_PROVIDER_COUNT }, (_, i) =>
  generateProvider(DEFAULT_PROVIDER_SEED, i),
);

describe("generated providers", () => {
  it("are the same for the same seed and index, and differ for another seed", () => {
    expect(generateProvider(1, 42)).toEqual(generateProvider(1, 42));
    expect(generateProvider(2, 42)).not.toEqual(generateProvider(1, 42));
    const a = createPrng(7);
    const b = createPrng(7);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it("cover every specialization and every state in the demo directory, with unique slugs", () => {
    const slugs = new Set(demo.map((p) => p.slug));
    expect(slugs.size).toBe(DEMO_PROVIDER_COUNT);
    const specs = new Set(demo.flatMap((p) => p.specializationSlugs));
    expect([...specs].sort()).toEqual(SEED_SPECIALIZATIONS.map((s) => s.slug).sort());
    const states = new Set(demo.flatMap((p) => p.states));
    expect([...states].sort()).toEqual([...US_STATE_CODES].sort());
  });

  it("have English bios with the right article before every role (an osteopathic physician)", () => {
    const demo = Array.from({ length: DEMO_PROVIDER_COUNT }, (_, i) =>
      generateProvider(DEFAULT_PROVIDER_SEED, i),
    );
    const roles = new Set(demo.map((p) => p.credentials));
    expect(roles).toEqual(new Set(["MD", "DO", "NP", "PA"]));
    for (const provider of demo) {
      expect(provider.bioEn, provider.slug).not.toMatch(/(?<!\p{L})a [aeiou]/iu);
      expect(provider.bioEn, provider.slug).not.toMatch(/(?<!\p{L})an [^aeiou]/iu);
    }
  });

  it("are believable: 1–5 licences, conditions of their own specializations, English first", () => {
    const specOf = new Map(SEED_CONDITIONS.map((c) => [c.slug, c.specializationSlug]));
    for (const p of demo) {
      expect(p.states.length).toBeGreaterThanOrEqual(1);
      expect(p.states.length).toBeLessThanOrEqual(5);
      expect(p.states).toEqual([...p.states].sort());
      expect(p.conditionSlugs.length).toBeGreaterThanOrEqual(2);
      for (const c of p.conditionSlugs) expect(p.specializationSlugs).toContain(specOf.get(c));
      expect(p.languages[0]).toBe("en");
      expect(new Set(p.languages).size).toBe(p.languages.length);
      expect(p.visitTypes.length).toBeGreaterThan(0);
      // Kinds of the list, in its order, each once.
      expect(p.visitTypes).toEqual(VISIT_TYPE_IDS.filter((type) => p.visitTypes.includes(type)));
      expect(["MD", "DO", "NP", "PA"]).toContain(p.credentials);
      expect(p.bioEn).toContain(p.lastName);
      expect(p.bioBg).toMatch(/[\u0400-\u04FF]/);
      expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    // A mix, not a constant.
    expect(demo.some((p) => p.availableToday)).toBe(true);
    expect(demo.some((p) => !p.availableToday)).toBe(true);
    for (const type of VISIT_TYPE_IDS) expect(demo.some((p) => !p.visitTypes.includes(type))).toBe(true);
    expect(new Set(demo.flatMap((p) => p.languages)).size).toBeGreaterThanOrEqual(5);
  });
});

describe("seedProviders", () => {
  let handle: TestDb;

  beforeAll(async () => {
    handle = await createTestDb();
    await seedDemoData(handle, { demoPatient: false });
  });

  afterAll(async () => {
    await handle.cleanup();
  });

  /** Every directory row with its physical version (xmin): any UPDATE changes it. */
  async function snapshot() {
    const result = await handle.db.execute(sql`select
      (select json_agg(p order by slug) from (select xmin::text as v, slug, first_name, last_name, credentials, bio_en, translations, languages, visit_types, available_today, rating_count, rating_average from providers) p) as providers,
      (select count(*)::int from provider_specializations) as specs,
      (select count(*)::int from provider_conditions) as conds,
      (select count(*)::int from provider_licenses) as licences`);
    return result.rows[0];
  }

  it("seeds the demo directory with every link, and a second run writes nothing", async () => {
    const before = await snapshot();
    expect(before?.specs).toBe(demo.reduce((n, p) => n + p.specializationSlugs.length, 0));
    expect(before?.conds).toBe(demo.reduce((n, p) => n + p.conditionSlugs.length, 0));
    expect(before?.licences).toBe(demo.reduce((n, p) => n + p.states.length, 0));
    expect(await seedProviders(handle)).toBe(0);
    expect(
      await seedProviders(handle, { count: DEMO_PROVIDER_COUNT, seed: DEFAULT_PROVIDER_SEED, batchSize: 7 }),
    ).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it("generates more providers in batches, extending the demo directory", async () => {
    const progress: number[] = [];
    const written = await seedProviders(handle, {
      count: 450,
      batchSize: 200,
      onProgress: (n) => progress.push(n),
    });
    expect(written).toBe(150);
    expect(progress).toEqual([200, 400, 450]);
    const [row] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(providers);
    expect(row?.n).toBe(450);
  });

  it("keeps the rating aggregate and repairs a changed provider on the next run", async () => {
    const slug = demo[3]!.slug;
    await handle.db
      .update(providers)
      .set({ ratingCount: 2, ratingSum: 9, ratingAverage: 4.5, bioEn: "changed" })
      .where(eq(providers.slug, slug));
    expect(await seedProviders(handle)).toBe(1);
    const [row] = await handle.db
      .select({ bioEn: providers.bioEn, count: providers.ratingCount, average: providers.ratingAverage })
      .from(providers)
      .where(eq(providers.slug, slug));
    expect(row).toEqual({ bioEn: demo[3]!.bioEn, count: 2, average: 4.5 });
  });

  it("gives the same rows for the same seed on another database", async () => {
    const other = await createTestDb();
    try {
      await seedDemoData(other, { demoPatient: false });
      const demoSlugs = demo.map((p) => p.slug).filter((slug) => slug !== demo[3]!.slug);
      const rows = (db: TestDb) =>
        db.db.execute(sql`select slug, first_name, last_name, credentials, bio_en, translations, languages,
            visit_types, available_today,
            (select array_agg(state order by state) from provider_licenses l where l.provider_id = p.id) as states,
            (select array_agg(c.slug order by c.slug) from provider_conditions pc join conditions c on c.id = pc.condition_id where pc.provider_id = p.id) as conditions
          from providers p where slug in ${sql.raw(`(${demoSlugs.map((slug) => `'${slug}'`).join(", ")})`)} order by slug`);
      const mine = await rows(handle);
      expect(mine.rows).toHaveLength(DEMO_PROVIDER_COUNT - 1);
      expect((await rows(other)).rows).toEqual(mine.rows);
    } finally {
      await other.cleanup();
    }
  });

  it("leaves a provider an operator edited as the operator left it, and still repairs the others", async () => {
    const [edited, untouched] = [demo[5]!, demo[6]!];
    const idOf = async (slug: string) =>
      (await handle.db.select({ id: providers.id }).from(providers).where(eq(providers.slug, slug)))[0]!.id;
    const editedId = await idOf(edited.slug);
    const untouchedId = await idOf(untouched.slug);
    // The directory editor's change, as it writes it: the provider, one licence and one condition
    // fewer, and its entry in the operations log in the same transaction.
    const [removedState] = edited.states;
    const [removedCondition] = await handle.db
      .select({ id: providerConditions.conditionId })
      .from(providerConditions)
      .where(eq(providerConditions.providerId, editedId))
      .limit(1);
    await handle.db.transaction(async (tx) => {
      await tx
        .update(providers)
        .set({ bioEn: "Edited by the clinic.", credentials: "DO", visitTypes: ["chat"] })
        .where(eq(providers.id, editedId));
      await tx
        .delete(providerLicenses)
        .where(and(eq(providerLicenses.providerId, editedId), eq(providerLicenses.state, removedState!)));
      await tx
        .delete(providerConditions)
        .where(
          and(
            eq(providerConditions.providerId, editedId),
            eq(providerConditions.conditionId, removedCondition!.id),
          ),
        );
      await tx.insert(operatorActions).values({
        actorUserId: null,
        action: "provider.update",
        targetType: "provider",
        targetId: editedId,
        detail: { slug: edited.slug },
      });
    });
    // A provider changed outside the editor (no entry in the log) is still the seed's to repair.
    await handle.db.update(providers).set({ bioEn: "drifted" }).where(eq(providers.id, untouchedId));

    expect(await seedProviders(handle)).toBe(1);
    expect(await seedProviders(handle)).toBe(0);
    const [row] = await handle.db
      .select({
        bioEn: providers.bioEn,
        credentials: providers.credentials,
        visitTypes: providers.visitTypes,
      })
      .from(providers)
      .where(eq(providers.id, editedId));
    expect(row).toEqual({ bioEn: "Edited by the clinic.", credentials: "DO", visitTypes: ["chat"] });
    const states = await handle.db
      .select({ state: providerLicenses.state })
      .from(providerLicenses)
      .where(eq(providerLicenses.providerId, editedId));
    expect(states.map((licence) => licence.state).sort()).toEqual(
      edited.states.filter((state) => state !== removedState).sort(),
    );
    const conditionCount = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(providerConditions)
      .where(eq(providerConditions.providerId, editedId));
    expect(conditionCount[0]?.n).toBe(edited.conditionSlugs.length - 1);
    const [repaired] = await handle.db
      .select({ bioEn: providers.bioEn })
      .from(providers)
      .where(eq(providers.id, untouchedId));
    expect(repaired?.bioEn).toBe(untouched.bioEn);
  });
});
