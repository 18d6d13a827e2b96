import type { VisitType } from "@ambercare/contracts/visit-types";
import type { Executor } from "@ambercare/db/client";
import {
  clinicians,
  conditions,
  licenceInForce,
  providerConditions,
  providerLicenses,
  providerSpecializations,
  providers,
  specializations,
  type Translations,
} from "@ambercare/db/schema";
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { escapeLike } from "#api/platform/sql-like.ts";

export type ProviderRow = {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  credentials: string;
  photoPath: string | null;
  bioEn: string;
  translations: Translations<"bio">;
  languages: string[];
  /** The kinds of visit offered (ids of the visit-types list). */
  visitTypes: VisitType[];
  availableToday: boolean;
  /** A clinician of this provider is on duty in the console now (only they have an expected wait). */
  clinicianOnDuty: boolean;
  ratingAverage: number;
  ratingCount: number;
};

export type ProviderFilters = {
  /** Lower-cased prefix of a first name, last name or "first last". */
  namePrefix?: string | undefined;
  specialization?: string | undefined;
  condition?: string | undefined;
  state?: string | undefined;
  type?: VisitType | undefined;
  availableToday?: boolean | undefined;
  /** Providers with a free bookable slot today: "available today" with those on duty (ADR 059). */
  freeToday?: ReadonlySet<string> | undefined;
  /** The day (licenceDay) a licence must be in force on to count for `state`; default: no expiry check. */
  today?: string | undefined;
};

export type ProviderLink = {
  providerId: string;
  slug: string;
  nameEn: string;
  translations: Translations<"name">;
  sortOrder: number;
};

/** A specialization or condition of the catalogue. */
export type CatalogueRow = { id: number; slug: string; nameEn: string; translations: Translations<"name"> };

/**
 * A clinician of this provider is on duty in the console now (a disabled account is off duty): with
 * a free bookable slot today (`freeToday`, computed by the scheduling module), that is "available
 * today" (ADR 059). A provider without a clinician account never is: the seeded
 * `providers.available_today` flag is no longer read.
 */
const clinicianOnDutySql = sql<boolean>`exists (select 1 from ${clinicians} where ${clinicians.providerId} = ${providers.id}
  and ${clinicians.onDutySince} is not null and ${clinicians.disabledAt} is null)`;

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
  availableToday: clinicianOnDutySql,
  clinicianOnDuty: clinicianOnDutySql,
  ratingAverage: providers.ratingAverage,
  ratingCount: providers.ratingCount,
};

/** Patients see only listed providers (an operator may unlist one, ADR 065). */
const listed = isNull(providers.unlistedAt);

/**
 * Each filter is an index-backed EXISTS or column test (see the indexes in schema.ts). A slug is
 * resolved by a scalar subquery, so the planner knows the one id it probes the link tables for.
 */
function whereOf(filters: ProviderFilters): SQL | undefined {
  // An unlisted provider is in no search (ADR 065).
  const parts: SQL[] = [listed];
  if (filters.namePrefix !== undefined) {
    const pattern = `${escapeLike(filters.namePrefix)}%`;
    // Without a space, "the full name starts with it" is "the first name starts with it": one
    // branch less for the planner to combine.
    parts.push(
      filters.namePrefix.includes(" ")
        ? sql`(lower(${providers.lastName}) like ${pattern} or lower(${providers.firstName} || ' ' || ${providers.lastName}) like ${pattern})`
        : sql`(lower(${providers.firstName}) like ${pattern} or lower(${providers.lastName}) like ${pattern})`,
    );
  }
  if (filters.specialization !== undefined) {
    parts.push(sql`exists (select 1 from ${providerSpecializations}
      where ${providerSpecializations.providerId} = ${providers.id}
      and ${providerSpecializations.specializationId} = (select ${specializations.id} from ${specializations} where ${specializations.slug} = ${filters.specialization}))`);
  }
  if (filters.condition !== undefined) {
    parts.push(sql`exists (select 1 from ${providerConditions}
      where ${providerConditions.providerId} = ${providers.id}
      and ${providerConditions.conditionId} = (select ${conditions.id} from ${conditions} where ${conditions.slug} = ${filters.condition}))`);
  }
  if (filters.state !== undefined) {
    parts.push(sql`exists (select 1 from ${providerLicenses}
      where ${providerLicenses.providerId} = ${providers.id} and ${providerLicenses.state} = ${filters.state}
      and ${filters.today === undefined ? sql`true` : licenceInForce(filters.today)})`);
  }
  if (filters.type !== undefined) parts.push(sql`${filters.type} = any(${providers.visitTypes})`);
  if (filters.availableToday !== undefined) {
    const free = [...(filters.freeToday ?? [])];
    const available =
      free.length === 0 ? clinicianOnDutySql : sql`(${clinicianOnDutySql} or ${inArray(providers.id, free)})`;
    parts.push(filters.availableToday ? available : sql`not ${available}`);
  }
  return and(...parts);
}

