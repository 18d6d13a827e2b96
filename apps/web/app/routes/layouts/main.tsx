import { Outlet } from "react-router";
import { NotSubscribedPopup } from "#app/features/membership/not-subscribed-popup.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { SiteFooter } from "#app/routes/layouts/site-footer.tsx";
import { SiteHeader } from "#app/routes/layouts/site-header.tsx";

/** The main layout: skip link, header with navigation, the page, footer. */
export default function MainLayout() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main-content" className="skip-link">
        {t("common.skipToContent")}
      </a>
      <SiteHeader />
      <main id="main-content" tabIndex={-1} className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
      <NotSubscribedPopup />
    </div>
  );
}
