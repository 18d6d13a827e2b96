import type { ReactNode } from "react";
import { Form, NavLink, Outlet } from "react-router";
import { LanguageSwitch } from "#app/components/language-switch.tsx";
import { Logo } from "#app/components/logo.tsx";
import { ProgressBar } from "#app/components/progress-bar.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";

export type StaffLink = { to: string; label: string; end?: boolean };

/**
 * The frame of a staff console (the care console, the operations console): skip link, a header
 * with the console's name, who is logged in, the language switch and log out, the console's own
 * navigation, and the page.
 */
export function StaffLayout({
  label,
  identity,
  identityTestId,
  navLabel,
  links,
}: {
  label: string;
  identity: ReactNode;
  identityTestId: string;
  navLabel: string;
  links: readonly StaffLink[];
}) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main-content" className="skip-link">
        {t("common.skipToContent")}
      </a>
      <header className="relative border-border border-b bg-surface">
        <ProgressBar />
        <div className="page-container flex flex-wrap items-center justify-between gap-4 py-3">
          <div className="flex items-center gap-4">
            <Logo />
            <span className="font-semibold text-ink-muted">{label}</span>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <p className="text-ink" data-testid={identityTestId}>
              {identity}
            </p>
            <LanguageSwitch />
            <Form method="post" action="/logout" className="contents">
              <button type="submit" className="button-primary">
                {t("nav.logOut")}
              </button>
            </Form>
          </div>
        </div>
        <nav aria-label={navLabel} className="page-container flex flex-wrap gap-4 pb-3">
          {links.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              end={link.end ?? false}
              className="link aria-[current=page]:font-semibold"
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}
