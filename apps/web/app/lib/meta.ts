import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { lookup, type Translations } from "./i18n.tsx";
import { DEFAULT_PRODUCT_NAME, type RootData } from "./root-data.ts";

export type PageKey = keyof Translations["pages"];

type MetaArgsLike = {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  error?: unknown;
};

function rootData(args: MetaArgsLike): RootData | undefined {
  return args.matches.find((match) => match?.id === "root")?.loaderData as RootData | undefined;
}

/** "Page name | Product" (spec §1); the product name alone when there is no page name. */
export function documentTitle(pageName: string | null | undefined, productName: string): string {
  return pageName ? `${pageName} | ${productName}` : productName;
}

/** The error titles of spec §2: 'Page Not Found' for 404, 'Internal Server Error' otherwise. */
export function errorKind(error: unknown): "notFound" | "serverError" {
  return isRouteErrorResponse(error) && error.status === 404 ? "notFound" : "serverError";
}

/**
 * Title and description of a page, translated from the root loader's strings:
 * `export const meta: Route.MetaFunction = (args) => pageMeta(args, "privacyPolicy")`.
 * `page: null` gives the product name alone (the home page, the only page without a name).
 * On an error the error's title is used ('Page Not Found | Ambercare').
 */
export function pageMeta(
  args: MetaArgsLike,
  page: PageKey | null,
  /** A page name or description from the page's data (a blog post's title…) instead of the locale's. */
  override: { name?: string; description?: string } = {},
): MetaDescriptor[] {
  const root = rootData(args);
  const productName = root?.env.productName ?? DEFAULT_PRODUCT_NAME;
  const translations = root?.translations;
  if (args.error !== undefined && args.error !== null) {
    const kind = errorKind(args.error);
    const fallback = kind === "notFound" ? "Page Not Found" : "Internal Server Error";
    return [{ title: documentTitle(lookup(translations, `errors.${kind}.title`) ?? fallback, productName) }];
  }
  const name = override.name ?? (page === null ? null : lookup(translations, `pages.${page}.title`));
  const description = override.description ?? lookup(translations, `pages.${page ?? "home"}.description`);
  return [
    { title: documentTitle(name, productName) },
    ...(description ? [{ name: "description", content: description }] : []),
  ];
}
