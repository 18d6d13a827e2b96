import { GeneralErrorBoundary } from "#app/components/error-boundary.tsx";
import { InfoPage } from "#app/components/page.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { requireRouteAccess } from "#app/lib/session.server.ts";
import type { Route } from "./+types/patient-consent-for-financial-communications";

export async function loader({ request }: Route.LoaderArgs) {
  await requireRouteAccess(request, "/patient-consent-for-financial-communications");
  return null;
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, "financialCommunicationsConsent");

export default function FinancialCommunicationsConsentPage() {
  return <InfoPage page="financialCommunicationsConsent" />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
