import type { Specialization } from "@ambercare/contracts/specialization";
import { anonymousApi, visitorHeaders } from "#app/lib/api.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";

/**
 * The specializations of the main API (`GET /api/v1/api/specialization?lang=`) for pages
 * that show them beside other content (the home page). Such a page must not fail with the API:
 * this returns `null` when the API is down, slow (over `timeoutMs`) or answers something unexpected.
 * A good answer is kept for a minute per language, so a busy home page does not call the API on
 * every visit.
 */
const CACHE_MS = 60_000;
const cache = new Map<Locale, { at: number; list: Specialization[] }>();

export async function fetchSpecializations(
  locale: Locale,
  options: { context?: { clientIp?: string }; timeoutMs?: number; now?: number } = {},
): Promise<Specialization[] | null> {
  const now = options.now ?? Date.now();
  const cached = cache.get(locale);
  if (cached && now - cached.at < CACHE_MS) return cached.list;
  try {
    const api = anonymousApi({ timeoutMs: options.timeoutMs ?? 2_500 });
    const { data: list } = await api.directory.listSpecializations(
      { query: { lang: locale } },
      { headers: visitorHeaders(options.context) },
    );
    cache.set(locale, { at: now, list });
    return list;
  } catch (error) {
    console.warn(`specializations: ${(error as Error).message}`);
    return null;
  }
}
