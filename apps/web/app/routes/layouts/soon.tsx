import { Outlet } from "react-router";
import { LanguageSwitch } from "#app/components/language-switch.tsx";
import { Logo } from "#app/components/logo.tsx";
import { ProgressBar } from "#app/components/progress-bar.tsx";
import { NotSubscribedPopup } from "#app/features/membership/not-subscribed-popup.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { SlimFooter } from "#app/routes/layouts/site-footer.tsx";

/** The "soon" layout (/blog, /blog/{page}, /medical-providers): slim header, centred content. */
export default function SoonLayout() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main-content" className="skip-link">
        {t("common.skipToContent")}
      </a>
      <header className="border-border border-b bg-surface">
        <ProgressBar />
        <div className="page-container flex flex-wrap items-center justify-between gap-3 py-3">
          <Logo />
          <LanguageSwitch className="text-sm" />
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="flex flex-1 items-center justify-center">
        <Outlet />
      </main>
      <SlimFooter />
      <NotSubscribedPopup />
    </div>
  );
}
