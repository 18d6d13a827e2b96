import { useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { StaffLayout } from "#app/components/staff-layout.tsx";
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
    <StaffLayout
      label={t("console.label")}
      identityTestId="console-identity"
      identity={
        <>
          <span className="font-semibold">{clinician.name}</span>
          <span className="text-ink-muted"> · {clinician.provider.name}</span>
        </>
      }
      navLabel={t("console.nav.label")}
      links={[
        { to: "/console", label: t("console.nav.queue"), end: true },
        { to: "/console/hours", label: t("console.nav.hours") },
        { to: "/console/notifications", label: t("console.nav.notifications") },
      ]}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
