import { DEMO_CLINICIAN } from "@ambercare/contracts/demo";
import { US_STATE_CODES } from "@ambercare/contracts/us-states";
import { VISIT_TYPE_IDS } from "@ambercare/contracts/visit-types";
import { eq, inArray, sql } from "drizzle-orm";
import type { DbHandle, Executor } from "./client.ts";
import { clinicians, conditions, providers, specializations, users } from "./schema.ts";
import {
  SEED_CONDITIONS,
  SEED_DEMO_CLINICIAN,
  SEED_DEMO_PATIENT,
  SEED_SPECIALIZATIONS,
} from "./seed-data.ts";
import {
  DEFAULT_PROVIDER_SEED,
  DEMO_PROVIDER_COUNT,
  type GeneratedProvider,
  generateProvider,
  upsertProviders,
} from "./seed-providers.ts";

export type SeedResult = {
  /** Rows inserted or changed; 0 on a second run. */
  specializations: number;
  conditions: number;
  /** Demo providers (seed-providers.ts) inserted or changed. */
  providers: number;
  /** 1 when the demo patient was created, 0 when it existed already. */
  demoPatients: number;
  /** 1 when the demo clinician (and its provider) was created, 0 when it existed already. */
  demoClinicians: number;
};

/**
 * The demo clinician's provider: licensed in every state, every kind of visit, so any demo patient's
 * visit can reach it.
 */
export const DEMO_CLINICIAN_PROVIDER: GeneratedProvider = {
  ...generateProvider(DEFAULT_PROVIDER_SEED, 0),
  slug: DEMO_CLINICIAN.provider_slug,
  firstName: DEMO_CLINICIAN.first_name,
  lastName: DEMO_CLINICIAN.last_name,
  credentials: "MD",
  photoPath: null,
  bioEn: "Demo clinician of the care console: licensed in every state for chat and video visits.",
  bioBg: "Демонстрационен лекар на конзолата за грижа: с лиценз във всички щати за чат и видео консултации.",
  languages: ["en", "bg"],
  visitTypes: [...VISIT_TYPE_IDS],
  availableToday: true,
  states: [...US_STATE_CODES],
};

