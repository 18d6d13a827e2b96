import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createI18n, I18nProvider, type Locale } from "#app/lib/i18n.tsx";
import bg from "#app/locales/bg.json";
import en from "#app/locales/en.json";

/**
 * The server's HTML of `node` in a page of its own, in `locale`, for the web's tests (no root data:
 * dates are in UTC, the zone of a viewer whose zone is not known).
 */
export function renderInPage(node: ReactNode, locale: Locale = "en"): string {
  const router = createMemoryRouter([{ path: "*", element: node }]);
  return renderToString(
    <I18nProvider i18n={createI18n(locale, locale === "en" ? en : bg)}>
      <RouterProvider router={router} />
    </I18nProvider>,
  ).replace(/<!-- -->/g, "");
}
