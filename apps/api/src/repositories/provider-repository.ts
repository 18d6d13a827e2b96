import type { Executor } from "@ambercare/db/client";
import {
  conditions,
  providerConditions,
  providerLicenses,
  providerSpecializations,
  providers,
  specializations,
} from "@ambercare/db/schema";
import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";

export type ProviderRow = {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  credentials: string;
  photoPath: string | null;
  bioEn: string;
  bioBg: string;
  languages: string[];
  offersChat: boolean;
  offersVideo: boolean;
  availableToday: boolean;
  ratingAverage: number;
  ratingCount: number;
};

export type ProviderFilters = {
  /** Lower-cased prefix of a first name, last name or "first last". */
  namePrefix?: string | undefined;
  specialization?: string | undefined;
  condition?: string | undefined;
  state?: string | undefined;
  type?: "chat" | "video" | undefined;
  availableToday?: boolean | undefined;
};

export type ProviderLink = {
  providerId: string;
  slug: string;
  nameEn: string;
  nameBg: string;
  sortOrder: number;
};

const columns = {
  id: providers.id,
  slug: providers.slug,
  firstName: providers.firstName,
  lastName: providers.lastName,
  credentials: providers.credentials,
  photoPath: providers.photoPath,
  bioEn: providers.bioEn,
  bioBg: providers.bioBg,
  languages: providers.languages,
  offersChat: providers.offersChat,
  offersVideo: providers.offersVideo,
  availableToday: providers.availableToday,
  ratingAverage: providers.ratingAverage,
  ratingCount: providers.ratingCount,
};

/** `%` and `_` are LIKE wildcards; a patient typing them means the characters themselves. */
function escapeLike(text: string): string {
  return text.replaceAll(/[\\%_]/g, (c) => `\\${c}`);
}

/** Each filter is an index-backed EXISTS or column test (see the indexes in schema.ts). */
function whereOf(filters: ProviderFilters): SQL | undefined {
  const parts: SQL[] = [];
  if (filters.namePrefix !== undefined) {
    const pattern = `${escapeLike(filters.namePrefix)}%`;
    parts.push(
      sql`(lower(${providers.firstName}) like ${pattern} or lower(${providers.lastName}) like ${pattern} or lower(${providers.firstName} || ' ' || ${providers.lastName}) like ${pattern})`,
    );
  }
  if (filters.specialization !== undefined) {
    parts.push(sql`exists (select 1 from ${providerSpecializations}
      join ${specializations} on ${specializations.id} = ${providerSpecializations.specializationId}
      where ${providerSpecializations.providerId} = ${providers.id} and ${specializations.slug} = ${filters.specialization})`);
  }
  if (filters.condition !== undefined) {
    parts.push(sql`exists (select 1 from ${providerConditions}
      join ${conditions} on ${conditions.id} = ${providerConditions.conditionId}
      where ${providerConditions.providerId} = ${providers.id} and ${conditions.slug} = ${filters.condition})`);
  }
  if (filters.state !== undefined) {
    parts.push(sql`exists (select 1 from ${providerLicenses}
      where ${providerLicenses.providerId} = ${providers.id} and ${providerLicenses.state} = ${filters.state})`);
  }
  if (filters.type === "chat") parts.push(eq(providers.offersChat, true));
  if (filters.type === "video") parts.push(eq(providers.offersVideo, true));
  if (filters.availableToday !== undefined) parts.push(eq(providers.availableToday, filters.availableToday));
  return parts.length === 0 ? undefined : and(...parts);
}

export function createProviderRepository(db: Executor) {
  return {
    /** One page of matching providers and the number of all matches. */
    async search(
      filters: ProviderFilters,
      sort: "rating" | "name",
      limit: number,
      offset: number,
    ): Promise<{ rows: ProviderRow[]; total: number }> {
      const where = whereOf(filters);
      const byName = [asc(providers.lastName), asc(providers.firstName), asc(providers.id)];
      const order =
        sort === "rating"
          ? [sql`${providers.ratingAverage} desc nulls last`, desc(providers.ratingCount), ...byName]
          : byName;
      const [rows, [counted]] = await Promise.all([
        db
          .select(columns)
          .from(providers)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
        db.select({ n: count() }).from(providers).where(where),
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    async findBySlug(slug: string): Promise<ProviderRow | undefined> {
      const [row] = await db.select(columns).from(providers).where(eq(providers.slug, slug));
      return row;
    },

    async specializationsOf(providerIds: string[]): Promise<ProviderLink[]> {
      if (providerIds.length === 0) return [];
      return db
        .select({
          providerId: providerSpecializations.providerId,
          slug: specializations.slug,
          nameEn: specializations.nameEn,
          nameBg: specializations.nameBg,
          sortOrder: specializations.sortOrder,
        })
        .from(providerSpecializations)
        .innerJoin(specializations, eq(specializations.id, providerSpecializations.specializationId))
        .where(inArray(providerSpecializations.providerId, providerIds))
        .orderBy(asc(specializations.sortOrder), asc(specializations.slug));
    },

    async conditionsOf(providerIds: string[]): Promise<ProviderLink[]> {
      if (providerIds.length === 0) return [];
      return db
        .select({
          providerId: providerConditions.providerId,
          slug: conditions.slug,
          nameEn: conditions.nameEn,
          nameBg: conditions.nameBg,
          sortOrder: sql<number>`0`,
        })
        .from(providerConditions)
        .innerJoin(conditions, eq(conditions.id, providerConditions.conditionId))
        .where(inArray(providerConditions.providerId, providerIds));
    },

    async licensesOf(providerIds: string[]): Promise<{ providerId: string; state: string }[]> {
      if (providerIds.length === 0) return [];
      return db
        .select({ providerId: providerLicenses.providerId, state: providerLicenses.state })
        .from(providerLicenses)
        .where(inArray(providerLicenses.providerId, providerIds))
        .orderBy(asc(providerLicenses.state));
    },
  };
}

export type ProviderRepository = ReturnType<typeof createProviderRepository>;
