import { DEMO_CLINICIAN, DEMO_PATIENT } from "@ambercare/contracts/demo";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "./client.ts";
import { runMigrations } from "./migrate.ts";
import {
  accessTokens,
  clinicians,
  conditions,
  passwordResetTokens,
  providerLicenses,
  providers,
  specializations,
  users,
} from "./schema.ts";
import { isDatabaseEmpty, seedDemoData } from "./seed.ts";
import { SEED_CONDITIONS, SEED_SPECIALIZATIONS } from "./seed-data.ts";
import { DEMO_PROVIDER_COUNT } from "./seed-providers.ts";
import { createTestDb, type TestDb } from "./testing.ts";

const expectedKind = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

let handle: TestDb;

beforeAll(async () => {
  handle = await createTestDb();
});

afterAll(async () => {
  await handle.cleanup();
});

/** Every row with its physical version (xmin): an UPDATE, even to equal values, changes xmin. */
async function snapshot() {
  const specs = await handle.db.execute(
    sql`select xmin::text as version, id, slug, name_en, description_en, translations, sort_order from specializations order by id`,
  );
  const conds = await handle.db.execute(
    sql`select xmin::text as version, id, slug, name_en, translations, specialization_id from conditions order by id`,
  );
  return { specs: specs.rows, conds: conds.rows };
}

describe("database", () => {
  it(`opens the expected driver (${expectedKind}) and answers ping`, async () => {
    expect(handle.kind).toBe(expectedKind);
    await expect(handle.ping()).resolves.toBeUndefined();
  });

  it("applies the migrations: the tables exist, start empty, and re-running is a no-op", async () => {
    const tables = await handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "access_tokens",
      "account_closures",
      "audit_log",
      "bookings",
      "cancel_feedback",
      "captcha_solutions",
      "checkouts",
      "clinician_hour_exceptions",
      "clinician_schedules",
      "clinician_weekly_hours",
      "clinicians",
      "conditions",
      "consultation_message_attachments",
      "consultation_messages",
      "consultation_status_history",
      "consultations",
      "contact_entries",
      "data_consents",
      "invoice_refunds",
      "invoices",
      "jobs",
      "live_events",
      "mailing_list_members",
      "medical_documents",
      "notification_deliveries",
      "operator_actions",
      "password_reset_tokens",
      "payments",
      "pending_logins",
      "processed_webhook_events",
      "provider_conditions",
      "provider_licenses",
      "provider_photos",
      "provider_specializations",
      "providers",
      "push_subscriptions",
      "rate_limit_buckets",
      "ratings",
      "recovery_codes",
      "second_factor_reset_tokens",
      "second_factors",
      "specializations",
      "subscription_history",
      "subscriptions",
      "text_message_consents",
      "text_message_numbers",
      "users",
      "visit_call_events",
      "visit_credits",
      "visit_note_addenda",
      "visit_notes",
    ]);
    const applied = await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied.rows[0]?.n).toBeGreaterThanOrEqual(1);
    expect(await isDatabaseEmpty(handle)).toBe(true);

    await runMigrations(handle);
    const again = await handle.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(again.rows[0]?.n).toBe(applied.rows[0]?.n);
  });

  it("enforces the foreign key from conditions to specializations", async () => {
    await expect(
      handle.db.insert(conditions).values({
        slug: "orphan",
        nameEn: "Orphan",
        translations: { bg: { name: "Сирак" } },
        specializationId: 999_999,
      }),
    ).rejects.toThrow();
  });

  it("keeps e-mail addresses lower-case and unique, and allows one service account", async () => {
    const account = { passwordHash: "x" };
    await expect(
      handle.db.insert(users).values({ ...account, email: "Upper@Example.org" }),
    ).rejects.toThrow();
    await handle.db.insert(users).values({ ...account, email: "one@example.org" });
    await expect(handle.db.insert(users).values({ ...account, email: "one@example.org" })).rejects.toThrow();
    await expect(
      // @ts-expect-error The column's type refuses an unknown language; the check constraint stops any other writer.
      handle.db.insert(users).values({ ...account, email: "two@example.org", locale: "fr" }),
    ).rejects.toThrow();
    await handle.db.insert(users).values({ ...account, email: "svc1@example.org", isServiceAccount: true });
    await expect(
      handle.db.insert(users).values({ ...account, email: "svc2@example.org", isServiceAccount: true }),
    ).rejects.toThrow();
    await handle.db.delete(users);
  });

  it("deletes an account's tokens with the account", async () => {
    const [user] = await handle.db
      .insert(users)
      .values({ email: "gone@example.org", passwordHash: "x" })
      .returning({ id: users.id });
    const at = new Date();
    await handle.db
      .insert(accessTokens)
      .values({ tokenHash: "a".repeat(64), userId: user!.id, surface: "main", createdAt: at, expiresAt: at });
    await expect(
      handle.db.insert(accessTokens).values({
        tokenHash: "b".repeat(64),
        userId: user!.id,
        surface: "web",
        createdAt: at,
        expiresAt: at,
      }),
    ).rejects.toThrow();
    await handle.db
      .insert(passwordResetTokens)
      .values({ tokenHash: "c".repeat(64), userId: user!.id, createdAt: at, expiresAt: at });
    await handle.db.delete(users).where(eq(users.id, user!.id));
    expect(await handle.db.select().from(accessTokens)).toEqual([]);
    expect(await handle.db.select().from(passwordResetTokens)).toEqual([]);
  });

  it("seeds the whole catalogue, and a second run changes nothing", async () => {
    const first = await seedDemoData(handle);
    expect(first).toEqual({
      specializations: SEED_SPECIALIZATIONS.length,
      conditions: SEED_CONDITIONS.length,
      providers: DEMO_PROVIDER_COUNT,
      demoPatients: 1,
      demoClinicians: 1,
    });
    expect(await isDatabaseEmpty(handle)).toBe(false);

    const before = await snapshot();
    expect(before.specs).toHaveLength(SEED_SPECIALIZATIONS.length);
    expect(before.conds).toHaveLength(SEED_CONDITIONS.length);

    const second = await seedDemoData(handle);
    expect(second).toEqual({
      specializations: 0,
      conditions: 0,
      providers: 0,
      demoPatients: 0,
      demoClinicians: 0,
    });
    const patients = await handle.db
      .select({
        email: users.email,
        isServiceAccount: users.isServiceAccount,
        done: users.profileCompletedAt,
        role: users.role,
      })
      .from(users)
      .orderBy(users.email);
    expect(patients).toEqual([
      { email: DEMO_CLINICIAN.email, isServiceAccount: false, done: null, role: "clinician" },
      { email: DEMO_PATIENT.email, isServiceAccount: false, done: expect.any(Date), role: "patient" },
    ]);
    const [link] = await handle.db
      .select({ slug: providers.slug, visitTypes: providers.visitTypes })
      .from(clinicians)
      .innerJoin(providers, eq(providers.id, clinicians.providerId));
    // Every kind of visit, so any demo patient's visit can reach it.
    expect(link).toEqual({ slug: DEMO_CLINICIAN.provider_slug, visitTypes: [...VISIT_TYPE_IDS] });
    const [licences] = await handle.db
      .select({ n: count() })
      .from(providerLicenses)
      .innerJoin(providers, eq(providers.id, providerLicenses.providerId))
      .where(eq(providers.slug, DEMO_CLINICIAN.provider_slug));
    expect(licences?.n).toBe(US_STATE_CODES.length);
    expect(await snapshot()).toEqual(before);
  });

  it("leaves the demo patient out when told (production on PostgreSQL)", async () => {
    const fresh = await createTestDb();
    try {
      const result = await seedDemoData(fresh, { demoPatient: false });
      expect(result).toEqual({
        specializations: SEED_SPECIALIZATIONS.length,
        conditions: SEED_CONDITIONS.length,
        providers: DEMO_PROVIDER_COUNT,
        demoPatients: 0,
        demoClinicians: 0,
      });
      expect(await fresh.db.select({ email: users.email }).from(users)).toEqual([]);
    } finally {
      await fresh.cleanup();
    }
  });

  it("repairs a changed seeded row on the next run and leaves the others untouched", async () => {
    await handle.db
      .update(specializations)
      .set({ translations: sql`jsonb_set(${specializations.translations}, '{bg,name}', '"Грешно име"')` })
      .where(eq(specializations.slug, "dermatology"));
    const result = await seedDemoData(handle);
    expect(result).toEqual({
      specializations: 1,
      conditions: 0,
      providers: 0,
      demoPatients: 0,
      demoClinicians: 0,
    });
    const [row] = await handle.db
      .select({ translations: specializations.translations })
      .from(specializations)
      .where(eq(specializations.slug, "dermatology"));
    expect(row?.translations.bg?.name).toBe("Дерматология");
  });

  it("links every seeded condition to its specialization", async () => {
    const rows = await handle.db
      .select({ condition: conditions.slug, specialization: specializations.slug })
      .from(conditions)
      .innerJoin(specializations, eq(conditions.specializationId, specializations.id));
    const bySlug = new Map(rows.map((row) => [row.condition, row.specialization]));
    for (const condition of SEED_CONDITIONS) {
      expect(bySlug.get(condition.slug)).toBe(condition.specializationSlug);
    }
    const [perSpecialization] = await handle.db
      .select({ n: count() })
      .from(specializations)
      .where(
        sql`not exists (select 1 from ${conditions} where ${conditions.specializationId} = ${specializations.id})`,
      );
    expect(perSpecialization?.n).toBe(0);
  });

  it("answers ping with a rejection once closed", async () => {
    const other = await createTestDb();
    await other.close();
    await expect(other.ping()).rejects.toThrow();
    await other.cleanup();
  });
});

