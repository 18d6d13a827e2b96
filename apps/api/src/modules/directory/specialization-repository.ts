import type { Executor } from "@ambercare/db/client";
import { conditions, specializations } from "@ambercare/db/schema";
import { asc } from "drizzle-orm";

export type SpecializationRow = {
  id: number;
  slug: string;
  nameEn: string;
  nameBg: string;
  descriptionEn: string;
  descriptionBg: string;
};

export type ConditionRow = {
  slug: string;
  nameEn: string;
  nameBg: string;
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
          nameBg: specializations.nameBg,
          descriptionEn: specializations.descriptionEn,
          descriptionBg: specializations.descriptionBg,
        })
        .from(specializations)
        .orderBy(asc(specializations.sortOrder), asc(specializations.slug));
    },

    listConditions(): Promise<ConditionRow[]> {
      return db
        .select({
          slug: conditions.slug,
          nameEn: conditions.nameEn,
          nameBg: conditions.nameBg,
          specializationId: conditions.specializationId,
        })
        .from(conditions)
        .orderBy(asc(conditions.slug));
    },
  };
}

export type SpecializationRepository = ReturnType<typeof createSpecializationRepository>;
