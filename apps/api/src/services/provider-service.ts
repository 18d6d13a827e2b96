import type { Provider, ProviderListQuery, ProviderListResponse } from "@ambercare/contracts/provider";
import { type PROVIDER_CREDENTIALS, PROVIDER_ERRORS } from "@ambercare/contracts/provider";
import type { ContentLanguage } from "@ambercare/contracts/specialization";
import { AppError } from "#api/errors.ts";
import type { ProviderLink, ProviderRepository, ProviderRow } from "#api/repositories/provider-repository.ts";

type Credentials = (typeof PROVIDER_CREDENTIALS)[number];

export function createProviderService(repository: ProviderRepository) {
  /** Rows → the public shape, with names in `lang`; conditions in that language's alphabetical order. */
  async function present(rows: ProviderRow[], lang: ContentLanguage): Promise<Provider[]> {
    const ids = rows.map((row) => row.id);
    const [specs, conds, licenses] = await Promise.all([
      repository.specializationsOf(ids),
      repository.conditionsOf(ids),
      repository.licensesOf(ids),
    ]);
    const collator = new Intl.Collator(lang, { sensitivity: "base" });
    const group = (links: ProviderLink[]) => {
      const byProvider = new Map<string, { slug: string; name: string }[]>();
      for (const link of links) {
        const list = byProvider.get(link.providerId) ?? [];
        list.push({ slug: link.slug, name: lang === "bg" ? link.nameBg : link.nameEn });
        byProvider.set(link.providerId, list);
      }
      return byProvider;
    };
    const specsOf = group(specs);
    const condsOf = group(conds);
    const statesOf = new Map<string, string[]>();
    for (const license of licenses) {
      const list = statesOf.get(license.providerId) ?? [];
      list.push(license.state);
      statesOf.set(license.providerId, list);
    }
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: `${row.firstName} ${row.lastName}`,
      first_name: row.firstName,
      last_name: row.lastName,
      // The check constraint providers_credentials_known guarantees the value.
      credentials: row.credentials as Credentials,
      photo: row.photoPath,
      bio: lang === "bg" ? row.bioBg : row.bioEn,
      specializations: specsOf.get(row.id) ?? [],
      conditions: (condsOf.get(row.id) ?? []).sort((a, b) => collator.compare(a.name, b.name)),
      states: statesOf.get(row.id) ?? [],
      languages: row.languages,
      offers_chat: row.offersChat,
      offers_video: row.offersVideo,
      available_today: row.availableToday,
      rating: { average: Number(row.ratingAverage), count: row.ratingCount },
    }));
  }

  return {
    /** One page of the directory; a page past the end is empty but still reports the total. */
    async search(query: ProviderListQuery): Promise<ProviderListResponse> {
      const { rows, total } = await repository.search(
        {
          namePrefix: query.q?.toLowerCase().replaceAll(/\s+/g, " "),
          specialization: query.specialization,
          condition: query.condition,
          state: query.state,
          type: query.type,
          availableToday: query.available_today,
        },
        query.sort,
        query.per_page,
        (query.page - 1) * query.per_page,
      );
      return {
        data: await present(rows, query.lang),
        meta: { page: query.page, per_page: query.per_page, total },
      };
    },

    async get(slug: string, lang: ContentLanguage): Promise<Provider> {
      const row = await repository.findBySlug(slug);
      if (!row) throw new AppError("NOT_FOUND", 404, PROVIDER_ERRORS.notFound);
      const [provider] = await present([row], lang);
      return provider!;
    },
  };
}

export type ProviderService = ReturnType<typeof createProviderService>;
