import type { VisitType } from "@ambercare/contracts/visit-types";
import type { Executor } from "@ambercare/db/client";
import {
  conditions,
  providerConditions,
  providerLicenses,
  providerSpecializations,
  providers,
  specializations,
  type Translations,
} from "@ambercare/db/schema";
import { and, asc, count, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import { escapeLike } from "#api/platform/sql-like.ts";

/** A provider's own columns as the editor writes them. */
export type EditorProviderColumns = {
  slug: string;
  firstName: string;
  lastName: string;
  credentials: string;
  bioEn: string;
  translations: Translations<"bio">;
  languages: string[];
  visitTypes: VisitType[];
};

const columns = {
  id: providers.id,
  slug: providers.slug,
  firstName: providers.firstName,
  lastName: providers.lastName,
  credentials: providers.credentials,
  photoPath: providers.photoPath,
  bioEn: providers.bioEn,
  translations: providers.translations,
  languages: providers.languages,
  visitTypes: providers.visitTypes,
  unlistedAt: providers.unlistedAt,
};

/** What the directory editor reads and writes: every provider, listed or not, and their links. */
export function createDirectoryEditorRepository(db: Executor) {
  return {
    async page(q: string | undefined, limit: number, offset: number) {
      const where: SQL | undefined = q
        ? sql`(lower(${providers.firstName} || ' ' || ${providers.lastName}) like ${`%${escapeLike(q.toLowerCase())}%`}
            or ${providers.slug} like ${`%${escapeLike(q.toLowerCase())}%`})`
        : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select(columns)
          .from(providers)
          .where(where)
          .orderBy(asc(providers.lastName), asc(providers.firstName), asc(providers.id))
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(providers).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** One provider; `lock` holds the row until the transaction ends (one edit at a time). */
    async byId(id: string, lock = false) {
      const query = db.select(columns).from(providers).where(eq(providers.id, id));
      const [row] = lock ? await query.for("update") : await query;
      return row;
    },

    async slugTaken(slug: string, exceptId?: string): Promise<boolean> {
      const [row] = await db
        .select({ id: providers.id })
        .from(providers)
        .where(
          exceptId ? and(eq(providers.slug, slug), ne(providers.id, exceptId)) : eq(providers.slug, slug),
        );
      return row !== undefined;
    },

    /** Catalogue ids by slug; a slug missing from the answer is unknown. */
    async catalogueIds(specs: string[], conds: string[]) {
      const [s, c] = await Promise.all([
        specs.length === 0
          ? []
          : db
              .select({ id: specializations.id, slug: specializations.slug })
              .from(specializations)
              .where(inArray(specializations.slug, specs)),
        conds.length === 0
          ? []
          : db
              .select({ id: conditions.id, slug: conditions.slug })
              .from(conditions)
              .where(inArray(conditions.slug, conds)),
      ]);
      return { specializations: s, conditions: c };
    },

    async insert(values: EditorProviderColumns): Promise<string> {
      const [row] = await db.insert(providers).values(values).returning({ id: providers.id });
      if (!row) throw new Error("The provider was not written");
      return row.id;
    },

    async update(id: string, values: Partial<EditorProviderColumns> & { photoPath?: string | null }) {
      await db.update(providers).set(values).where(eq(providers.id, id));
    },

    async setUnlisted(id: string, at: Date | null) {
      await db.update(providers).set({ unlistedAt: at }).where(eq(providers.id, id));
    },

    /** Replaces the provider's specializations, conditions and licences with these. */
    async replaceLinks(
      providerId: string,
      links: {
        specializationIds: number[];
        conditionIds: number[];
        licences: { state: string; expiresOn: string | null }[];
      },
    ) {
      await db.delete(providerSpecializations).where(eq(providerSpecializations.providerId, providerId));
      await db.delete(providerConditions).where(eq(providerConditions.providerId, providerId));
      await db.delete(providerLicenses).where(eq(providerLicenses.providerId, providerId));
      if (links.specializationIds.length > 0)
        await db
          .insert(providerSpecializations)
          .values(links.specializationIds.map((specializationId) => ({ providerId, specializationId })));
      if (links.conditionIds.length > 0)
        await db
          .insert(providerConditions)
          .values(links.conditionIds.map((conditionId) => ({ providerId, conditionId })));
      if (links.licences.length > 0)
        await db
          .insert(providerLicenses)
          .values(links.licences.map((licence) => ({ providerId, ...licence })));
    },

    /** The providers' specialization and condition slugs and licences. */
    async linksOf(ids: string[]) {
      if (ids.length === 0) return { specializations: [], conditions: [], licences: [] };
      const [specs, conds, licences] = await Promise.all([
        db
          .select({ providerId: providerSpecializations.providerId, slug: specializations.slug })
          .from(providerSpecializations)
          .innerJoin(specializations, eq(specializations.id, providerSpecializations.specializationId))
          .where(inArray(providerSpecializations.providerId, ids))
          .orderBy(asc(specializations.sortOrder), asc(specializations.slug)),
        db
          .select({ providerId: providerConditions.providerId, slug: conditions.slug })
          .from(providerConditions)
          .innerJoin(conditions, eq(conditions.id, providerConditions.conditionId))
          .where(inArray(providerConditions.providerId, ids))
          .orderBy(asc(conditions.slug)),
        db
          .select({
            providerId: providerLicenses.providerId,
            state: providerLicenses.state,
            expiresOn: providerLicenses.expiresOn,
          })
          .from(providerLicenses)
          .where(inArray(providerLicenses.providerId, ids))
          .orderBy(asc(providerLicenses.state)),
      ]);
      return { specializations: specs, conditions: conds, licences };
    },
  };
}
