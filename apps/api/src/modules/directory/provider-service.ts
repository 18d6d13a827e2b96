import { LOCALES, type Locale } from "@ambercare/contracts/locales";
import type {
  Provider,
  ProviderCard,
  ProviderListQuery,
  ProviderListResponse,
} from "@ambercare/contracts/provider";
import { type PROVIDER_CREDENTIALS, PROVIDER_ERRORS } from "@ambercare/contracts/provider";
import { offersOf } from "@ambercare/contracts/visit-types";
import { licenceDay } from "@ambercare/db/schema";
import type {
  CatalogueItem,
  DirectoryEntry,
  ProviderDirectory,
} from "#api/modules/directory/provider-directory.ts";
import type {
  ProviderFilters,
  ProviderRepository,
  ProviderRow,
} from "#api/modules/directory/provider-repository.ts";
import { translated } from "#api/modules/directory/translations.ts";
import type { Availability } from "#api/modules/scheduling/availability.ts";
import { AppError } from "#api/platform/errors.ts";

type Credentials = (typeof PROVIDER_CREDENTIALS)[number];

/** Names of one language, and that language's alphabetical order for the conditions. */
function languageOf(lang: Locale) {
  const collator = new Intl.Collator(lang, { sensitivity: "base" });
  const name = (item: CatalogueItem) => ({
    slug: item.slug,
    name: translated(item.translations, "name", item.nameEn, lang),
  });
  return { collator, name };
}
const LANGUAGES = Object.fromEntries(LOCALES.map((lang) => [lang, languageOf(lang)])) as Record<
  Locale,
  ReturnType<typeof languageOf>
>;

/** The wait a new request can expect, by provider id, for those whose clinician is on duty. */
export type ExpectedWaits = (providerIds: readonly string[]) => Promise<Map<string, number>>;

/** Each provider's booking availability (the scheduling module's index, ADR 059). */
export type AvailabilityOf = () => Promise<Availability>;

const NO_AVAILABILITY: Availability = { byProvider: new Map(), freeToday: new Set() };

/** What a card shows that only the entry and the language decide, before the live fields. */
type CardHead = Omit<
  ProviderCard,
  "available_today" | "expected_wait_minutes" | "next_available" | "taking_visits" | "rating"
>;

/** What a provider's page adds to the card, which only the entry and the language decide. */
type PageTail = Pick<Provider, "bio" | "conditions" | "languages">;

/**
 * The parts of an answer that only an entry and a language decide, built once per entry (the
 * directory's copy keeps its entries until it reloads, which makes new ones): translating names and
 * sorting the conditions in the language's collation were most of a provider page's own work.
 * Shared between answers, so never changed once built.
 */
const cardHeads = new WeakMap<DirectoryEntry, Partial<Record<Locale, CardHead>>>();
const pageTails = new WeakMap<DirectoryEntry, Partial<Record<Locale, PageTail>>>();

/** `parts`'s value for the entry and language, built by `build` the first time. */
function partOf<T>(
  parts: WeakMap<DirectoryEntry, Partial<Record<Locale, T>>>,
  entry: DirectoryEntry,
  lang: Locale,
  build: () => T,
): T {
  let byLang = parts.get(entry);
  if (!byLang) {
    byLang = {};
    parts.set(entry, byLang);
  }
  let part = byLang[lang];
  if (part === undefined) {
    part = build();
    byLang[lang] = part;
  }
  return part;
}

const cardHeadOf = (entry: DirectoryEntry, lang: Locale): CardHead =>
  partOf(cardHeads, entry, lang, () => {
    const { row } = entry;
    const { name } = LANGUAGES[lang];
    return {
      id: row.id,
      slug: row.slug,
      name: `${row.firstName} ${row.lastName}`,
      first_name: row.firstName,
      last_name: row.lastName,
      // The check constraint providers_credentials_known guarantees the value.
      credentials: row.credentials as Credentials,
      photo: row.photoPath,
      specializations: entry.specializations.map(name),
      states: entry.states,
      ...offersOf(row.visitTypes),
    };
  });

const pageTailOf = (entry: DirectoryEntry, lang: Locale): PageTail =>
  partOf(pageTails, entry, lang, () => {
    const { row } = entry;
    const { collator, name } = LANGUAGES[lang];
    return {
      bio: translated(row.translations, "bio", row.bioEn, lang),
      conditions: entry.conditions.map(name).sort((a, b) => collator.compare(a.name, b.name)),
      languages: row.languages,
    };
  });

