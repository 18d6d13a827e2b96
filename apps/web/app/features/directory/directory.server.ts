import { type Provider, type ProviderCard, providerListQuery } from "@ambercare/contracts/provider";
import { PER_PAGE_MAX } from "@ambercare/contracts/provider-limits";
import { AVAILABILITY_TODAY_COOKIE_MAX_AGE_S, SESSION_COOKIES } from "@ambercare/contracts/session";
import { fetchSpecializations } from "#app/features/directory/specializations.server.ts";
import { publicApi, visitorHeaders } from "#app/lib/api.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { readCookie } from "#app/lib/cookies.server.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { sessionCookie } from "#app/lib/session.server.ts";

/**
 * The find-a-doctor search of the web server: the URL's query is the search (a GET form fills it,
 * links share it, Back restores it), checked here and passed on to `GET /api/v1/api/provider`.
 */

/** The search's URL parameters, in the order of the form. `page` comes from the pagination links. */
export const SEARCH_FIELDS = [
  "q",
  "specialization",
  "condition",
  "state",
  "type",
  "available_today",
  "sort",
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
const SEARCH_PARAMS: readonly string[] = [...SEARCH_FIELDS, "page"];
/** The site's own language parameter (`?lang=bg`, locale.server.ts) may accompany any page. */
const SITE_PARAMS: readonly string[] = ["lang"];

export const RESULTS_PER_PAGE = 20;

export type SearchValues = Partial<Record<SearchField, string>>;
export type NamedOption = { slug: string; name: string };

export type DirectorySearch =
  | {
      status: "ok";
      values: SearchValues;
      providers: ProviderCard[];
      total: number;
      page: number;
      perPage: number;
      pageCount: number;
    }
  /** Parameters the search cannot use: named so the page can say which. */
  | { status: "invalid"; values: SearchValues; invalid: Array<SearchField | "page" | "other"> }
  | { status: "unavailable"; values: SearchValues };

/** The raw values of the form's fields as they are in the URL (what the visitor typed is kept). */
export function searchValues(params: URLSearchParams): SearchValues {
  const values: SearchValues = {};
  for (const field of SEARCH_FIELDS) {
    const value = params.get(field);
    if (value !== null && value !== "") values[field] = value;
  }
  return values;
}

/** Whether the URL carries a search at all (a bare /find-a-doctor does not). */
export function hasSearchParams(params: URLSearchParams): boolean {
  return SEARCH_PARAMS.some((name) => params.has(name));
}

/**
 * Checks the URL's parameters against the API's own schema (packages/contracts), so a bad link is
 * answered by the page in the visitor's language and not by a failed call. Each parameter may
 * appear once; `available_today` is the checkbox ("true" when ticked).
 */
export function parseSearch(
  params: URLSearchParams,
  locale: Locale,
):
  | { ok: true; query: Record<string, string> }
  | { ok: false; invalid: Array<SearchField | "page" | "other"> } {
  const invalid = new Set<SearchField | "page" | "other">();
  const query: Record<string, string> = {};
  for (const name of new Set(params.keys())) {
    if (SITE_PARAMS.includes(name)) continue;
    if (!SEARCH_PARAMS.includes(name)) {
      invalid.add("other");
      continue;
    }
    const all = params.getAll(name);
    if (all.length > 1) invalid.add(name as SearchField | "page");
    query[name] = all[0] ?? "";
  }
  if (query.available_today !== undefined && !["", "true"].includes(query.available_today)) {
    invalid.add("available_today");
  }
  const parsed = providerListQuery.safeParse({ ...query, per_page: String(RESULTS_PER_PAGE), lang: locale });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      invalid.add(SEARCH_PARAMS.includes(field) ? (field as SearchField | "page") : "other");
    }
  }
  if (invalid.size > 0) return { ok: false, invalid: [...invalid] };
  return { ok: true, query: { ...query, per_page: String(RESULTS_PER_PAGE), lang: locale } };
}

/** One page of the directory for the URL's search, or why there is none. */
export async function searchDirectory(
  params: URLSearchParams,
  locale: Locale,
  context?: { clientIp?: string },
): Promise<DirectorySearch> {
  const values = searchValues(params);
  const parsed = parseSearch(params, locale);
  if (!parsed.ok) return { status: "invalid", values, invalid: parsed.invalid };
  try {
    const { data, meta } = await publicApi().directory.searchProviders(
      { query: parsed.query },
      { headers: visitorHeaders(context) },
    );
    return {
      status: "ok",
      values,
      providers: data,
      total: meta.total,
      page: meta.page,
      perPage: meta.per_page,
      pageCount: Math.max(1, Math.ceil(meta.total / meta.per_page)),
    };
  } catch (error) {
    // An answer outside the contract is an ApiError too (502): the search is unavailable.
    if (!isApiError(error)) throw error;
    // The page checked the parameters already; a 400 here means the two disagree about one.
    if (error.status === 400) return { status: "invalid", values, invalid: ["other"] };
    console.warn(`find-a-doctor: ${error.message}`);
    return { status: "unavailable", values };
  }
}

