import type { Executor } from "@ambercare/db/client";
import { conditions, specializations, type Translations } from "@ambercare/db/schema";
import { asc } from "drizzle-orm";

export type SpecializationRow = {
  id: number;
  slug: string;
  nameEn: string;
  descriptionEn: string;
  translations: Translations<"name" | "description">;
};

export type ConditionRow = {
  slug: string;
  nameEn: string;
  translations: Translations<"name">;
  specializationId: number;
};

export function createSpecializationRepository(db: Executor) {
  return {
    /** Every specialization in display order. */
    listSpecializations(): Promise<SpecializationRow[]> {
      return db
        .select({
          id: specializations.id,
          slug: specializations.slug,
          nameEn: specializations.nameEn,
          descriptionEn: specializations.descriptionEn,
          translations: specializations.translations,
        })
        .from(specializations)
        .orderBy(asc(specializations.sortOrder), asc(specializations.slug));
    },

    listConditions(): Promise<ConditionRow[]> {
      return db
        .select({
          slug: conditions.slug,
          nameEn: conditions.nameEn,
          translations: conditions.translations,
          specializationId: conditions.specializationId,
        })
        .from(conditions)
        .orderBy(asc(conditions.slug));
    },
  };
}

export type SpecializationRepository = ReturnType<typeof createSpecializationRepository>;