/** A search result: what its card shows. */
function toCard(
  entry: DirectoryEntry,
  lang: Locale,
  waits: Map<string, number>,
  availability: Availability,
): ProviderCard {
  const { row } = entry;
  const booking = availability.byProvider.get(row.id);
  return {
    ...cardHeadOf(entry, lang),
    // Only real clinicians: on duty now, or with a free slot left today.
    available_today: row.clinicianOnDuty || availability.freeToday.has(row.id),
    expected_wait_minutes: row.clinicianOnDuty ? (waits.get(row.id) ?? null) : null,
    next_available: booking?.nextAvailable?.toISOString() ?? null,
    taking_visits: booking?.takingVisits ?? false,
    rating: { average: Number(row.ratingAverage), count: row.ratingCount },
  };
}

/** The provider's page: the card and the rest. */
function toProvider(
  entry: DirectoryEntry,
  lang: Locale,
  waits: Map<string, number>,
  availability: Availability,
): Provider {
  return { ...toCard(entry, lang, waits, availability), ...pageTailOf(entry, lang) };
}

/**
 * Directory searches and provider pages. With `directory` (the in-memory copy, ADR 019) they are
 * answered from memory once it is loaded; the database answers until then.
 */
export function createProviderService(
  repository: ProviderRepository,
  directory?: ProviderDirectory,
  expectedWaits: ExpectedWaits = async () => new Map(),
  availabilityOf: AvailabilityOf = async () => NO_AVAILABILITY,
  /** The day (licenceDay of the API clock) a licence must be in force on to count. */
  today: () => string = () => licenceDay(new Date(), undefined),
) {
  /**
   * The waits of the entries shown whose clinician is on duty (nobody else has one): most searches
   * show none, and then ask the database nothing.
   */
  const waitsOf = (entries: DirectoryEntry[]) =>
    expectedWaits(entries.filter((entry) => entry.row.clinicianOnDuty).map((entry) => entry.row.id));

  /** Rows → entries with their specializations, conditions and licences, read from the database. */
  async function withLinks(rows: ProviderRow[]): Promise<DirectoryEntry[]> {
    const ids = rows.map((row) => row.id);
    const [specs, conds, licenses] = await Promise.all([
      repository.specializationsOf(ids),
      repository.conditionsOf(ids),
      repository.licensesOf(ids, today()),
    ]);
    const entries = new Map<string, DirectoryEntry>(
      rows.map((row) => [row.id, { row, specializations: [], conditions: [], states: [] }]),
    );
    for (const link of specs) entries.get(link.providerId)?.specializations.push(link);
    for (const link of conds) entries.get(link.providerId)?.conditions.push(link);
    for (const license of licenses) entries.get(license.providerId)?.states.push(license.state);
    return [...entries.values()];
  }

  return {
    /** One page of the directory; a page past the end is empty but still reports the total. */
    async search(query: ProviderListQuery): Promise<ProviderListResponse> {
      const availability = await availabilityOf();
      const filters: ProviderFilters = {
        namePrefix: query.q?.toLowerCase().replaceAll(/\s+/g, " "),
        specialization: query.specialization,
        condition: query.condition,
        state: query.state,
        type: query.type,
        availableToday: query.available_today,
        freeToday: availability.freeToday,
        today: today(),
      };
      const offset = (query.page - 1) * query.per_page;
      let found = directory?.search(filters, query.sort, query.per_page, offset) ?? null;
      if (!found) {
        const { rows, total } = await repository.search(filters, query.sort, query.per_page, offset);
        found = { entries: await withLinks(rows), total };
      }
      const waits = await waitsOf(found.entries);
      return {
        data: found.entries.map((entry) => toCard(entry, query.lang, waits, availability)),
        meta: { page: query.page, per_page: query.per_page, total: found.total },
      };
    },

    async get(slug: string, lang: Locale): Promise<Provider> {
      // undefined: the copy has no such provider; null: no copy to ask.
      let entry = directory ? directory.bySlug(slug) : null;
      if (entry === null) {
        const row = await repository.findBySlug(slug);
        entry = row ? (await withLinks([row]))[0] : undefined;
      }
      if (!entry) throw new AppError("PROVIDER_NOT_FOUND", 404, PROVIDER_ERRORS.notFound);
      return toProvider(entry, lang, await waitsOf([entry]), await availabilityOf());
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;