/** The directory's default order: best rated, most rated, then by name (providers_rating_order_idx). */
const ratingOrder = [
  sql`${providers.ratingAverage} desc nulls last`,
  sql`${providers.ratingCount} desc nulls last`,
  asc(providers.lastName),
  asc(providers.firstName),
  asc(providers.id),
];
const nameOrder = [asc(providers.lastName), asc(providers.firstName), asc(providers.id)];

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
      // The columns and null ordering of an index, so PostgreSQL reads the page off it.
      const order = sort === "rating" ? ratingOrder : nameOrder;
      // The page's ids first, from the ordering index alone (an index-only scan skips the rows
      // before the page without reading them), then those rows: a deep page costs no more than the
      // first.
      const pageIds = db
        .select({ id: providers.id })
        .from(providers)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      const [rows, [counted]] = await Promise.all([
        db
          .select(columns)
          .from(providers)
          .where(inArray(providers.id, pageIds))
          .orderBy(...order),
        db.select({ n: count() }).from(providers).where(where),
      ]);
      return { rows, total: counted?.n ?? 0 };
    },

    /** Every provider, in the directory's default order (the ordering is the database's collation). */
    async allInRatingOrder(): Promise<ProviderRow[]> {
      return db
        .select(columns)
        .from(providers)
        .where(listed)
        .orderBy(...ratingOrder);
    },

    /** Every provider's id in name order. */
    async idsInNameOrder(): Promise<string[]> {
      const rows = await db
        .select({ id: providers.id })
        .from(providers)
        .where(listed)
        .orderBy(...nameOrder);
      return rows.map((row) => row.id);
    },

    /** Every provider ↔ specialization, condition and licence link. */
    async allLinks(): Promise<{
      specializations: { providerId: string; id: number }[];
      conditions: { providerId: string; id: number }[];
      licenses: { providerId: string; state: string; expiresOn: string | null }[];
    }> {
      const [specs, conds, licenses] = await Promise.all([
        db
          .select({
            providerId: providerSpecializations.providerId,
            id: providerSpecializations.specializationId,
          })
          .from(providerSpecializations),
        db
          .select({ providerId: providerConditions.providerId, id: providerConditions.conditionId })
          .from(providerConditions),
        db
          .select({
            providerId: providerLicenses.providerId,
            state: providerLicenses.state,
            expiresOn: providerLicenses.expiresOn,
          })
          .from(providerLicenses)
          .orderBy(asc(providerLicenses.state)),
      ]);
      return { specializations: specs, conditions: conds, licenses };
    },

    /** The specialization and condition catalogues; specializations in their display order. */
    async catalogue(): Promise<{ specializations: CatalogueRow[]; conditions: CatalogueRow[] }> {
      const pick = <T extends typeof specializations | typeof conditions>(table: T) => ({
        id: table.id,
        slug: table.slug,
        nameEn: table.nameEn,
        translations: table.translations,
      });
      const [specs, conds] = await Promise.all([
        db
          .select(pick(specializations))
          .from(specializations)
          .orderBy(asc(specializations.sortOrder), asc(specializations.slug)),
        db.select(pick(conditions)).from(conditions),
      ]);
      return { specializations: specs, conditions: conds };
    },

    /**
     * A cheap summary that changes whenever a provider is added or removed or receives a rating:
     * other API instances compare it to notice that their copy of the directory is out of date.
     */
    async fingerprint(): Promise<string> {
      const [row] = await db
        .select({
          providers: count(),
          ratings: sql<string>`coalesce(sum(${providers.ratingCount}), 0)::text`,
          latest: sql<string>`coalesce(max(${providers.createdAt})::text, '')`,
          // A clinician going on or off duty changes their provider's "Available today".
          // An operator's edit is announced to every process (directory-editor-signal.ts); these
          // catch one whose announcement was lost: a listing, unlisting or licence change.
          unlisted: sql<string>`count(${providers.unlistedAt})::text`,
          licences: sql<string>`(select count(*)::text || ':' || coalesce(max(${providerLicenses.expiresOn})::text, '')
            from ${providerLicenses})`,
          onDuty: sql<string>`(select coalesce(string_agg(${clinicians.providerId}::text, ',' order by ${clinicians.providerId}), '')
            from ${clinicians} where ${clinicians.onDutySince} is not null and ${clinicians.disabledAt} is null)`,
        })
        .from(providers);
      return `${row?.providers ?? 0}/${row?.ratings ?? 0}/${row?.latest ?? ""}/${row?.unlisted ?? ""}/${row?.licences ?? ""}/${row?.onDuty ?? ""}`;
    },

    async findBySlug(slug: string): Promise<ProviderRow | undefined> {
      const [row] = await db
        .select(columns)
        .from(providers)
        .where(and(eq(providers.slug, slug), listed));
      return row;
    },

    async specializationsOf(providerIds: string[]): Promise<ProviderLink[]> {
      if (providerIds.length === 0) return [];
      return db
        .select({
          providerId: providerSpecializations.providerId,
          slug: specializations.slug,
          nameEn: specializations.nameEn,
          translations: specializations.translations,
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
          translations: conditions.translations,
          sortOrder: sql<number>`0`,
        })
        .from(providerConditions)
        .innerJoin(conditions, eq(conditions.id, providerConditions.conditionId))
        .where(inArray(providerConditions.providerId, providerIds));
    },

    /** The states where each provider holds a licence in force on `today` (licenceDay). */
    async licensesOf(providerIds: string[], today: string): Promise<{ providerId: string; state: string }[]> {
      if (providerIds.length === 0) return [];
      return db
        .select({ providerId: providerLicenses.providerId, state: providerLicenses.state })
        .from(providerLicenses)
        .where(and(inArray(providerLicenses.providerId, providerIds), licenceInForce(today)))
        .orderBy(asc(providerLicenses.state));
    },
  };
}

export type ProviderRepository = ReturnType<typeof createProviderRepository>;