/** The demo provider and the clinician account linked to it; an existing account is left alone. */
async function seedDemoClinician(tx: Executor, now: Date): Promise<number> {
  await upsertProviders(tx, [DEMO_CLINICIAN_PROVIDER]);
  const [account] = await tx
    .insert(users)
    .values({ ...SEED_DEMO_CLINICIAN, emailConfirmedAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  if (!account) return 0;
  const [provider] = await tx
    .select({ id: providers.id })
    .from(providers)
    .where(eq(providers.slug, DEMO_CLINICIAN.provider_slug));
  if (!provider) throw new Error("The demo clinician's provider was not written");
  const linked = await tx
    .insert(clinicians)
    .values({ userId: account.id, providerId: provider.id, createdAt: now })
    .onConflictDoNothing()
    .returning({ userId: clinicians.userId });
  return linked.length;
}

/**
 * Upserts the demo catalogue by slug, in one transaction. A row is rewritten only when its content
 * differs, so a second run writes nothing (no new row versions, no churn in replicas or backups).
 * Rows that are not in the seed are left alone: an operator may have added them. The demo patient
 * (packages/contracts/src/demo.ts) is created when its e-mail is not taken. The demo directory is
 * DEMO_PROVIDER_COUNT generated providers (the same ones `npm run seed -- --providers N` starts with).
 */
/**
 * Whether a fresh database gets the demo patient, whose password is published in the README: only
 * outside production, unless SEED_DEMO_PATIENT says otherwise (the API and `npm run seed` agree).
 */
export function wantsDemoPatient(env: {
  NODE_ENV?: string | undefined;
  SEED_DEMO_PATIENT?: boolean | undefined;
}) {
  return env.SEED_DEMO_PATIENT ?? env.NODE_ENV !== "production";
}

/** `wantsDemoPatient` of the process environment, reading SEED_DEMO_PATIENT as the API's zod stringbool does. */
export function demoPatientFromEnv(env: Record<string, string | undefined>): boolean {
  const value = env.SEED_DEMO_PATIENT?.trim().toLowerCase();
  const truthy = ["true", "1", "yes", "on", "y", "enabled"];
  const falsy = ["false", "0", "no", "off", "n", "disabled"];
  if (value && !truthy.includes(value) && !falsy.includes(value)) {
    throw new Error("SEED_DEMO_PATIENT must be true or false");
  }
  return wantsDemoPatient({
    NODE_ENV: env.NODE_ENV,
    SEED_DEMO_PATIENT: value ? truthy.includes(value) : undefined,
  });
}

export async function seedDemoData(
  handle: Pick<DbHandle, "db">,
  options: { demoPatient?: boolean } = {},
): Promise<SeedResult> {
  const { demoPatient = true } = options;
  return handle.db.transaction(async (tx) => {
    const writtenSpecializations = await tx
      .insert(specializations)
      .values(
        SEED_SPECIALIZATIONS.map(({ nameBg, descriptionBg, ...s }) => ({
          ...s,
          translations: { bg: { name: nameBg, description: descriptionBg } },
        })),
      )
      .onConflictDoUpdate({
        target: specializations.slug,
        set: {
          nameEn: sql`excluded.name_en`,
          descriptionEn: sql`excluded.description_en`,
          translations: sql`excluded.translations`,
          sortOrder: sql`excluded.sort_order`,
        },
        setWhere: sql`(${specializations.nameEn}, ${specializations.descriptionEn}, ${specializations.translations}, ${specializations.sortOrder})
          is distinct from (excluded.name_en, excluded.description_en, excluded.translations, excluded.sort_order)`,
      })
      .returning({ id: specializations.id });

    const ids = await tx
      .select({ id: specializations.id, slug: specializations.slug })
      .from(specializations)
      .where(
        inArray(
          specializations.slug,
          SEED_SPECIALIZATIONS.map((s) => s.slug),
        ),
      );
    const idBySlug = new Map(ids.map((row) => [row.slug, row.id]));

    const conditionRows = SEED_CONDITIONS.map(({ specializationSlug, nameBg, ...condition }) => {
      const specializationId = idBySlug.get(specializationSlug);
      if (specializationId === undefined) {
        throw new Error(
          `Seed condition "${condition.slug}" names an unknown specialization "${specializationSlug}"`,
        );
      }
      return { ...condition, translations: { bg: { name: nameBg } }, specializationId };
    });
    const writtenConditions = await tx
      .insert(conditions)
      .values(conditionRows)
      .onConflictDoUpdate({
        target: conditions.slug,
        set: {
          nameEn: sql`excluded.name_en`,
          translations: sql`excluded.translations`,
          specializationId: sql`excluded.specialization_id`,
        },
        setWhere: sql`(${conditions.nameEn}, ${conditions.translations}, ${conditions.specializationId})
          is distinct from (excluded.name_en, excluded.translations, excluded.specialization_id)`,
      })
      .returning({ id: conditions.id });

    const demoProviders = Array.from({ length: DEMO_PROVIDER_COUNT }, (_, i) =>
      generateProvider(DEFAULT_PROVIDER_SEED, i),
    );
    const writtenProviders = await upsertProviders(tx, demoProviders);

    // An account is never rewritten: the demo patient may have changed its profile or password.
    // A real deployment gets the catalogue but never the publicly known demo account.
    const now = new Date();
    const writtenPatients = demoPatient
      ? await tx
          .insert(users)
          .values({
            ...SEED_DEMO_PATIENT,
            profileCompletedAt: now,
            emailConfirmedAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing({ target: users.email })
          .returning({ id: users.id })
      : [];
    const demoClinicians = demoPatient ? await seedDemoClinician(tx, now) : 0;

    return {
      specializations: writtenSpecializations.length,
      conditions: writtenConditions.length,
      providers: writtenProviders,
      demoPatients: writtenPatients.length,
      demoClinicians,
    };
  });
}

/** True when the catalogue has no rows yet, i.e. on a fresh database. */
export async function isDatabaseEmpty(handle: Pick<DbHandle, "db">): Promise<boolean> {
  const rows = await handle.db.select({ id: specializations.id }).from(specializations).limit(1);
  return rows.length === 0;
}
