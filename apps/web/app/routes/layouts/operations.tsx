import { useLoaderData } from "react-router";
import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { StaffLayout } from "#app/components/staff-layout.tsx";
import { useTranslation } from "#app/lib/i18n.tsx";
import { requireRouteOperator } from "#app/lib/session.server.ts";
import type { Route } from "./+types/operations";

/**
 * The operations console's layout (ADR 065): every page under /operations is an operator's, so the
 * layout applies the rule of the page it wraps (the page applies it as well; the checks are made
 * once). A patient or a clinician gets the 403 page; an operator without two-step login its setup.
 */
export async function loader({ request, pattern }: Route.LoaderArgs) {
  const { user } = await requireRouteOperator(request, pattern);
  return { operator: user.operator };
}

/** Skip link, a header that says who is logged in, the console's sections, the page. */
export default function OperationsLayout() {
  const { t } = useTranslation();
  const { operator } = useLoaderData<typeof loader>();
  return (
    <StaffLayout
      label={t("operations.label")}
      identityTestId="operations-identity"
      identity={<span className="break-all font-semibold">{operator.name}</span>}
      navLabel={t("operations.nav.label")}
      links={[
        { to: "/operations", label: t("operations.nav.team"), end: true },
        { to: "/operations/today", label: t("operations.nav.today") },
        { to: "/operations/visits", label: t("operations.nav.visits") },
        { to: "/operations/directory", label: t("operations.nav.directory") },
        { to: "/operations/log", label: t("operations.nav.log") },
        { to: "/operations/access-log", label: t("operations.nav.accessLog") },
        { to: "/operations/reports", label: t("operations.nav.reports") },
      ]}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
