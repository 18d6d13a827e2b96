import { Outlet, useMatches } from "react-router";
import { NotSubscribedPopup } from "#app/features/membership/not-subscribed-popup.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { SiteFooter } from "#app/routes/layouts/site-footer.tsx";
import { SiteHeader } from "#app/routes/layouts/site-header.tsx";

/** A page whose route `handle` has `focused: true` (paying) shows no footer, newsletter or popup. */
function isFocusedPage(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && "focused" in handle && handle.focused === true;
}

/** The main layout: skip link, header with navigation, the page, footer. */
export default function MainLayout() {
  const { t } = useTranslation();
  const focused = useMatches().some((match) => isFocusedPage(match.handle));
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main-content" className="skip-link">
        {t("common.skipToContent")}
      </a>
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1">
        <Outlet />
      </main>
      {focused ? null : <SiteFooter />}
      {focused ? null : <NotSubscribedPopup />}
    </div>
  );
}