/**
 * One provider by slug, for the provider's page and the intake form's "with this provider": `null`
 * when there is no such provider (a 404 for the page).
 */
export async function fetchProvider(
  slug: string,
  locale: Locale,
  context?: { clientIp?: string },
): Promise<Provider | null | "unavailable"> {
  // The API's slugs are lower-case words joined by hyphens; anything else cannot be one.
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) || slug.length > 200) return null;
  try {
    const answer = await publicApi().directory.getProvider(
      { params: { slug }, query: { lang: locale } },
      { headers: visitorHeaders(context) },
    );
    return answer.data;
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 404) return null;
    console.warn(`provider page: ${error.message}`);
    return "unavailable";
  }
}

/**
 * The shortest wait a new request can expect right now with any provider whose clinician is on
 * duty (only they have an expected wait), other than `exceptSlug`: what a patient choosing a
 * provider who is not on duty can expect, since after the chosen provider's first minutes any
 * clinician on duty may take the request. `null`: nobody is on duty; "unknown": the API failed.
 */
export async function shortestOnDutyWait(
  exceptSlug: string,
  locale: Locale,
  context?: { clientIp?: string },
): Promise<number | null | "unknown"> {
  try {
    const { data, meta } = await publicApi().directory.searchProviders(
      { query: { available_today: "true", per_page: String(PER_PAGE_MAX), lang: locale } },
      { headers: visitorHeaders(context) },
    );
    const waits = data
      .filter((provider) => provider.slug !== exceptSlug && provider.expected_wait_minutes !== null)
      .map((provider) => provider.expected_wait_minutes as number);
    if (waits.length > 0) return Math.min(...waits);
    // More providers are available than one page holds: one on duty may be among the rest, so the
    // page must not say that nobody is.
    return meta.total > data.length ? "unknown" : null;
  } catch (error) {
    if (!isApiError(error)) throw error;
    console.warn(`provider page: ${error.message}`);
    return "unknown";
  }
}

/** The specializations and every condition they cover, for the filters (`null`: the API failed). */
export async function fetchCatalogue(
  locale: Locale,
  context?: { clientIp?: string },
): Promise<{ specializations: NamedOption[]; conditions: NamedOption[] } | null> {
  const list = await fetchSpecializations(locale, { context });
  if (!list) return null;
  const conditions = new Map<string, string>();
  for (const specialization of list) {
    for (const condition of specialization.conditions) conditions.set(condition.slug, condition.name);
  }
  const collator = new Intl.Collator(locale, { sensitivity: "base" });
  return {
    specializations: list.map(({ slug, name }) => ({ slug, name })),
    conditions: [...conditions]
      .map(([slug, name]) => ({ slug, name }))
      .sort((a, b) => collator.compare(a.name, b.name)),
  };
}

/**
 * The `availabilityToday` cookie (docs/decisions/014): the visitor's "available today"
 * choice, remembered for an hour. A search that carries parameters states the choice (ticked or
 * not) and refreshes or clears the cookie; a bare /find-a-doctor with the cookie set is sent to the
 * search with the box ticked, so the URL still holds the whole search.
 */
export const AVAILABILITY_COOKIE = SESSION_COOKIES.availabilityToday;

export function availabilityChoice(
  request: Request,
  params: URLSearchParams,
): { redirectTo: string | null; setCookie: string | null } {
  const remembered = readCookie(request.headers.get("Cookie"), AVAILABILITY_COOKIE) === "true";
  const secure = isSecureRequest(request);
  if (!hasSearchParams(params)) {
    if (!remembered) return { redirectTo: null, setCookie: null };
    const next = new URLSearchParams(params);
    next.set("available_today", "true");
    return { redirectTo: `/find-a-doctor?${next}`, setCookie: null };
  }
  const ticked = params.get("available_today") === "true";
  if (ticked) {
    return {
      redirectTo: null,
      setCookie: sessionCookie(AVAILABILITY_COOKIE, "true", {
        secure,
        maxAge: AVAILABILITY_TODAY_COOKIE_MAX_AGE_S,
      }),
    };
  }
  return {
    redirectTo: null,
    setCookie: remembered ? sessionCookie(AVAILABILITY_COOKIE, "", { secure, maxAge: 0 }) : null,
  };
}
