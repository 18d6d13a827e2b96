import { useRouteLoaderData } from "react-router";
import type { AnalyticsState } from "#app/lib/consent.ts";
import type { Locale } from "#app/lib/i18n.tsx";

/** The explicit public subset of the server environment (env.server.ts `getPublicEnv`). */
export type PublicEnv = { productName: string; sessionIdleMinutes: number };

/** What the root loader returns to every page. */
export type RootData = {
  locale: Locale;
  /**
   * The active language's strings, only those of the routes this URL shows, as JSON text
   * (page-strings.ts: `pageTranslations` reads them).
   */
  strings: string;
  /** The ids of the routes whose strings `translations` holds. */
  stringRoutes?: string[];
  env: PublicEnv;
  /**
   * Whether the visitor is fully logged in (the login flag and the care token both set); no token
   * ever reaches the browser.
   * `isSubscribed`: the session's subscription flag, null when unknown or logged out.
   */
  user: { isLoggedIn: boolean; isSubscribed?: boolean | null };
  /**
   * The IANA zone a logged-in visitor's times are shown in (time-zone.server.ts); absent for an
   * anonymous page, which shows no one's times and so stays the same for every visitor.
   */
  timeZone?: string;
  /** The site's public origin (PUBLIC_URL or the request's): canonical and hreflang URLs. */
  siteUrl?: string;
  /** The build this page was rendered by (server.mjs): the latest-build poller compares with it. */
  buildId?: string | null;
  /** Analytics (ADR 017): null when ANALYTICS_SCRIPT_URL is unset (no script, no banner). */
  analytics?: AnalyticsState | null;
};

export const DEFAULT_PRODUCT_NAME = "Ambercare";

/** The root loader's data; `undefined` only when the root loader itself failed. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

/** The product name from the server's PRODUCT_NAME (default Ambercare). */
export function useProductName(): string {
  return useRootData()?.env.productName ?? DEFAULT_PRODUCT_NAME;
}
