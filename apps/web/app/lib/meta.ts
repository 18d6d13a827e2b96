import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { isLocale, LOCALES, lookup, type Translations } from "#app/lib/i18n.tsx";
import { pageTranslations } from "#app/lib/page-strings.ts";
import { DEFAULT_PRODUCT_NAME, type RootData } from "#app/lib/root-data.ts";
import { alternateLinks, isIndexable, localizedUrl, openGraphLocale } from "#app/lib/seo.ts";

export type PageKey = keyof Translations["pages"];

type MetaArgsLike = {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  error?: unknown;
  /** The page's URL (React Router's meta args carry it): canonical, hreflang, robots. */
  location?: { pathname: string; search: string };
};

function rootData(args: MetaArgsLike): RootData | undefined {
  return args.matches.find((match) => match?.id === "root")?.loaderData as RootData | undefined;
}

/** "Page name | Product"; the product name alone when there is no page name. */
export function documentTitle(pageName: string | null | undefined, productName: string): string {
  return pageName ? `${pageName} | ${productName}` : productName;
}

export type ErrorKind =
  | "notFound"
  | "forbidden"
  | "badRequest"
  | "tooManyRequests"
  | "unavailable"
  | "serverError";

/**
 * The error titles: 'Page Not Found' for 404, 'Internal Server Error' for a failure of
 * the site. A form the site cannot read (400, 413, 415) and a service that is down for a while
 * (503) have pages of their own, so the visitor knows whether to resend or to come back later; so
 * has a visitor over their request budget (429), which is told how long to wait and never shown a 500.
 */
export function errorKind(error: unknown): ErrorKind {
  if (!isRouteErrorResponse(error)) return "serverError";
  if (error.status === 404) return "notFound";
  if (error.status === 403) return "forbidden";
  if (error.status === 503) return "unavailable";
  if (error.status === 429) return "tooManyRequests";
  if (error.status === 400 || error.status === 413 || error.status === 415) return "badRequest";
  return "serverError";
}

/** `<meta name="robots" content="noindex">`: account pages, steps of a flow, error pages. */
const NOINDEX: MetaDescriptor = { name: "robots", content: "noindex" };

/**
 * The head of an indexable page beyond title and description: canonical URL, hreflang alternates
 * and Open Graph tags. The canonical URL is the page's own: the URL without a query for the default
 * address, `?lang=bg` kept for the Bulgarian address (each language version names itself, as search
 * engines expect of pages with hreflang alternates; every other query parameter is dropped).
 */
function discoveryMeta(
  args: MetaArgsLike,
  root: RootData | undefined,
  title: string,
  description: string | undefined,
  productName: string,
): MetaDescriptor[] {
  const location = args.location;
  const siteUrl = root?.siteUrl;
  if (!location || !siteUrl) return [];
  const requested = new URLSearchParams(location.search).get("lang");
  const canonical = localizedUrl(siteUrl, location.pathname, isLocale(requested) ? requested : null);
  const locale = root.locale;
  return [
    { tagName: "link", rel: "canonical", href: canonical },
    ...alternateLinks(siteUrl, location.pathname).map((link) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: link.hreflang,
      href: link.href,
    })),
    { property: "og:site_name", content: productName },
    { property: "og:type", content: "website" },
    { property: "og:title", content: title },
    ...(description ? [{ property: "og:description", content: description }] : []),
    { property: "og:url", content: canonical },
    { property: "og:locale", content: openGraphLocale(locale) },
    ...LOCALES.filter((other) => other !== locale).map((other) => ({
      property: "og:locale:alternate",
      content: openGraphLocale(other),
    })),
  ];
}

/**
 * Title and description of a page, translated from the root loader's strings:
 * `export const meta: Route.MetaFunction = (args) => pageMeta(args, "privacyPolicy")`.
 * `page: null` gives the product name alone (the home page, the only page without a name).
 * On an error the error's title is used ('Page Not Found | Ambercare').
 * With the page's URL (`args.location`) it adds what search engines read (lib/seo.ts): noindex on
 * pages that must not be indexed; canonical, hreflang and Open Graph on the others.
 */
export function pageMeta(
  args: MetaArgsLike,
  page: PageKey | null,
  /** A page name or description from the page's data (a blog post's title…) instead of the locale's. */
  override: { name?: string; description?: string } = {},
): MetaDescriptor[] {
  const root = rootData(args);
  const productName = root?.env.productName ?? DEFAULT_PRODUCT_NAME;
  const translations = root ? pageTranslations(root) : undefined;
  if (args.error !== undefined && args.error !== null) {
    const kind = errorKind(args.error);
    const fallback = kind === "notFound" ? "Page Not Found" : "Internal Server Error";
    return [
      { title: documentTitle(lookup(translations, `errors.${kind}.title`) ?? fallback, productName) },
      NOINDEX,
    ];
  }
  const name = override.name ?? (page === null ? null : lookup(translations, `pages.${page}.title`));
  const description = override.description ?? lookup(translations, `pages.${page ?? "home"}.description`);
  const title = documentTitle(name, productName);
  const indexable = args.location ? isIndexable(args.location.pathname) : false;
  return [
    { title },
    ...(description ? [{ name: "description", content: description }] : []),
    ...(args.location && !indexable ? [NOINDEX] : []),
    ...(indexable ? discoveryMeta(args, root, title, description, productName) : []),
  ];
}

/**
 * A content page's head: its name and description come from the Markdown's front matter (the page
 * key names the locale's strings, used only if the loader failed).
 */
export function contentMeta(
  args: MetaArgsLike & { loaderData?: { document?: { title: string; description: string } } | undefined },
  page: PageKey,
): MetaDescriptor[] {
  const document = args.loaderData?.document;
  return pageMeta(args, page, document ? { name: document.title, description: document.description } : {});
}

/**
 * schema.org MedicalOrganization (JSON-LD) for the home page: who runs the site, where it is, what
 * it offers. Only facts the site states elsewhere (name, address, languages, country served).
 */
export function medicalOrganizationJsonLd(args: MetaArgsLike): MetaDescriptor | null {
  const root = rootData(args);
  if (!root?.siteUrl) return null;
  const productName = root.env.productName;
  const url = localizedUrl(root.siteUrl, "/", null);
  return {
    "script:ld+json": {
      "@context": "https://schema.org",
      "@type": "MedicalOrganization",
      name: productName,
      url,
      logo: `${url}favicon.svg`,
      description: lookup(pageTranslations(root), "pages.home.description"),
      medicalSpecialty: "PrimaryCare",
      isAcceptingNewPatients: true,
      areaServed: { "@type": "Country", name: "United States" },
      knowsLanguage: [...LOCALES],
    },
  };
}

/**
 * The seconds a 429 asks to wait: `retry_after` in the answer's data, which is an object when a
 * loader threw it (outage.server.ts) and the JSON text of the web server's own limit when the page's
 * route data was refused before React Router saw it (edge-rate-limit.server.ts). At least 1; 10 when
 * the answer does not say.
 */
export function retryAfterOf(error: unknown): number {
  if (!isRouteErrorResponse(error)) return 10;
  let body: unknown = error.data;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body);
    } catch {
      body = null;
    }
  }
  const seconds =
    body !== null && typeof body === "object" && "retry_after" in body
      ? Number(body.retry_after)
      : Number.NaN;
  return Number.isFinite(seconds) ? Math.min(Math.max(Math.ceil(seconds), 1), 3_600) : 10;
}
