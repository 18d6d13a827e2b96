import { Form, NavLink, Outlet, useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { LanguageSwitch } from "#app/components/language-switch.tsx";
import { Logo } from "#app/components/logo.tsx";
import { ProgressBar } from "#app/components/progress-bar.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requireRouteClinician } from "#app/lib/session.server.ts";
import type { Route } from "./+types/console";

/**
 * The care console's layout: every page under /console is a clinician's, so the layout itself
 * applies the rule of the page it wraps (the page applies it as well; the checks are made once).
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteClinician(request, pattern);
  return { clinician: user.clinician };
}

/** Skip link, a header that says who is logged in and as which provider, the page. */
export default function ConsoleLayout() {
  const { t } = useTranslation();
  const { clinician } = useLoaderData<typeof loader>();
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
            <span className="font-semibold text-ink-muted">{t("console.label")}</span>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <p className="text-ink" data-testid="console-identity">
              <span className="font-semibold">{clinician.name}</span>
              <span className="text-ink-muted"> · {clinician.provider.name}</span>
            </p>
            <LanguageSwitch />
            <Form method="post" action="/logout" className="contents">
              <button type="submit" className="button-primary">
                {t("nav.logOut")}
              </button>
            </Form>
          </div>
        </div>
        <nav aria-label={t("console.nav.label")} className="page-container flex flex-wrap gap-4 pb-3">
          <NavLink to="/console" end className="link aria-[current=page]:font-semibold">
            {t("console.nav.queue")}
          </NavLink>
          <NavLink to="/console/hours" className="link aria-[current=page]:font-semibold">
            {t("console.nav.hours")}
          </NavLink>
          <NavLink to="/console/notifications" className="link aria-[current=page]:font-semibold">
            {t("console.nav.notifications")}
          </NavLink>
        </nav>
      </header>
      <main id="main-content" tabIndex={-1} className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