describe("createDb", () => {
  it("refuses a URL of another database without echoing it (it may hold a password)", async () => {
    const attempt = createDb({ databaseUrl: "mysql://app:hunter2@db.internal/ambercare" });
    await expect(attempt).rejects.toThrow(/postgres:\/\//);
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });

  it("needs a data directory for the embedded database", async () => {
    await expect(createDb({})).rejects.toThrow(/dataDir is required/);
  });
});

describe("seed content", () => {
  const cyrillic = /[\u0400-\u04FF]/;

  it("has unique slugs and a Bulgarian text for every English one", () => {
    const specSlugs = SEED_SPECIALIZATIONS.map((s) => s.slug);
    const condSlugs = SEED_CONDITIONS.map((c) => c.slug);
    expect(new Set(specSlugs).size).toBe(specSlugs.length);
    expect(new Set(condSlugs).size).toBe(condSlugs.length);
    for (const s of SEED_SPECIALIZATIONS) {
      expect(s.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s.nameBg, s.slug).toMatch(cyrillic);
      expect(s.descriptionBg, s.slug).toMatch(cyrillic);
      expect(s.descriptionEn, s.slug).not.toMatch(cyrillic);
    }
    for (const c of SEED_CONDITIONS) {
      expect(c.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      // COVID-19 is written the same way in both languages.
      if (c.slug !== "covid-19") expect(c.nameBg, c.slug).toMatch(cyrillic);
      expect(c.nameEn, c.slug).not.toMatch(cyrillic);
    }
  });
});
