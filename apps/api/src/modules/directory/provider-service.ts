import { LOCALES, type Locale } from "@ambercare/contracts/locales";
import type {
  Provider,
  ProviderCard,
  ProviderListQuery,
  ProviderListResponse,
  ProviderResponse,
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
import type { JsonOf } from "#api/platform/contract-routes.ts";
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

/** What a card shows that only the entry and the language decide (jsonPartsOf keeps its JSON). */
function cardHeadOf(entry: DirectoryEntry, lang: Locale): CardHead {
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
}

/** What a provider's page adds to the card (jsonPartsOf keeps its JSON). */
function pageTailOf(entry: DirectoryEntry, lang: Locale): PageTail {
  const { row } = entry;
  const { collator, name } = LANGUAGES[lang];
  return {
    bio: translated(row.translations, "bio", row.bioEn, lang),
    conditions: entry.conditions.map(name).sort((a, b) => collator.compare(a.name, b.name)),
    languages: row.languages,
  };
}

/** A card's fields that change between answers: duty, waits and free slots, as of this answer. */
type LiveFields = Pick<
  ProviderCard,
  "available_today" | "expected_wait_minutes" | "next_available" | "taking_visits"
>;

function liveFieldsOf(
  entry: DirectoryEntry,
  waits: Map<string, number>,
  availability: Availability,
): LiveFields {
  const { row } = entry;
  const booking = availability.byProvider.get(row.id);
  return {
    // Only real clinicians: on duty now, or with a free slot left today.
    available_today: row.clinicianOnDuty || availability.freeToday.has(row.id),
    expected_wait_minutes: row.clinicianOnDuty ? (waits.get(row.id) ?? null) : null,
    next_available: booking?.nextAvailable?.toISOString() ?? null,
    taking_visits: booking?.takingVisits ?? false,
  };
}

/**
 * An entry's JSON in a language around its live fields, its keys in the order the answers have always
 * had: `open` is the card up to them (`{"id":…` without its closing brace), `cardClose` the card's
 * rating after them, and `pageClose` the rating and the page's bio, conditions and languages.
 *
 * Built once per entry and language, and shared between answers: the directory's copy keeps its
 * entries until it reloads, which makes new ones. Translating names and sorting the conditions in
 * the language's collation were most of a provider page's own work, and building each answer's
 * object and serialising it whole was then about a tenth of its CPU in the API (bench/http,
 * profiled).
 */
type JsonParts = { open: string; cardClose: string; pageClose: string };
const jsonParts = new WeakMap<DirectoryEntry, Partial<Record<Locale, JsonParts>>>();

function jsonPartsOf(entry: DirectoryEntry, lang: Locale): JsonParts {
  let byLang = jsonParts.get(entry);
  if (!byLang) {
    byLang = {};
    jsonParts.set(entry, byLang);
  }
  byLang[lang] ??= buildJsonParts(entry, lang);
  return byLang[lang];
}

function buildJsonParts(entry: DirectoryEntry, lang: Locale): JsonParts {
  const { row } = entry;
  const rating: Pick<ProviderCard, "rating"> = {
    rating: { average: Number(row.ratingAverage), count: row.ratingCount },
  };
  const tail: Pick<Provider, "rating" | "bio" | "conditions" | "languages"> = {
    ...rating,
    ...pageTailOf(entry, lang),
  };
  // Each a non-empty object: `{…}` whose braces are cut where the live fields go.
  return {
    open: JSON.stringify(cardHeadOf(entry, lang)).slice(0, -1),
    cardClose: `,${JSON.stringify(rating).slice(1)}`,
    pageClose: `,${JSON.stringify(tail).slice(1)}`,
  };
}

/** A card or a provider's page as JSON: its cached parts around this answer's live fields. */
function entryJson(entry: DirectoryEntry, lang: Locale, live: LiveFields, kind: "card" | "page"): string {
  const parts = jsonPartsOf(entry, lang);
  const close = kind === "card" ? parts.cardClose : parts.pageClose;
  return `${parts.open},${JSON.stringify(live).slice(1, -1)}${close}`;
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
    async searchAnswer(query: ProviderListQuery): Promise<JsonOf<ProviderListResponse>> {
      const availability = await availabilityOf();
      const filters: ProviderFilters = {
        namePrefix: query.q?.toLowerCase().replaceAll(/\s+/g, " "),
        specialization: query.specialization,
        condition: query.condition,
        state: query.state,
        type: query.type,
        availableToday: query.available_today,
        freeToday: availability.freeToday,
      };
      const offset = (query.page - 1) * query.per_page;
      let found = directory?.search(filters, query.sort, query.per_page, offset) ?? null;
      if (!found) {
        // The licences in force today: the copy holds only those already, so only the database asks.
        const { rows, total } = await repository.search(
          { ...filters, today: today() },
          query.sort,
          query.per_page,
          offset,
        );
        found = { entries: await withLinks(rows), total };
      }
      const waits = await waitsOf(found.entries);
      const cards = found.entries.map((entry) =>
        entryJson(entry, query.lang, liveFieldsOf(entry, waits, availability), "card"),
      );
      const meta: ProviderListResponse["meta"] = {
        page: query.page,
        per_page: query.per_page,
        total: found.total,
      };
      return `{"data":[${cards.join(",")}],"meta":${JSON.stringify(meta)}}`;
    },

    /** A provider's page, `{ data }`. */
    async pageAnswer(slug: string, lang: Locale): Promise<JsonOf<ProviderResponse>> {
      // undefined: the copy has no such provider; null: no copy to ask.
      let entry = directory ? directory.bySlug(slug) : null;
      if (entry === null) {
        const row = await repository.findBySlug(slug);
        entry = row ? (await withLinks([row]))[0] : undefined;
      }
      if (!entry) throw new AppError("PROVIDER_NOT_FOUND", 404, PROVIDER_ERRORS.notFound);
      const live = liveFieldsOf(entry, await waitsOf([entry]), await availabilityOf());
      return `{"data":${entryJson(entry, lang, live, "page")}}`;
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;
