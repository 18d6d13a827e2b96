import { THEME_COLORS } from "@ambercare/contracts/theme";
import { type ComponentType, lazy, type ReactNode, Suspense, useEffect, useMemo } from "react";
import {
  data,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useMatches,
} from "react-router";
import { DeferredScripts } from "#app/components/deferred-scripts.tsx";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { useHydrated } from "#app/components/hydrated.ts";
import { PlatformClient } from "#app/components/platform-client.tsx";
import { SupportWidget } from "#app/features/communications/support-widget.tsx";
import { sessionSubscription } from "#app/features/membership/membership.server.ts";
import { showsSupportWidget } from "#app/lib/console-layout.ts";
import { analyticsState, getPublicEnv, isSecureRequest } from "#app/lib/env.server.ts";
import { createI18n, DEFAULT_LOCALE, I18nProvider, type Locale } from "#app/lib/i18n.tsx";
import { chooseLocale } from "#app/lib/locale.server.ts";
import { pageMeta } from "#app/lib/meta.ts";
import { useNonce } from "#app/lib/nonce.ts";
import { stringsForPath } from "#app/lib/page-strings.server.ts";
import { hasStringsFor, pageTranslations } from "#app/lib/page-strings.ts";
import { type RootData, useRootData } from "#app/lib/root-data.ts";
import { siteUrl } from "#app/lib/seo.server.ts";
import { getUser, headersWithCookies } from "#app/lib/session.server.ts";
import { pageTimeZone } from "#app/lib/time-zone.server.ts";
import { timeZoneScript } from "#app/lib/time-zone.ts";
import { forgetVisitStorage } from "#app/lib/visit-storage.ts";
// Only the error texts ship in the bundle, for the rare page whose root loader failed.
import { errors as fallbackErrors } from "#app/locales/en.json";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";

// Loaded only where an analytics script is configured and the visitor has not chosen yet.
const ConsentBanner = lazy<ComponentType>(() =>
  import("#app/components/consent-banner.tsx").then(
    (m) => ({ default: m.ConsentBanner }),
    // Without its code there is no banner, and without consent no analytics: the safe side.
    () => ({ default: () => null }),
  ),
);

// Loaded only for a logged-in visitor: it reads the table of pages that need a login, which an
// anonymous visitor's first page should not download.
const IdleWarning = lazy<ComponentType<{ idleMinutes: number }>>(() =>
  import("#app/components/idle-warning.tsx").then(
    (m) => ({ default: m.IdleWarning }),
    // Without its code there is no warning; the server still ends the idle session.
    () => ({ default: () => null }),
  ),
);

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  // Web platform (ADR 011): installable app manifest and the iOS home-screen icon.
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { locale, setCookie } = chooseLocale(request, { secure: isSecureRequest(request) });
  const user = getUser(request);
  // The session's subscription flags: looked up once per session, then read from the cookies.
  const subscription = await sessionSubscription(request, user);
  const strings = stringsForPath(locale, new URL(request.url).pathname);
  const body: RootData = {
    locale,
    strings: strings.json,
    stringRoutes: strings.routes,
    env: getPublicEnv(),
    user: { isLoggedIn: user !== null, isSubscribed: subscription.flags?.isSubscribed ?? null },
    // Only a logged-in page shows times in the visitor's zone: the anonymous page cache shares one
    // page across zones (page-cache.server.ts).
    ...(user ? { timeZone: pageTimeZone(request) } : {}),
    siteUrl: siteUrl(request),
    buildId: context.buildId ?? null,
    analytics: analyticsState(request),
  };
  const cookies = [...(setCookie ? [setCookie] : []), ...subscription.cookies];
  return data(body, cookies.length > 0 ? { headers: headersWithCookies(cookies) } : undefined);
}

/** Paths whose visit can change the session: the header's logged-in state is read again there. */
const SESSION_PATHS = new Set(["/login", "/logout", "/sign-up"]);

/**
 * The root loader carries the strings of the page's routes, so it runs again only when something
 * it returns can change or is missing: a form submission (login, logout…), a `?lang=` switch, a
 * visit to a session page, a page whose routes' strings the browser has not received yet (they
 * come in the same request as the page's data), or an explicit revalidation of the same URL.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  const nextLang = nextUrl.searchParams.get("lang");
  if (nextLang !== null && nextLang !== currentUrl.searchParams.get("lang")) return true;
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  if (!hasStringsFor(document.documentElement.lang as Locale, nextUrl.pathname)) return true;
  return SESSION_PATHS.has(nextUrl.pathname);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, null);

export function Layout({ children }: { children: ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  const locale = root?.locale;
  const strings = root?.strings;
  const stringRoutes = root?.stringRoutes;
  const i18n = useMemo(
    () =>
      locale && strings
        ? createI18n(locale, pageTranslations({ locale, strings, stringRoutes }))
        : createI18n(DEFAULT_LOCALE, { errors: fallbackErrors }),
    [locale, strings, stringRoutes],
  );
  // Set in the render that follows hydration, the same one in which every JavaScript-only control
  // appears: from then on the page is interactive and its layout final (styles and the browser
  // journeys rely on it).
  const hydrated = useHydrated();
  const matches = useMatches();
  return (
    <html lang={i18n.language} dir="ltr" data-hydrated={hydrated ? "" : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLORS.primary} />
        {/* Before anything else: the browser's time zone for the server's next render (at once on a logged-in page, else when a form is sent). */}
        <script
          nonce={nonce || undefined}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: one of two constant scripts of this build (time-zone.ts), no input
          dangerouslySetInnerHTML={{ __html: timeZoneScript(root?.user.isLoggedIn ? "now" : "on-submit") }}
        />
        <Meta />
        <Links />
        {/* Analytics only after the visitor accepted (ADR 017); the CSP allows its origin. */}
        {root?.analytics?.consent === "granted" ? (
          <script async src={root.analytics.scriptUrl} nonce={nonce || undefined} />
        ) : null}
      </head>
      <body>
        <I18nProvider i18n={i18n}>
          {children}
          {root && showsSupportWidget(matches.map((match) => match.id)) ? (
            <SupportWidget loggedIn={root.user.isLoggedIn} />
          ) : null}
          {root?.analytics?.consent === null ? (
            <Suspense fallback={null}>
              <ConsentBanner />
            </Suspense>
          ) : null}
        </I18nProvider>
        <PlatformClient buildId={root?.buildId ?? null} />
        <ScrollRestoration nonce={nonce} />
        <DeferredScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const root = useRootData();
  // Mounted after hydration, not rendered by the server: it shows nothing until a warning is due,
  // and a lazy part in the server's HTML would hold the hydration flag back until its chunk has
  // loaded (ADR 048).
  const hydrated = useHydrated();
  const loggedIn = root?.user.isLoggedIn;
  useEffect(() => {
    // Nobody is logged in on this page (a logout, the idle timeout, a session that ended
    // elsewhere): what the visit pages kept in this browser goes, so the next person cannot read it.
    if (loggedIn === false) forgetVisitStorage();
  }, [loggedIn]);
  return (
    <>
      <Outlet />
      {hydrated && root?.user.isLoggedIn ? (
        <Suspense fallback={null}>
          <IdleWarning idleMinutes={root.env.sessionIdleMinutes} />
        </Suspense>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main-content" className="min-h-dvh bg-surface">
      <GeneralErrorBoundary />
    </main>
  );
}
