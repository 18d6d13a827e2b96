import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { LanguageSwitch } from "#app/components/language-switch.tsx";
import { Logo } from "#app/components/logo.tsx";
import { ProgressBar } from "#app/components/progress-bar.tsx";
import { PRIMARY_NAV } from "#app/components/site-links.ts";
import { useTranslation } from "#app/lib/i18n.tsx";
import { useRootData } from "#app/lib/root-data.ts";

function navLinkClass({ isActive }: { isActive: boolean }): string {
  return `rounded-sm whitespace-nowrap font-medium no-underline hover:text-primary-ink ${
    isActive ? "text-primary-ink underline decoration-2 underline-offset-8" : "text-ink"
  }`;
}

function PrimaryLinks({ vertical = false }: { vertical?: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className={vertical ? "flex flex-col gap-1" : "flex items-center gap-x-5 desktop:gap-x-7"}>
      {PRIMARY_NAV.map((link) => (
        <li key={link.to}>
          <NavLink
            to={link.to}
            className={
              vertical
                ? (state) => `block py-2 ${navLinkClass(state)}`
                : (state) => `py-1 ${navLinkClass(state)}`
            }
          >
            {t(`nav.${link.key}`)}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function AccountLinks({ vertical = false }: { vertical?: boolean }) {
  const { t } = useTranslation();
  const isLoggedIn = useRootData()?.user.isLoggedIn ?? false;
  const layout = vertical ? "flex flex-col items-stretch gap-3" : "flex items-center gap-3";
  if (isLoggedIn) {
    return (
      <div className={layout}>
        <Link to="/my-profile" className="button-secondary">
          {t("nav.myProfile")}
        </Link>
        <Form method="post" action="/logout" className="contents">
          <button type="submit" className="button-primary">
            {t("nav.logOut")}
          </button>
        </Form>
      </div>
    );
  }
  return (
    <div className={layout}>
      <Link to="/login" className="button-secondary">
        {t("nav.logIn")}
      </Link>
      <Link to="/sign-up" className="button-primary">
        {t("nav.signUp")}
      </Link>
    </div>
  );
}

/** Main layout header: language bar, logo, navigation, account links; a <details> menu below 1280 px (the Bulgarian labels need the room). */
export function SiteHeader() {
  const { t } = useTranslation();
  const location = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);

  // Close the mobile menu after a navigation (it works without JavaScript; this only tidies up).
  useEffect(() => {
    if (menu.current && location.key) menu.current.open = false;
  }, [location.key]);

  return (
    <header className="relative border-border border-b bg-surface">
      <ProgressBar />
      <div className="bg-surface-muted">
        <div className="page-container flex justify-end py-1.5 text-sm">
          <LanguageSwitch />
        </div>
      </div>
      <div className="page-container flex items-center justify-between gap-4 py-3">
        <Logo />
        <nav aria-label={t("nav.primaryLabel")} className="hidden desktop:block">
          <PrimaryLinks />
        </nav>
        <div className="hidden desktop:block">
          <AccountLinks />
        </div>
        <details ref={menu} className="group desktop:hidden">
          <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-md border-2 border-ink px-3 font-semibold [&::-webkit-details-marker]:hidden">
            <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" className="size-5">
              <path
                className="group-open:hidden"
                d="M3 6h18M3 12h18M3 18h18"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
              <path
                className="hidden group-open:block"
                d="M6 6l12 12M18 6 6 18"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
            {t("nav.menu")}
          </summary>
          <div className="absolute inset-x-0 z-40 mt-3 border-border border-b bg-surface shadow-lg">
            <div className="page-container flex flex-col gap-5 py-4">
              <nav aria-label={t("nav.primaryLabel")}>
                <PrimaryLinks vertical />
              </nav>
              <AccountLinks vertical />
            </div>
          </div>
        </details>
      </div>
    </header>
  );
}
