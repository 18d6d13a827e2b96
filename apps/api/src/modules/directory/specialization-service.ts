import type { Locale } from "@ambercare/contracts/locales";
import type { Specialization } from "@ambercare/contracts/specialization";
import type { SpecializationRepository } from "#api/modules/directory/specialization-repository.ts";
import { translated } from "#api/modules/directory/translations.ts";

export function createSpecializationService(repository: SpecializationRepository) {
  return {
    /**
     * The catalogue in one language: specializations in their display order, each condition list
     * in alphabetical order of that language (so Bulgarian readers get Bulgarian order).
     */
    async list(lang: Locale): Promise<Specialization[]> {
      const [specializationRows, conditionRows] = await Promise.all([
        repository.listSpecializations(),
        repository.listConditions(),
      ]);
      const collator = new Intl.Collator(lang, { sensitivity: "base" });
      const bySpecialization = new Map<number, { slug: string; name: string }[]>();
      for (const row of conditionRows) {
        const list = bySpecialization.get(row.specializationId) ?? [];
        list.push({ slug: row.slug, name: translated(row.translations, "name", row.nameEn, lang) });
        bySpecialization.set(row.specializationId, list);
      }
      return specializationRows.map((row) => ({
        id: row.id,
        slug: row.slug,
        name: translated(row.translations, "name", row.nameEn, lang),
        description: translated(row.translations, "description", row.descriptionEn, lang),
        conditions: (bySpecialization.get(row.id) ?? []).sort((a, b) => collator.compare(a.name, b.name)),
      }));
    },
  };
}

export type SpecializationService = ReturnType<typeof createSpecializationService>;
